#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension PlaceIndex {
    /// Every place within `radius` metres of the position, nearest first, at most `limit`
    /// (for matching the names a warning gives its area to where a point is).
    public static func places(latitude: Double, longitude: Double, within radius: Double, limit: Int = 200) -> [NearbyPlace] {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), radius > 0, limit > 0 else { return [] }
        let longitude = normalized(longitude)
        let angle = min(radius, 1_000_000) / Geodesy.earthRadius
        let angleDegrees = angle / Geodesy.radiansPerDegree
        let south = latitude - angleDegrees, north = latitude + angleDegrees
        var spans = LongitudeSpans.everywhere
        if south > -90 && north < 90 {
            let spread = asin(sin(angle) / cos(latitude * Geodesy.radiansPerDegree)) / Geodesy.radiansPerDegree
            spans = LongitudeSpans(longitude - spread, longitude + spread)
        }
        let limitHaversine = Geodesy.haversine(distance: radius)
        var found: [Candidate] = []
        for band in self.band(south)...self.band(north) {
            for span in [spans.first] + (spans.second.map { [$0] } ?? []) {
                let end = bandStart(band + 1)
                var index = firstRecord(from: bandStart(band), to: end, longitudeAtLeast: span.low)
                while index < end {
                    let record = self.record(index)
                    let encodedLongitude = number(record, 4)
                    if encodedLongitude > span.high { break }
                    let h = Geodesy.haversine(latitude, longitude, placeLatitude(record, band: band), decoded(encodedLongitude) - 180)
                    if h <= limitHaversine { found.append(Candidate(index: index, band: band, haversine: h)) }
                    index += 1
                }
            }
        }
        found.sort { $0.haversine < $1.haversine }
        return found.prefix(limit).map { place($0, latitude: latitude, longitude: longitude) }
    }
}
