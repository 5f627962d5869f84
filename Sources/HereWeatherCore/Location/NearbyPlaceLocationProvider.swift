import HereWeatherPlaces

/// Adds the nearest populated place to every fix of `base`, looked up offline in the GeoNames
/// data compiled into the program (`PlaceIndex`): nothing is sent anywhere.
///
/// The place is shown only when neither the location nor the weather service names one, as
/// "near Tampa, Florida, US (3 km NE)"; beyond `radius` (open sea, ice, desert) there is none
/// and the coordinates are shown as before. `[privacy] place_names = false` leaves it out.
public struct NearbyPlaceLocationProvider: LocationProvider {
    public let base: any LocationProvider
    /// No place farther than this from the fix is named, in metres.
    public var radius: Double

    public init(base: any LocationProvider, radius: Double = PlaceIndex.defaultRadius) {
        self.base = base
        self.radius = radius
    }

    /// `base` wrapped when `enabled` (`[privacy] place_names`), else `base` itself.
    public static func wrapping(_ base: any LocationProvider, enabled: Bool) -> any LocationProvider {
        enabled ? NearbyPlaceLocationProvider(base: base) : base
    }

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        Self.naming(try await base.requestLocation(request), within: radius)
    }

    /// `location` with its nearest place within `radius` (`--follow` names a watched source's
    /// fixes so, when place names are on).
    public static func naming(_ location: Location, within radius: Double = PlaceIndex.defaultRadius) -> Location {
        var location = location
        location.nearbyPlace = PlaceIndex.nearest(latitude: location.coordinate.latitude,
                                                  longitude: location.coordinate.longitude, within: radius)
        return location
    }
}
