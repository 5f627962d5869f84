#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The location the user wrote down: `[location.fixed]` in the config, or `--lat/--lon`.
///
/// It answers at once; its timestamp is the time of the request, so it is never stale. A
/// place with a stated accuracy is judged against the desired accuracy like any other fix
/// (a 5 km place does not end a 3 km request while gpsd may still answer); one without is
/// the user's own word and meets it. Either way such a place is the answer before anything
/// else is asked or started (`answersAtOnce`); a coarser one is the fallback after the live
/// sources.
public struct FixedLocationProvider: LocationSourceProvider {
    /// `.source(.fixed)`, or `.commandLine` for `--lat/--lon`.
    public let origin: LocationOrigin
    public var source: LocationSource { origin.source ?? .fixed }
    private let place: FixedPlace?
    private let configPath: String
    /// The run's clock: the fix is dated at its now.
    private let clock: any RunClock

    /// A provider for `place`; `nil` fails every request with a message naming `configPath`.
    public init(place: FixedPlace?, origin: LocationOrigin = .source(.fixed), configPath: String, clock: any RunClock) {
        self.place = place
        self.origin = origin
        self.configPath = configPath
        self.clock = clock
    }

    /// A configured place without a stated accuracy, or within the desired one.
    public func answersAtOnce(_ request: LocationRequest) -> Bool {
        guard let place else { return false }
        return place.accuracy.map { request.desiredAccuracy.isMet(by: $0) } ?? true
    }

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        guard let place else { throw LocationError.noFixedLocation(configPath: configPath) }
        return Location(coordinate: place.coordinate, horizontalAccuracy: place.accuracy,
                        timestamp: clock.date, origin: origin, altitude: place.altitude, name: place.name,
                        meetsDesiredAccuracy: place.accuracy.map { request.desiredAccuracy.isMet(by: $0) } ?? true)
    }
}

/// A place given by hand: coordinates with an optional name and accuracy.
public struct FixedPlace: Sendable, Equatable {
    public var coordinate: Coordinate
    public var name: String?
    /// Metres; `nil` when the user did not say.
    public var accuracy: Double?
    public var altitude: Double?

    public init(coordinate: Coordinate, name: String? = nil, accuracy: Double? = nil, altitude: Double? = nil) {
        self.coordinate = coordinate
        self.name = name
        self.accuracy = accuracy
        self.altitude = altitude
    }
}
