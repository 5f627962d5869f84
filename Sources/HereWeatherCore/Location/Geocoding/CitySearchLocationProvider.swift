#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The location of a place the user named (`--city`), found by a geocoding service.
///
/// Explicit input, like `--lat/--lon`: it needs no location permission and is not
/// remembered. The service's best match that fits the query's qualifiers wins; its name is
/// shown with region and country ("Melbourne, Florida, US"). A city has no meaningful radius,
/// so the accuracy is unknown, and the fix counts as meeting the request (the user asked
/// for exactly this place). No match is a `GeocodingError.notFound` (exit 75), which offers
/// the place the qualifiers nearly name, if any ("did you mean").
public struct CitySearchLocationProvider: LocationProvider {
    public let query: CityQuery
    private let geocoder: any Geocoder
    /// The run's clock: the place is dated at its now.
    private let clock: any RunClock

    public init(query: CityQuery, geocoder: any Geocoder, clock: any RunClock) {
        self.query = query
        self.geocoder = geocoder
        self.clock = clock
    }

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        let places = try await geocoder.search(query, deadline: request.deadline)
        guard let place = query.pick(from: places) else {
            var others: [String] = []
            for place in places where !others.contains(place.displayName) { others.append(place.displayName) }
            throw GeocodingError.notFound(name: query.name, qualifiers: query.qualifiers,
                                          suggestion: query.nearestMatch(in: places)?.displayName,
                                          others: Array(others.prefix(5)))
        }
        return Location(coordinate: place.coordinate, timestamp: clock.date, origin: .city,
                        name: place.displayName, service: geocoder.kind.displayName)
    }
}
