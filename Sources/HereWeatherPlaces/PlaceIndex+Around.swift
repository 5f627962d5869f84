extension PlaceIndex {
    /// Every place within `radius` metres of the position, nearest first, at most `limit`
    /// (for matching the names a warning gives its area to where a point is).
    public static func places(latitude: Double, longitude: Double, within radius: Double, limit: Int = 200) -> [NearbyPlace] {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), radius > 0, limit > 0 else { return [] }
        let limitHaversine = Geodesy.haversine(distance: radius)
        var found: [Candidate] = []
        visit(around: latitude, normalized(longitude), radius: min(radius, 1_000_000)) { candidate in
            if candidate.haversine <= limitHaversine { found.append(candidate) }
        }
        found.sort { $0.haversine < $1.haversine }
        return found.prefix(limit).map { place($0, latitude: latitude, longitude: normalized(longitude)) }
    }
}
