/// A quick test of whether a point may be in the area the US National Weather Service covers:
/// the 50 states, Puerto Rico and the US Virgin Islands, Guam and the Northern Mariana
/// Islands, American Samoa. Boxes, generous at the edges (parts of Canada and Mexico are
/// inside): a point inside may still be outside the US, and the service then has no alerts
/// for it; a point outside is never asked about.
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

    /// Whether `coordinate` lies in one of the boxes.
    public static func mayContain(_ coordinate: Coordinate) -> Bool {
        boxes.contains { south, north, west, east in
            (south...north).contains(coordinate.latitude) && (west...east).contains(coordinate.longitude)
        }
    }
}
