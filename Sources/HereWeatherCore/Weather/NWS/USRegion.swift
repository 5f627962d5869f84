import HereWeatherPlaces

/// Whether a point is in the area the US National Weather Service covers: the 50 states,
/// Puerto Rico and the US Virgin Islands, Guam and the Northern Mariana Islands, American
/// Samoa. Only such points are sent to the NWS for alerts.
///
/// Three tests, all offline: boxes around those areas (a quick "no" for most of the world);
/// then, near a land border, whose land the point is on (`USBoundary`: Natural Earth's 1:10m
/// countries, so Windsor, Ontario is Canadian although Detroit is its nearest place); then,
/// elsewhere (water, coasts and land far from a border), the country of the nearest populated
/// place in the compiled-in GeoNames data (`PlaceIndex`): the boxes alone take in Toronto,
/// Montreal, Vancouver, Monterrey, Tijuana and Nassau. A point with no place within 100 km
/// (open sea, the Alaskan interior's wilds) counts as covered when the boxes hold it, since the
/// NWS's marine and remote zones are its own. docs/weather.md says the same.
public enum USRegion {
    /// (south, north, west, east) in degrees.
    static let boxes: [(Double, Double, Double, Double)] = [
        (24.0, 49.5, -125.0, -66.5),     // the contiguous states
        (51.0, 71.6, -180.0, -129.5),    // Alaska
        (51.0, 53.1, 172.0, 180.0),      // the western Aleutians, across the antimeridian
        (18.5, 22.5, -161.0, -154.5),    // Hawaii
        (17.5, 18.6, -68.0, -64.5),      // Puerto Rico, the US Virgin Islands
        (13.0, 20.8, 144.5, 146.2),      // Guam, the Northern Mariana Islands
        (-14.8, -10.9, -171.2, -168.0),  // American Samoa
    ]

    /// The country codes of the NWS's area: the states and the territories it forecasts for.
    static let countries: Set<String> = ["US", "PR", "VI", "GU", "MP", "AS", "UM"]

    /// Whether `coordinate` lies in one of the boxes: necessary, not sufficient.
    public static func mayContain(_ coordinate: Coordinate) -> Bool {
        boxes.contains { south, north, west, east in
            (south...north).contains(coordinate.latitude) && (west...east).contains(coordinate.longitude)
        }
    }

    /// Whether `coordinate` is in the NWS's area: inside a box, and on US land near a border,
    /// or (off such land and off another country's) nearest to a place in the US or its
    /// territories (or to no place at all).
    public static func contains(_ coordinate: Coordinate) -> Bool {
        guard mayContain(coordinate) else { return false }
        switch USBoundary.land(latitude: coordinate.latitude, longitude: coordinate.longitude) {
        case .unitedStates: return true
        case .anotherCountry: return false
        case nil: break
        }
        guard let place = PlaceIndex.nearest(latitude: coordinate.latitude, longitude: coordinate.longitude) else { return true }
        return countries.contains(place.countryCode)
    }
}
