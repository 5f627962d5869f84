import Foundation
import Testing
@testable import HereWeatherCore

/// Sunrise and sunset worked out here (`SolarTimes`, NOAA's solar calculator) for the NWS,
/// which gives none (issue 35 D27), against a table of known times within a minute.
///
/// NOAA's own calculator cannot be reached from where the tests are written (only Debian's
/// archive and PyPI are), so the table comes from another, independent ephemeris: PyEphem 4.1.4
/// (Debian's python3-ephem, VSOP87), set to NOAA's convention: the sun's upper limb on a
/// horizon 34' below the true one, its own refraction off. Each row: `ephem.Observer()` with
/// `lat`, `lon`, `pressure = 0`, `horizon = '-0:34'`, `next_rising(Sun(), start=<local
/// midnight>)` and `next_setting(...)`, none when the sun does not rise or set that day
/// (`AlwaysUpError`, `NeverUpError`). Boulder on 21 June 2010 is the example of NOAA's
/// spreadsheet (sunrise 05:31, sunset 20:32 MDT).
@Suite struct SolarTimesTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var place: String
        var latitude: Double
        var longitude: Double
        /// Hours east of UTC on that date.
        var offset: Int
        var date: String
        var sunrise: String?
        var sunset: String?
        var testDescription: String { "\(place) \(date)" }
    }

    static let table = [
        Row(place: "Tampa", latitude: 27.9506, longitude: -82.4572, offset: -4, date: "2026-06-21",
            sunrise: "2026-06-21T10:34:14Z", sunset: "2026-06-22T00:29:09Z"),
        Row(place: "Tampa", latitude: 27.9506, longitude: -82.4572, offset: -5, date: "2026-12-21",
            sunrise: "2026-12-21T12:16:51Z", sunset: "2026-12-21T22:39:08Z"),
        Row(place: "Tampa", latitude: 27.9506, longitude: -82.4572, offset: -4, date: "2026-03-20",
            sunrise: "2026-03-20T11:33:36Z", sunset: "2026-03-20T23:41:12Z"),
        Row(place: "Anchorage", latitude: 61.2181, longitude: -149.9003, offset: -8, date: "2026-06-21",
            sunrise: "2026-06-21T12:20:21Z", sunset: "2026-06-22T07:42:37Z"),
        Row(place: "Anchorage", latitude: 61.2181, longitude: -149.9003, offset: -9, date: "2026-12-21",
            sunrise: "2026-12-21T19:14:19Z", sunset: "2026-12-22T00:41:25Z"),
        Row(place: "Honolulu", latitude: 21.3069, longitude: -157.8583, offset: -10, date: "2026-01-15",
            sunrise: "2026-01-15T17:11:30Z", sunset: "2026-01-16T04:10:36Z"),
        Row(place: "Boulder", latitude: 40, longitude: -105, offset: -6, date: "2010-06-21",
            sunrise: "2010-06-21T11:31:21Z", sunset: "2010-06-22T02:32:17Z"),
        // East of Greenwich: the local date's sunrise is on the UTC day before.
        Row(place: "Guam", latitude: 13.4443, longitude: 144.7937, offset: 10, date: "2026-09-23",
            sunrise: "2026-09-22T20:09:57Z", sunset: "2026-09-23T08:16:32Z"),
        Row(place: "Key West", latitude: 24.5551, longitude: -81.78, offset: -5, date: "2026-11-26",
            sunrise: "2026-11-26T11:50:47Z", sunset: "2026-11-26T22:37:58Z"),
        // Midnight sun and polar night: no sunrise, no sunset.
        Row(place: "Utqiagvik", latitude: 71.2906, longitude: -156.7886, offset: -8, date: "2026-06-21", sunrise: nil, sunset: nil),
        Row(place: "Utqiagvik", latitude: 71.2906, longitude: -156.7886, offset: -9, date: "2026-12-21", sunrise: nil, sunset: nil),
    ]

    static func instant(_ text: String?) -> Date? {
        text.flatMap { try? Date($0, strategy: .iso8601) }
    }

    @Test(arguments: table)
    func withinAMinuteOfTheTable(_ row: Row) {
        let (sunrise, sunset) = SolarTimes.times(on: row.date, utcOffset: row.offset * 3600,
                                                 latitude: row.latitude, longitude: row.longitude)
        for (name, found, known) in [("sunrise", sunrise, Self.instant(row.sunrise)), ("sunset", sunset, Self.instant(row.sunset))] {
            guard let known else {
                #expect(found == nil, "\(name): \(String(describing: found)), none known")
                continue
            }
            guard let found else {
                Issue.record("\(name): none, known \(known)")
                continue
            }
            #expect(abs(found.timeIntervalSince(known)) <= 60, "\(name): \(found), known \(known)")
        }
    }

    @Test func aDateThatDoesNotParseOrAPlaceOffTheGlobeHasNone() {
        for (date, latitude, longitude) in [("2026-13-01", 27.9, -82.4), ("tomorrow", 27.9, -82.4), ("2026-06-21", 91.0, 0.0),
                                            ("2026-06-21", 0.0, .nan), ("10000-01-01", 0.0, 0.0)] {
            let (sunrise, sunset) = SolarTimes.times(on: date, utcOffset: 0, latitude: latitude, longitude: longitude)
            #expect(sunrise == nil && sunset == nil, "\(date) \(latitude) \(longitude)")
        }
    }
}
