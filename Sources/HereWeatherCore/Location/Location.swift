#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HereWeatherPlaces

/// Where a location came from.
public enum LocationSource: String, Sendable, Equatable, CaseIterable {
    /// `--lat`/`--lon` on the command line.
    case commandLine = "command-line"
    /// `[location.fixed]` in the config file.
    case fixed
    /// A GPS receiver through gpsd.
    case gpsd
    /// GeoClue2, the desktop's location service on the system D-Bus.
    case geoclue
    /// A recorded NMEA log.
    case nmea
    /// An IP-geolocation web service.
    case ip
    /// The Wi-Fi networks around, through NetworkManager and a geolocate web service.
    case wifi
    /// `--city NAME`, through the weather provider's geocoding service.
    case city

    /// How the source reads in a sentence: "fixed location", "gpsd".
    public var displayName: String {
        switch self {
        case .commandLine: return "command line"
        case .fixed: return "fixed location"
        case .gpsd: return "GPS (gpsd)"
        case .geoclue: return "GeoClue"
        case .nmea: return "NMEA replay"
        case .ip: return "IP lookup"
        case .wifi: return "Wi-Fi positioning"
        case .city: return "city search"
        }
    }
}

/// One position fix: the result of a location request, like `CLLocation`.
public struct Location: Sendable, Equatable {
    public var coordinate: Coordinate
    /// The radius of uncertainty in metres; `nil` when nothing is known about it.
    public var horizontalAccuracy: Double?
    /// When the position was measured (for a fixed location: when it was read).
    public var timestamp: Date
    public var source: LocationSource
    /// Metres above mean sea level, when known.
    public var altitude: Double?
    /// A place name, when the source gives one.
    public var name: String?
    /// Whether `horizontalAccuracy` was estimated (from HDOP) rather than reported.
    public var accuracyIsEstimate: Bool
    /// Whether the fix met the request's desired accuracy (false: the best seen by the deadline).
    public var meetsDesiredAccuracy: Bool
    /// 2 or 3 for a GPS fix (gpsd, NMEA); `nil` for other sources.
    public var mode: Int?
    /// A simulated fix (gpsd status 8, or an NMEA simulator mode indicator).
    public var simulated: Bool
    /// The web service that gave the location (IP lookup: "ipinfo.io"; city search:
    /// "Open-Meteo geocoding"), if any.
    public var service: String?
    /// The populated place nearest the fix, from the compiled-in GeoNames data (no network);
    /// filled in by `NearbyPlaceLocationProvider` unless `[privacy] place_names = false`.
    public var nearbyPlace: NearbyPlace?
    /// How many Wi-Fi access points the fix was asked for (Wi-Fi positioning); `nil` otherwise.
    public var accessPoints: Int?

    public init(coordinate: Coordinate, horizontalAccuracy: Double? = nil, timestamp: Date,
                source: LocationSource, altitude: Double? = nil, name: String? = nil,
                accuracyIsEstimate: Bool = false, meetsDesiredAccuracy: Bool = true,
                mode: Int? = nil, simulated: Bool = false, service: String? = nil, nearbyPlace: NearbyPlace? = nil,
                accessPoints: Int? = nil) {
        self.coordinate = coordinate
        self.horizontalAccuracy = horizontalAccuracy
        self.timestamp = timestamp
        self.source = source
        self.altitude = altitude
        self.name = name
        self.accuracyIsEstimate = accuracyIsEstimate
        self.meetsDesiredAccuracy = meetsDesiredAccuracy
        self.mode = mode
        self.simulated = simulated
        self.service = service
        self.nearbyPlace = nearbyPlace
        self.accessPoints = accessPoints
    }
}
