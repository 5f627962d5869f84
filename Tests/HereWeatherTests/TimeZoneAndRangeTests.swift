import Foundation
import Testing
@testable import HereWeatherCore

/// Local time where the body does not say it outright, and OpenWeatherMap's "today" range:
/// a One Call body without `timezone_offset` printed UTC labelled as local and shifted the
/// days; OpenWeatherMap's `main.temp_min`/`temp_max` (a spread across the city now) were shown
/// as today's range. The offset now comes from the body's zone name (the system's tz
/// database, read by `TimeZoneFile`) or the longitude; today's range from the forecast.
@Suite struct TimeZoneAndRangeTests {
    static let oneCall2020 = Fixtures.url("weather/openweathermap/onecall-2020-no-offset.json").path

    func run(_ replay: String, _ extra: [String] = []) async throws -> CommandRunner.Result {
        let runner = try InProcessCommand()
        return try await runner.run(["--lat", "27.95", "--lon", "-82.46", "--provider", "openweathermap",
                                     "--weather-replay", replay, "--json", "--daily"] + extra)
    }

    @Test func aOneCallBodyWithoutAnOffsetIsShownAtItsZonesOffset() async throws {
        let result = try await run(Self.oneCall2020)
        #expect(result.status == 0, "\(result.stderr)")
        let weather = try #require(result.json?["weather"] as? [String: Any])
        #expect(weather["utc_offset_s"] as? Double == -18000)
        let current = weather["current"] as? [String: Any]
        #expect(current?["time"] as? String == "2026-11-22T14:14:38-05:00")
        let days = (weather["daily"] as? [[String: Any]])?.compactMap { $0["date"] as? String }
        #expect(days?.first == "2026-11-22", "\(days ?? [])")
    }

    /// A zone this machine does not know (or a name that is not one) falls back to the longitude.
    @Test(arguments: ["Atlantis/Nowhere", "../../../etc/passwd", "/etc/localtime"])
    func anUnknownZoneFallsBackToTheLongitude(_ zone: String) async throws {
        var body = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.oneCall2020)))
            as? [String: Any])
        body["timezone"] = zone
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("onecall-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: body).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await run(file.path)
        #expect(result.status == 0, "\(result.stderr)")
        let weather = result.json?["weather"] as? [String: Any]
        #expect(weather?["utc_offset_s"] as? Double == -18000, "82.46° W is 5.5 hours: rounded to 5")
    }

    /// Today's range is the forecast's (and now's), as the text report shows it.
    @Test func openWeatherMapTodayRangeComesFromTheForecast() async throws {
        let recording = FileManager.default.temporaryDirectory.appendingPathComponent("owm-\(UUID().uuidString).json")
        var data = Data(#"{"weather":"#.utf8)
        data += Fixtures.data("weather/openweathermap/weather-tampa-metric.json")
        data += Data(#","forecast":"#.utf8)
        data += Fixtures.data("weather/openweathermap/forecast-tampa-metric.json")
        data += Data("}".utf8)
        try data.write(to: recording)
        defer { try? FileManager.default.removeItem(at: recording) }
        let result = try await run(recording.path)
        #expect(result.status == 0, "\(result.stderr)")
        let current = (result.json?["weather"] as? [String: Any])?["current"] as? [String: Any]
        #expect(current?["temperature_min"] as? Double == 22.33, "not main.temp_min (25.52)")
        #expect(current?["temperature_max"] as? Double == 26.62, "not main.temp_max (27.21)")
    }

    // MARK: The tz database

    static func date(_ text: String) throws -> Date {
        try #require(LocalTime(iso8601: text)).date(utcOffset: 0)
    }

    @Test(arguments: [
        ("America/New_York", "2026-11-22T19:00", -18000),
        ("America/New_York", "2026-07-01T12:00", -14400),
        ("America/New_York", "2026-03-08T06:59", -18000),   // 01:59 EST
        ("America/New_York", "2026-03-08T07:00", -14400),   // 03:00 EDT
        ("America/New_York", "2050-07-01T12:00", -14400),   // after the file's transitions: its rule
        ("America/New_York", "2050-12-01T12:00", -18000),
        ("Australia/Sydney", "2050-01-15T00:00", 39600),    // southern summer, by the rule
        ("Australia/Sydney", "2050-07-15T00:00", 36000),
        ("Asia/Kolkata", "2026-11-22T00:00", 19800),
        ("Asia/Kathmandu", "2026-11-22T00:00", 20700),
        ("UTC", "2026-11-22T00:00", 0),
    ])
    func offsetsFromTheSystemDatabase(zone: String, utc: String, offset: Int) throws {
        let file = try #require(TimeZoneFile(named: zone))
        #expect(file.utcOffset(at: try Self.date(utc)) == offset)
    }

    @Test(arguments: ["", "..", "../etc/passwd", "America/../../etc/passwd", "/etc/passwd", ".hidden", "America//New_York",
                      "America/New York", "zone.tab", String(repeating: "A", count: 65), "Atlantis/Nowhere", "America"])
    func namesThatAreNotZonesAreRefused(_ name: String) {
        #expect(TimeZoneFile(named: name) == nil)
    }

    @Test func filesThatAreNotTZifAreRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Bad"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let valid = try Data(contentsOf: URL(fileURLWithPath: TimeZoneFile.directory + "/America/New_York"))
        try Data("not a zone".utf8).write(to: folder.appendingPathComponent("Bad/Text"))
        try valid.prefix(100).write(to: folder.appendingPathComponent("Bad/Truncated"))
        try Data(count: TimeZoneFile.maximumSize + 1).write(to: folder.appendingPathComponent("Bad/Huge"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Bad/Folder"), withIntermediateDirectories: true)
        for name in ["Bad/Text", "Bad/Truncated", "Bad/Huge", "Bad/Folder"] {
            #expect(TimeZoneFile(named: name, directory: folder.path) == nil, "\(name)")
        }
        try valid.write(to: folder.appendingPathComponent("Bad/Copy"))
        #expect(TimeZoneFile(named: "Bad/Copy", directory: folder.path)?.utcOffset(at: try Self.date("2026-07-01T12:00")) == -14400)
    }

    @Test(arguments: [
        ("JST-9", "2026-07-01T00:00", 32400),
        ("<-03>3", "2026-07-01T00:00", -10800),
        ("CST6CDT,M3.2.0,M11.1.0", "2026-07-01T00:00", -18000),
        ("CST6CDT,M3.2.0,M11.1.0", "2026-12-01T00:00", -21600),
        ("IST-1GMT0,M10.5.0,M3.5.0/1", "2026-07-01T00:00", 3600),    // Europe/Dublin: negative DST
        ("IST-1GMT0,M10.5.0,M3.5.0/1", "2026-12-01T00:00", 0),
        ("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", "2026-01-01T00:00", 39600),  // Lord Howe
    ])
    func posixRules(rule: String, utc: String, offset: Int) throws {
        let parsed = try #require(PosixTimeZoneRule(rule))
        #expect(parsed.utcOffset(at: Int64(try Self.date(utc).timeIntervalSince1970)) == offset)
    }

    @Test(arguments: ["", "X", "EST", "EST5EDT,J60,J300", "EST5EDT,M13.1.0,M11.1.0", "EST5EDT,M3.2.0", "EST99999"])
    func rulesNotReadAreRefused(_ rule: String) {
        #expect(PosixTimeZoneRule(rule) == nil)
    }
}
