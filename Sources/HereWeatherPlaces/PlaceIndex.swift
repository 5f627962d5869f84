#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The nearest populated place to a position, from `GeoNamesData`, without any network call.
///
/// The places are read where they lie in the program's read-only data, never parsed or
/// copied: they are in latitude bands of 0.25°, each sorted by longitude, so a search looks
/// only at the bands a circle around the position touches and, in each, at the longitudes the
/// circle spans (a binary search; wrapping at ±180°; every longitude when the circle holds a
/// pole). The circle starts at 10 km and grows fourfold until it holds a place or reaches
/// the radius asked for. Only the nearest place's name and region are then read: records hold
/// no text offsets (8 bytes a place); a name is found by counting lines from the closest
/// earlier name whose offset is kept (one in `GeoNamesData.nameStride`).
public enum PlaceIndex {
    /// Beyond this distance (open sea, ice sheets, deserts) no place is named.
    public static let defaultRadius = 100_000.0
    static let firstSearchRadius = 10_000.0

    /// The number of places compiled in.
    public static var placeCount: Int { GeoNamesData.placeCount }

    /// The place nearest to the position within `radius` metres, or `nil` when there is none
    /// (or the coordinates are not a position on Earth).
    public static func nearest(latitude: Double, longitude: Double, within radius: Double = defaultRadius) -> NearbyPlace? {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), radius > 0 else { return nil }
        let longitude = normalized(longitude)
        var searchRadius = min(firstSearchRadius, radius)
        while true {
            if let best = closest(latitude, longitude, within: searchRadius),
               best.haversine <= Geodesy.haversine(distance: searchRadius) {
                return place(best, latitude: latitude, longitude: longitude)
            }
            if searchRadius >= radius { return nil }
            searchRadius = min(searchRadius * 4, radius)
        }
    }

    /// The closest record among those in the bands and longitudes a circle of `radius` touches
    /// (it may lie outside the circle; every place inside the circle is looked at).
    static func closest(_ latitude: Double, _ longitude: Double, within radius: Double) -> Candidate? {
        var best: Candidate?
        visit(around: latitude, longitude, radius: radius) { candidate in
            if candidate.haversine < best?.haversine ?? .infinity { best = candidate }
        }
        return best
    }

    /// Calls `body` with every record in the bands and longitudes a circle of `radius` metres
    /// around the position touches (some lie outside the circle), with its haversine from it.
    @inline(__always)
    static func visit(around latitude: Double, _ longitude: Double, radius: Double, _ body: (Candidate) -> Void) {
        let angle = radius / Geodesy.earthRadius
        let angleDegrees = angle / Geodesy.radiansPerDegree
        let south = latitude - angleDegrees, north = latitude + angleDegrees
        var spans = LongitudeSpans.everywhere
        if south > -90 && north < 90 {
            // The circle holds no pole, so cos(latitude) > sin(angle): the widest longitude it spans.
            let spread = asin(sin(angle) / cos(latitude * Geodesy.radiansPerDegree)) / Geodesy.radiansPerDegree
            spans = LongitudeSpans(longitude - spread, longitude + spread)
        }
        for band in self.band(south)...self.band(north) {
            scan(band: band, span: spans.first, latitude, longitude, body)
            if let second = spans.second { scan(band: band, span: second, latitude, longitude, body) }
        }
    }

    /// A record, the band it is in, and its `Geodesy.haversine` from the position.
    struct Candidate {
        var index: Int
        var band: Int
        var haversine: Double
    }

    /// Calls `body` with each record of `band` whose encoded longitude lies in `span`.
    @inline(__always)
    static func scan(band: Int, span: LongitudeSpan, _ latitude: Double, _ longitude: Double, _ body: (Candidate) -> Void) {
        let end = bandStart(band + 1)
        var index = firstRecord(from: bandStart(band), to: end, longitudeAtLeast: span.low)
        while index < end {
            let record = self.record(index)
            let encodedLongitude = number(record, 4)
            if encodedLongitude > span.high { break }
            let h = Geodesy.haversine(latitude, longitude, placeLatitude(record, band: band), decoded(encodedLongitude) - 180)
            body(Candidate(index: index, band: band, haversine: h))
            index += 1
        }
    }

    /// Encoded longitudes `low...high`.
    struct LongitudeSpan {
        var low: Int
        var high: Int
    }

    /// The longitudes a circle spans: one span, or two where it crosses ±180°.
    struct LongitudeSpans {
        var first: LongitudeSpan
        var second: LongitudeSpan?

        static let everywhere = LongitudeSpans(first: LongitudeSpan(low: 0, high: encoded(180)), second: nil)

        init(first: LongitudeSpan, second: LongitudeSpan?) {
            self.first = first
            self.second = second
        }

        /// `low...high` degrees, split where they cross ±180°.
        init(_ low: Double, _ high: Double) {
            if high - low >= 360 {
                self = .everywhere
            } else if low < -180 {
                self.init(first: LongitudeSpan(low: encoded(low + 360, .down), high: encoded(180)),
                          second: LongitudeSpan(low: 0, high: encoded(high, .up)))
            } else if high >= 180 {
                self.init(first: LongitudeSpan(low: encoded(low, .down), high: encoded(180)),
                          second: LongitudeSpan(low: 0, high: encoded(high - 360, .up)))
            } else {
                self.init(first: LongitudeSpan(low: encoded(low, .down), high: encoded(high, .up)), second: nil)
            }
        }
    }

    /// The candidate's record as a place, measured from the position.
    static func place(_ candidate: Candidate, latitude: Double, longitude: Double) -> NearbyPlace {
        let record = self.record(candidate.index)
        let placeLatitude = placeLatitude(record, band: candidate.band)
        let placeLongitude = decoded(number(record, 4)) - 180
        let name = line(GeoNamesData.names, at: nameOffset(candidate.index))
        // "CC<tab>Region": the country code is always two letters.
        let regionOffset = number(GeoNamesData.regionStarts.utf8Start + number(record + 6, 2) * 3, 3)
        let region = line(GeoNamesData.regions, at: regionOffset + 3)
        return NearbyPlace(
            name: name, region: region.isEmpty ? nil : region, countryCode: line(GeoNamesData.regions, at: regionOffset, length: 2),
            latitude: placeLatitude, longitude: placeLongitude,
            distance: Geodesy.distance(placeLatitude, placeLongitude, latitude, longitude),
            bearing: Geodesy.bearing(placeLatitude, placeLongitude, latitude, longitude))
    }

    // MARK: Reading the compiled-in data

    /// The latitude band holding `latitude` (clamped to the poles).
    static func band(_ latitude: Double) -> Int {
        let band = Int(((latitude + 90) / GeoNamesData.bandDegrees).rounded(.down))
        return min(GeoNamesData.bandCount - 1, max(0, band))
    }

    /// The first record of `band`; `bandStart(bandCount)` is the number of records.
    static func bandStart(_ band: Int) -> Int {
        number(GeoNamesData.bandStarts.utf8Start + band * 4, 4)
    }

    /// The record at `index`.
    @inline(__always)
    static func record(_ index: Int) -> UnsafePointer<UInt8> {
        GeoNamesData.records.utf8Start + index * GeoNamesData.recordWidth
    }

    /// The latitude of a record in `band`, in degrees (the same value as rounding it to 1e-4°).
    @inline(__always)
    static func placeLatitude(_ record: UnsafePointer<UInt8>, band: Int) -> Double {
        decoded(band * GeoNamesData.bandUnits + number(record + 4, 2)) - 90
    }

    /// The byte offset in `names` of the name of record `index`: the last name whose offset
    /// is kept, then one line per record in between.
    static func nameOffset(_ index: Int) -> Int {
        let names = GeoNamesData.names.utf8Start, size = GeoNamesData.names.utf8CodeUnitCount
        let (group, skipped) = index.quotientAndRemainder(dividingBy: GeoNamesData.nameStride)
        var offset = number(GeoNamesData.nameStarts.utf8Start + group * 4, 4)
        for _ in 0..<skipped {
            while offset < size && names[offset] != 0x0A { offset += 1 }
            offset += 1
        }
        return offset
    }

    /// The first record in `start..<end` whose encoded longitude is at least `low` (binary search).
    static func firstRecord(from start: Int, to end: Int, longitudeAtLeast low: Int) -> Int {
        var first = start, last = end
        while first < last {
            let middle = (first + last) / 2
            if number(record(middle), 4) < low {
                first = middle + 1
            } else {
                last = middle
            }
        }
        return first
    }

    /// A base-64 number of `width` digits ("0" is 0, "o" is 63), most significant first.
    @inline(__always)
    static func number(_ digits: UnsafePointer<UInt8>, _ width: Int) -> Int {
        var value = 0
        for position in 0..<width { value = value << 6 | Int(digits[position] &- 0x30) }
        return value
    }

    static func decoded(_ value: Int) -> Double { Double(value) / GeoNamesData.scale }

    /// A longitude in the records' units (degrees + 180, in 1e-4°).
    static func encoded(_ longitude: Double, _ rounding: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int {
        Int(((longitude + 180) * GeoNamesData.scale).rounded(rounding))
    }

    /// `longitude` in -180..<180.
    static func normalized(_ longitude: Double) -> Double {
        let wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
        return (wrapped < 0 ? wrapped + 360 : wrapped) - 180
    }

    /// The text from `offset` to the next newline, or of `length` bytes.
    static func line(_ text: StaticString, at offset: Int, length: Int? = nil) -> String {
        let start = text.utf8Start + offset
        let available = text.utf8CodeUnitCount - offset
        var count = 0
        while count < min(available, length ?? available) && start[count] != 0x0A { count += 1 }
        return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }
}
