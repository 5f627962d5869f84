/// A populated place near a position, from the GeoNames data compiled into the program.
///
/// `distance` and `bearing` are measured from the place to the position: a fix 3 km
/// north-east of Tampa's centre reads "near Tampa, Florida, US (3 km NE)".
public struct NearbyPlace: Sendable, Equatable {
    /// The place's name, as GeoNames spells it ("Tampa", "Sant Julià de Lòria").
    public var name: String
    /// The first-level administrative division ("Florida"), when GeoNames names one.
    public var region: String?
    /// ISO 3166-1 alpha-2 country code ("US").
    public var countryCode: String
    /// The place's coordinates (GeoNames' point for it, usually its centre), in degrees.
    public var latitude: Double
    public var longitude: Double
    /// Great-circle distance from the place to the position, in metres.
    public var distance: Double
    /// Initial bearing from the place to the position, in degrees clockwise from north.
    public var bearing: Double

    /// Within this distance the place text gives no distance or direction ("near Tampa, ...").
    public static let closeDistance = 1000.0

    public init(name: String, region: String?, countryCode: String, latitude: Double, longitude: Double,
                distance: Double, bearing: Double) {
        self.name = name
        self.region = region
        self.countryCode = countryCode
        self.latitude = latitude
        self.longitude = longitude
        self.distance = distance
        self.bearing = bearing
    }

    /// "Tampa, Florida, US"; the region is left out when GeoNames has none or it repeats
    /// the name ("Berlin, DE").
    public var title: String {
        var parts = [name]
        if let region, !region.isEmpty, region != name { parts.append(region) }
        if !countryCode.isEmpty { parts.append(countryCode) }
        return parts.joined(separator: ", ")
    }

    /// The 8-point compass direction of `bearing`: "N", "NE", ... "NW".
    public var compassPoint: String { Geodesy.compassPoint(bearing) }

    /// `bearing` in whole degrees, 0...359: 359.6° is 0 (north), as `compassPoint` reads it.
    public var wholeDegreesBearing: Int { Geodesy.wholeDegrees(bearing) }

    /// "near Tampa, Florida, US (3 km NE)"; under `closeDistance`, "near Tampa, Florida, US".
    /// Always "near": a fix is never claimed to be exactly at the place's centre.
    public var text: String {
        guard distance >= Self.closeDistance else { return "near " + title }
        return "near \(title) (\(Int((distance / 1000).rounded())) km \(compassPoint))"
    }
}
