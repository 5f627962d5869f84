/// A point on the Earth in WGS 84 degrees.
public struct Coordinate: Sendable, Equatable, Hashable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether both values are finite and within -90...90 and -180...180.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    /// This coordinate rounded to `decimals` places: what a web service is sent.
    ///
    /// Two decimals are about 1.1 km, finer than any weather model's grid and than the
    /// default 3 km desired accuracy, so services learn no more than they need.
    public func rounded(toDecimals decimals: Int) -> Coordinate {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return Coordinate(latitude: (latitude * scale).rounded() / scale,
                          longitude: (longitude * scale).rounded() / scale)
    }

    /// Whether this coordinate and `other` are one point to a web service: the same once both
    /// are rounded to `decimals` places, as every request and the cache's key round them
    /// (`[privacy] coordinate_decimals`). `--follow` fetches again only for a fix out of the
    /// shown place's cell.
    public func isInSameCell(as other: Coordinate, decimals: Int) -> Bool {
        rounded(toDecimals: decimals) == other.rounded(toDecimals: decimals)
    }
}
