import Foundation
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore

/// NWS time: with no recent observation the current conditions are the hourly period that
/// contains now, not the first period; the hourly and daily tables start at the current hour
/// and today; a forecast whose periods have all ended is an error when fetched, and a stale
/// report whose hours have all ended shows its date, never passed off as now.
@Suite struct NWSTimeTests {
    /// 2026-11-28 16:20 UTC (11:20 EST).
    static let now = Date(timeIntervalSince1970: 1_795_882_800)
    static let offset = -5 * 3600

    /// `count` hourly periods from `start` (on the hour), the n-th at 40 + n °F, "Hour n".
    static func hourly(from start: Date, count: Int) -> String {
        let periods = (0..<count).map { index -> String in
            let begin = start.addingTimeInterval(Double(index) * 3600)
            return """
                {"number": \(index + 1), "startTime": "\(LocalTime.iso8601(begin, utcOffset: offset))",
                 "endTime": "\(LocalTime.iso8601(begin.addingTimeInterval(3600), utcOffset: offset))",
                 "isDaytime": true, "temperature": \(40 + index), "temperatureUnit": "F",
                 "probabilityOfPrecipitation": {"unitCode": "wmoUnit:percent", "value": 10},
                 "relativeHumidity": {"unitCode": "wmoUnit:percent", "value": \(index % 100)},
                 "windSpeed": "5 mph", "windDirection": "NE", "shortForecast": "Hour \(index)"}
                """
        }
        return #"{"properties": {"periods": ["# + periods.joined(separator: ",") + "]}}"
    }

    /// 12-hour periods (day 06-18, night 18-06) from the local day of `start`, for `days` days.
    static func twelveHour(from start: Date, days: Int) -> String {
        let local = LocalTime(start, utcOffset: offset)
        let midnight = LocalTime(year: local.year, month: local.month, day: local.day).date(utcOffset: offset)
        let periods = (0..<(days * 2)).map { index -> String in
            let begin = midnight.addingTimeInterval(6 * 3600 + Double(index) * 12 * 3600)
            return """
                {"number": \(index + 1), "startTime": "\(LocalTime.iso8601(begin, utcOffset: offset))",
                 "endTime": "\(LocalTime.iso8601(begin.addingTimeInterval(12 * 3600), utcOffset: offset))",
                 "isDaytime": \(index % 2 == 0), "temperature": \(60 + index), "temperatureUnit": "F",
                 "windSpeed": "5 mph", "windDirection": "NE", "shortForecast": "Period \(index)"}
                """
        }
        return #"{"properties": {"periods": ["# + periods.joined(separator: ",") + "]}}"
    }

    /// The NWS at Tampa with these forecasts, no observation and no alerts.
    static func server(hourly: String, daily: String) throws -> FixtureServer {
        var routes = ProviderSetup.nwsRoutes
        routes["/gridpoints/TBW/71,98/forecast/hourly"] = .json(200, hourly)
        routes["/gridpoints/TBW/71,98/forecast"] = .json(200, daily)
        routes["/stations/KTPA/observations/latest"] = .json(404, "{}")
        routes["/alerts/active"] = .fixture("weather/nws/alerts-none.json")
        let fixed = routes
        return try FixtureServer { target in fixed[String(target.split(separator: "?", maxSplits: 1).first ?? "")] ?? .notFound }
    }

    static func config(_ baseURL: String, ttl: Int = 86_400) -> String {
        // The longest weather timeout: on a `TestClock` the deadline counts from the clock's
        // frozen start, the transfer on real time.
        ProviderSetup.fixedLocation + "\n" + NWSCommandTests.nwsWeather.replacing("BASE", with: baseURL)
            .replacing("[weather]\n", with: "[weather]\ntimeout = 300\n") + "\n[cache]\nttl = \(ttl)\nstale_limit = 86400"
    }

    /// The hour (local, "HH:00") on which `date` falls.
    static func hour(_ date: Date) -> String {
        String(format: "%02d:00", LocalTime(date, utcOffset: offset).hour)
    }

    @Test func aForecastThatStarted30HoursAgoIsReadAtNow() async throws {
        let start = Self.now.addingTimeInterval(-30 * 3600 - 20 * 60)  // on the hour, 30 h before the current one
        let server = try Self.server(hourly: Self.hourly(from: start, count: 60), daily: Self.twelveHour(from: start, days: 5))
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config(server.baseURL))
        let assembly = SystemAssembly.test(.test(clock: TestClock(date: Self.now)))
        let json = try await runner.run(["--json"], assembly: assembly)
        #expect(json.status == 0, "\(json.stderr)")
        let weather = try #require(json.json?["weather"] as? [String: Any])
        let current = try #require(weather["current"] as? [String: Any])
        #expect(current["description"] as? String == "Hour 30", "the period that contains now: \(current)")
        #expect(current["time"] as? String == "2026-11-28T11:00:00-05:00")
        #expect(current["humidity"] as? Double == 30)
        let hours = try #require(weather["hourly"] as? [[String: Any]])
        #expect(hours.first?["time"] as? String == "2026-11-28T11:00:00-05:00")
        #expect(hours.count == 12)
        let days = try #require(weather["daily"] as? [[String: Any]])
        #expect(days.first?["date"] as? String == "2026-11-28", "today first, not the forecast's first day")

        let text = try await runner.run(["--hourly", "--daily"], environment: ["COLUMNS": "120"], assembly: assembly)
        #expect(text.stdout.contains("NWS forecast for 11:00 local time (no recent station observation)"), "\(text.stdout)")
        let table = text.stdout.split(separator: "\n").drop { !$0.hasPrefix("Next 12 hours") }.dropFirst(2)
        #expect(table.first?.hasPrefix("11:00") == true, "the table starts at the current hour: \(text.stdout)")
        let daily = text.stdout.split(separator: "\n").drop { !$0.hasPrefix("Next ") || $0.hasPrefix("Next 12") }.dropFirst(2)
        #expect(daily.first?.hasPrefix("Sat 28 Nov") == true, "\(text.stdout)")
    }

    @Test func aCachedForecastIsReadAtTheHourItIsShown() async throws {
        let server = try Self.server(hourly: Self.hourly(from: Self.now.addingTimeInterval(-20 * 60), count: 48),
                                     daily: Self.twelveHour(from: Self.now, days: 5))
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config(server.baseURL))
        let clock = TestClock(date: Self.now)
        let assembly = SystemAssembly.test(.test(clock: clock))
        #expect(try await runner.run(["--json"], assembly: assembly).status == 0)
        clock.advance(3 * 3600)
        let later = try await runner.run(["--json"], assembly: assembly)
        let weather = try #require(later.json?["weather"] as? [String: Any])
        #expect(weather["cached"] as? Bool == true && weather["stale"] as? Bool == false)
        let current = try #require(weather["current"] as? [String: Any])
        #expect(current["description"] as? String == "Hour 3", "\(current)")
        #expect((weather["hourly"] as? [[String: Any]])?.first?["time"] as? String == "2026-11-28T14:00:00-05:00")
        #expect(server.requests.filter { $0.hasSuffix("/forecast/hourly") }.count == 1, "from the cache")
    }

    @Test func aForecastWhosePeriodsHaveAllEndedIsAnError() async throws {
        let server = try Self.server(hourly: Self.hourly(from: Self.now.addingTimeInterval(-49 * 3600 - 20 * 60), count: 48),
                                     daily: Self.twelveHour(from: Self.now.addingTimeInterval(-3 * 86_400), days: 2))
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config(server.baseURL))
        let result = try await runner.run(["--hourly"], assembly: .test(.test(clock: TestClock(date: Self.now))))
        #expect(result.status == 69, "\(result.stdout)")
        #expect(result.stdout.isEmpty, "never shown as now: \(result.stdout)")
        #expect(result.stderr == "here-weather: NWS sent a forecast that has ended (its last hour ended Sat 28 Nov 10:00 local time), so it says nothing about now. The service is not updating this forecast; try again later, or use another provider: --provider open-meteo.\n",
                "\(result.stderr)")
    }

    @Test func aStaleReportWhoseHoursHaveAllEndedShowsItsDate() async throws {
        let server = try Self.server(hourly: Self.hourly(from: Self.now.addingTimeInterval(-20 * 60), count: 3),
                                     daily: Self.twelveHour(from: Self.now, days: 2))
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config(server.baseURL, ttl: 600))
        let clock = TestClock(date: Self.now)
        let assembly = SystemAssembly.test(.test(clock: clock))
        #expect(try await runner.run([], assembly: assembly).status == 0)
        clock.advance(5 * 3600)
        try runner.writeConfig(Self.config("http://127.0.0.1:\(closed.port)", ttl: 600))
        let stale = try await runner.run([], environment: ["COLUMNS": "120"], assembly: assembly)
        #expect(stale.status == 0, "\(stale.stderr)")
        #expect(stale.stdout.contains("offline: from 5 h ago"), "\(stale.stdout)")
        #expect(stale.stdout.contains("NWS forecast for Sat 28 Nov 13:00 local time (its last hour; no recent station observation)"),
                "\(stale.stdout)")
    }
}
