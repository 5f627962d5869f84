/// Explicit input on the command line, which replaces every configured source.
public enum LocationOverride: Sendable {
    /// `--lat/--lon`.
    case coordinate(FixedPlace)
    /// `--replay FILE [--replay-speed N|max]`.
    case replay(path: String, speed: ReplaySpeed)
    /// `--city NAME`: looked up with the weather provider's geocoding service.
    case city(CityQuery)
}

/// The provider for `sources = ["nmea"]` without `[location.nmea] path`.
public struct MissingNMEAPathProvider: LocationSourceProvider {
    public let configPath: String
    public var source: LocationSource { .nmea }

    public init(configPath: String) {
        self.configPath = configPath
    }

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        throw LocationError.nmeaUnreadable(path: "(none)", reason: "\(ConfigKey.nmeaPath) is not set in \(configPath); set it to a log file or a serial device, or pass --replay FILE")
    }
}

/// The provider for `sources = []`: fails with a message saying how to add one.
public struct EmptyLocationProvider: LocationProvider {
    public let configPath: String

    public init(configPath: String) {
        self.configPath = configPath
    }

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        throw LocationError.noSources(configPath: configPath)
    }
}
