/// Explicit input on the command line, which replaces every configured source.
public enum LocationOverride: Sendable {
    /// `--lat/--lon`.
    case coordinate(FixedPlace)
    /// `--replay FILE [--replay-speed N|max]`.
    case replay(path: String, speed: ReplaySpeed)
}

/// Builds the location and weather providers a configuration names.
public enum ProviderFactory {
    /// The location source chain in the configured order, or the command line's override.
    /// `makeGPSD` builds the gpsd provider (it lives outside the core, beside libgps).
    public static func locationProvider(
        _ config: Configuration, configPath: String, override: LocationOverride?,
        makeGPSD: (Configuration.GPSDSettings) -> any LocationProvider
    ) -> any LocationProvider {
        switch override {
        case .coordinate(let place):
            return FixedLocationProvider(place: place, source: .commandLine, configPath: configPath)
        case .replay(let path, let speed):
            return NMEAReplayLocationProvider(path: path, speed: speed)
        case nil:
            break
        }
        guard !config.location.sources.isEmpty else { return EmptyLocationProvider(configPath: configPath) }
        return LocationSourceChain(config.location.sources.map { source -> any LocationProvider in
            switch source {
            case .gpsd:
                return makeGPSD(config.location.gpsd)
            case .nmea:
                guard let path = config.location.nmea.path else { return MissingNMEAPathProvider(configPath: configPath) }
                return NMEAReplayLocationProvider(path: path, speed: config.location.nmea.speed)
            case .fixed, .commandLine, .ip:
                // "ip" does not pass config validation in this version.
                return FixedLocationProvider(place: config.location.fixed, source: .fixed, configPath: configPath)
            }
        })
    }

    /// The request the configuration asks for, with command-line values taking precedence.
    public static func locationRequest(_ config: Configuration, accuracy: DesiredAccuracy?, timeout: Double?,
                                       maxAge: Double??) -> LocationRequest {
        let seconds = timeout ?? config.location.timeout
        let age = maxAge ?? config.location.maxAge
        return LocationRequest(desiredAccuracy: accuracy ?? config.location.accuracy,
                               timeout: .milliseconds(Int64(seconds * 1000)),
                               maxAge: age.map { .milliseconds(Int64($0 * 1000)) })
    }

    /// The weather provider `kind`, configured from `config` and the environment.
    public static func weatherProvider(_ kind: WeatherProviderKind, config: Configuration,
                                       environment: [String: String], http: any HTTPClient) -> any WeatherProvider {
        switch kind {
        case .openMeteo:
            return OpenMeteoWeatherProvider(baseURL: config.weather.openMeteo.baseURL, http: http)
        case .openWeatherMap:
            return OpenWeatherMapWeatherProvider(baseURL: config.weather.openWeatherMap.baseURL,
                                                 apiKey: config.openWeatherMapKey(environment: environment), http: http)
        }
    }
}

/// The provider for `sources = ["nmea"]` without `[location.nmea] path`.
struct MissingNMEAPathProvider: LocationProvider {
    let configPath: String
    var source: LocationSource { .nmea }
    func requestLocation(_ request: LocationRequest) async throws -> Location {
        throw LocationError.nmeaUnreadable(path: "(none)", reason: "[location.nmea] path is not set in \(configPath); set it to a log file or a serial device, or pass --replay FILE")
    }
}

/// The provider for `sources = []`: fails with a message saying how to add one.
struct EmptyLocationProvider: LocationProvider {
    let configPath: String
    var source: LocationSource { .fixed }
    func requestLocation(_ request: LocationRequest) async throws -> Location {
        throw LocationError.noSources(configPath: configPath)
    }
}
