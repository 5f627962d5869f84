#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HereWeatherPlaces

/// A kind of location source that `[location] sources` can name; their order there is
/// their priority.
public enum LocationSource: String, Sendable, Equatable, CaseIterable {
    /// A GPS receiver through gpsd.
    case gpsd
    /// The desktop's location service (GeoClue2, on the system D-Bus).
    case geoclue
    /// Wi-Fi positioning: nearby access points looked up by a geolocation service.
    case wifi
    /// An IP-geolocation web service.
    case ip
    /// A recorded NMEA log (or a serial device).
    case nmea
    /// `[location.fixed]` in the config file.
    case fixed

    /// How the source reads in a sentence: "fixed location", "GPS (gpsd)".
    public var displayName: String {
        switch self {
        case .gpsd: return "GPS (gpsd)"
        case .geoclue: return "GeoClue"
        case .wifi: return "Wi-Fi positioning"
        case .ip: return "IP lookup"
        case .nmea: return "NMEA replay"  // a live device or FIFO: `liveNMEAName`
        case .fixed: return "fixed location"
        }
    }

    /// An NMEA source read live (a serial device, a FIFO) rather than replayed from a log.
    public static let liveNMEAName = "NMEA device"

    /// The chain when `[location] sources` is not set, in priority order: every source that
    /// finds the location by itself, then the fixed location when one is configured. Sources
    /// not present on the machine are skipped (`LocationSourceChain.skipsAbsentSources`).
    public static func zeroConfigChain(hasFixedLocation: Bool) -> [LocationSource] {
        [.gpsd, .geoclue, .wifi, .ip] + (hasFixedLocation ? [.fixed] : [])
    }
}

/// One position fix: the result of a location request, like `CLLocation`.
public struct Location: Sendable, Equatable {
    public var coordinate: Coordinate
    /// The radius of uncertainty in metres; `nil` when nothing is known about it.
    public var horizontalAccuracy: Double?
    /// When the fix was had, on this machine's clock, as `CLLocation.timestamp`: for a live
    /// source (gpsd, GeoClue, an NMEA device or FIFO) its arrival; for a remembered fix the
    /// arrival it was remembered with; for a log replay the fix's time on the log's clock; for
    /// a fixed location when it was read. Ages and max age count from it.
    public var timestamp: Date
    /// The time the receiver (or GeoClue) put on the fix, when it gave one: information, never
    /// a reason to refuse it (`ReceiverClock` says when it is off).
    public var receiverTime: Date?
    /// For a log replay: the log's clock when the fix was answered; `nil` for live sources.
    public var logClock: LogClock?
    /// Where the fix came from: a configured source, the command line or a city search.
    public var origin: LocationOrigin
    /// The configured source that gave the fix; `nil` for explicit input.
    public var source: LocationSource? { origin.source }
    /// Metres above mean sea level, when known.
    public var altitude: Double?
    /// A place name, when the source gives one; never empty or blank (`name = ""` in
    /// `[location.fixed]` is no name), so every output falls back alike; control characters
    /// become spaces (`nonBlank`), set here or in the initialiser.
    public var name: String? {
        didSet { name = Self.nonBlank(name) }
    }
    /// Whether `horizontalAccuracy` was estimated (from HDOP) rather than reported.
    public var accuracyIsEstimate: Bool
    /// Whether the fix met the request's desired accuracy (false: the best seen by the deadline).
    public var meetsDesiredAccuracy: Bool
    /// 2 or 3 for a GPS fix (gpsd, NMEA); `nil` for other sources.
    public var mode: Int?
    /// A simulated fix (gpsd status 8, or an NMEA simulator mode indicator).
    public var simulated: Bool
    /// The web service that gave the location (IP lookup: "ipinfo.io"; city search:
    /// "Open-Meteo geocoding"), if any; shown on a line as a name is (`nonBlank`): a remembered
    /// fix's file could hold any text here.
    public var service: String? {
        didSet { service = Self.nonBlank(service) }
    }
    /// The populated place nearest the fix, from the compiled-in GeoNames data (no network);
    /// filled in by `NearbyPlaceLocationProvider` unless `[privacy] place_names = false`.
    public var nearbyPlace: NearbyPlace?
    /// How many Wi-Fi access points the fix was asked for (Wi-Fi positioning); `nil` otherwise.
    public var accessPoints: Int?
    /// Why the fix is the remembered one (`RememberingLocationProvider`) rather than a live
    /// one; `nil` for a fix the source gave in this run.
    public var memory: Memory?

    /// Why a remembered fix answered.
    public enum Memory: Sendable, Equatable {
        /// It was recent and accurate enough: no source was asked.
        case recent
        /// Every source failed, and it was still within max age.
        case standsIn
    }

    /// A fix from the configured source `source`.
    public init(coordinate: Coordinate, horizontalAccuracy: Double? = nil, timestamp: Date,
                source: LocationSource, altitude: Double? = nil, name: String? = nil,
                accuracyIsEstimate: Bool = false, meetsDesiredAccuracy: Bool = true,
                mode: Int? = nil, simulated: Bool = false, service: String? = nil, nearbyPlace: NearbyPlace? = nil,
                accessPoints: Int? = nil) {
        self.init(coordinate: coordinate, horizontalAccuracy: horizontalAccuracy, timestamp: timestamp,
                  origin: .source(source), altitude: altitude, name: name, accuracyIsEstimate: accuracyIsEstimate,
                  meetsDesiredAccuracy: meetsDesiredAccuracy, mode: mode, simulated: simulated, service: service,
                  nearbyPlace: nearbyPlace, accessPoints: accessPoints)
    }

    /// A fix from `origin`.
    public init(coordinate: Coordinate, horizontalAccuracy: Double? = nil, timestamp: Date,
                origin: LocationOrigin, altitude: Double? = nil, name: String? = nil,
                accuracyIsEstimate: Bool = false, meetsDesiredAccuracy: Bool = true,
                mode: Int? = nil, simulated: Bool = false, service: String? = nil, nearbyPlace: NearbyPlace? = nil,
                accessPoints: Int? = nil) {
        self.coordinate = coordinate
        self.horizontalAccuracy = horizontalAccuracy
        self.timestamp = timestamp
        self.origin = origin
        self.altitude = altitude
        self.name = Self.nonBlank(name)
        self.accuracyIsEstimate = accuracyIsEstimate
        self.meetsDesiredAccuracy = meetsDesiredAccuracy
        self.mode = mode
        self.simulated = simulated
        self.service = Self.nonBlank(service)
        self.nearbyPlace = nearbyPlace
        self.accessPoints = accessPoints
    }

    /// Whether the fix came from an NMEA device or FIFO read live (no log clock), not a log.
    public var isLiveNMEA: Bool { source == .nmea && logClock == nil }

    /// How the fix's origin reads in a sentence: `origin.displayName`, with a live NMEA
    /// device or FIFO called "NMEA device", not "NMEA replay".
    public var originName: String {
        isLiveNMEA ? LocationSource.liveNMEAName : origin.displayName
    }

    /// The fix's age in seconds at `now` (this machine's clock), or on the log's clock for a replay.
    public func age(at now: Date) -> Double {
        (logClock?.latest ?? now).timeIntervalSince(timestamp)
    }

    /// `name` with control characters as spaces (a name from a file or a service is shown on a
    /// line: a tab or a line break would break the report's lines), or `nil` when it is empty
    /// or only white space.
    static func nonBlank(_ name: String?) -> String? {
        guard let name, !name.allSatisfy(\.isWhitespace) else { return nil }
        return ServiceText.printable(name)
    }
}

/// A replayed log's clock (`--replay FILE`): a replay runs on the log's own time, so a fix's
/// age counts from the log's latest sentence, and its place in the log from its first.
public struct LogClock: Sendable, Equatable {
    /// The time of the log's first epoch read.
    public var start: Date
    /// The time of the latest epoch read when the fix was answered.
    public var latest: Date

    public init(start: Date, latest: Date) {
        self.start = start
        self.latest = latest
    }
}
