#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Distances and directions on a spherical Earth (haversine), in metres and degrees.
public enum Geodesy {
    /// The mean Earth radius (IUGG), in metres.
    public static let earthRadius = 6_371_008.8

    static let radiansPerDegree = Double.pi / 180

    /// The haversine of the central angle between two points: 0 for the same point, 1 for
    /// antipodes. It grows with distance, so it compares distances without `asin` and `sqrt`.
    static func haversine(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        let phi1 = latitude1 * radiansPerDegree, phi2 = latitude2 * radiansPerDegree
        let halfDeltaPhi = (phi2 - phi1) / 2
        let halfDeltaLambda = (longitude2 - longitude1) * radiansPerDegree / 2
        let sinPhi = sin(halfDeltaPhi), sinLambda = sin(halfDeltaLambda)
        return min(1, sinPhi * sinPhi + cos(phi1) * cos(phi2) * sinLambda * sinLambda)
    }

    /// The distance `haversine` value `h` stands for, in metres.
    static func distance(haversine h: Double) -> Double {
        2 * earthRadius * asin(sqrt(max(0, min(1, h))))
    }

    /// The `haversine` value of a distance in metres (the inverse of `distance(haversine:)`).
    static func haversine(distance: Double) -> Double {
        let half = min(Double.pi, distance / earthRadius) / 2
        return sin(half) * sin(half)
    }

    /// The great-circle distance between two points, in metres.
    public static func distance(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        distance(haversine: haversine(latitude1, longitude1, latitude2, longitude2))
    }

    /// The initial bearing from point 1 to point 2, in degrees clockwise from north (0..<360).
    public static func bearing(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        let phi1 = latitude1 * radiansPerDegree, phi2 = latitude2 * radiansPerDegree
        let deltaLambda = (longitude2 - longitude1) * radiansPerDegree
        let y = sin(deltaLambda) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(deltaLambda)
        let degrees = atan2(y, x) / radiansPerDegree
        return degrees < 0 ? degrees + 360 : degrees
    }

    static let compassPoints = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]

    /// The 8-point compass name of a direction in degrees ("NE").
    public static func compassPoint(_ degrees: Double) -> String {
        compassPoints[Int((normalized(degrees) / 45).rounded()) % 8]
    }

    /// A direction in whole degrees, 0...359 (359.6° is 0, not 360).
    public static func wholeDegrees(_ degrees: Double) -> Int {
        Int(normalized(degrees).rounded()) % 360
    }

    /// A direction within 0..<360 degrees; north for one that is not finite.
    static func normalized(_ degrees: Double) -> Double {
        guard degrees.isFinite else { return 0 }
        return (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
    }
}
