import Foundation
import Synchronization
import Testing
@testable import HereWeatherCLI
import HereWeatherCore

/// The NWS through the command, in-process, against a local server: `provider = "nws"` in
/// text and JSON, its error lines (outside the US, an expired grid) with the stale cache, and
/// the NWS's official alerts in reports from other providers at US points.
@Suite struct NWSCommandTests {
    static let nwsWeather = """
        [weather]
        provider = "nws"
        [weather.nws]
        contact = "ops@example.org"
        base_url = "BASE"
        """

    /// The NWS routes, with the observation dated `observedAgo` seconds before now, and
    /// `override` first.
    static func server(observedAgo: Double? = nil,
                       _ override: @escaping @Sendable (String) -> FixtureServer.Response? = { _ in nil }) throws -> FixtureServer {
        var routes = ProviderSetup.nwsRoutes
        if let observedAgo {
            let when = LocalTimeText.utc(Self.now.addingTimeInterval(-observedAgo))
            let body = String(decoding: Fixtures.data("weather/nws/observation-latest-ktpa.json"), as: UTF8.self)
                .replacing("2026-11-26T18:53:00+00:00", with: when)
            routes["/stations/KTPA/observations/latest"] = .json(200, body)
        }
        routes["/v1/forecast"] = .fixture("weather/open-meteo/tampa-metric.json")
        let fixed = routes
        return try FixtureServer { target in
            if let answer = override(target) { return answer }
            return fixed[String(target.split(separator: "?", maxSplits: 1).first ?? "")] ?? .notFound
        }
    }

    /// 2026-11-26 19:53 UTC (14:53 EST): an hour after the recorded observation, within the
    /// recorded forecasts (from 14:00 EST) and before the Flood Warning ends.
    static let now = Date(timeIntervalSince1970: 1_795_722_780)
    /// One clock for the suite's runs, so that a cache entry's age is never negative.
    static let clock = ShiftedClock(date: now)

    /// The command on a clock at `now` (running on real time, for the retry's pause): the
    /// recordings are read as of their day.
    func run(_ runner: InProcessCommand, _ arguments: [String],
             environment: [String: String] = [:]) async throws -> InProcessCommand.Result {
        try await runner.run(arguments, environment: environment, assembly: .test(.test(clock: Self.clock)))
    }

    func config(_ server: FixtureServer, _ weather: String = nwsWeather, location: String = ProviderSetup.fixedLocation) -> String {
        location + "\n" + weather.replacing("BASE", with: server.baseURL)
    }

    @Test func nwsGivesCurrentHourlyDailyAndAlertsForAUSPoint() async throws {
        let server = try Self.server(observedAgo: 1800)
        let runner = try InProcessCommand()
        try runner.writeConfig(config(server))
        let result = try await run(runner, ["--hourly", "--daily"], environment: ["COLUMNS": "120"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Partly cloudy, 25.6 °C, feels like 25.9 °C"), "\(result.stdout)")
        #expect(result.stdout.contains("Wind 4.1 m/s from NE"))
        #expect(result.stdout.contains("Alert: Flood Warning (Severe), until Sat 28 Nov 14:00, from NWS Tampa Bay Ruskin FL"))
        #expect(result.stdout.contains("Minor flooding is occurring and is forecast to continue."), "the detail, under the alert")
        #expect(!result.stdout.contains("issued November 26"), "the headline's \"until\" is not repeated")
        #expect(!result.stdout.contains("Test Message"))
        #expect(result.stdout.contains("NWS, observed at KTPA "))
        #expect(result.stdout.contains("Next 12 hours"))
        #expect(result.stdout.contains("Next 7 days"))
        #expect(result.stdout.contains("Showers and thunderstorms likely"), "sentence case, as every provider's (issue 35 D24)")
    }

    /// The daily table keeps the sky, the forecast's own words, longest: Chance, Precip and
    /// Wind go first; columns the NWS leaves empty ("-" in every cell: Feels, Precip) are not
    /// shown at all (issue 35 D19). At 80 and 70 columns the sky was left out while Precip,
    /// Chance and Wind stayed.
    @Test func theDailyTableKeepsTheSkyAndLeavesEmptyColumnsOut() async throws {
        let server = try Self.server(observedAgo: 1800)
        let runner = try InProcessCommand()
        try runner.writeConfig(config(server))
        for (columns, shown, left) in [(80, ["Chance", "Wind", "Sky"], ["Precip"]), (70, ["Sky"], ["Precip", "Chance", "Wind"])] {
            let result = try await run(runner, ["--hourly", "--daily"], environment: ["COLUMNS": "\(columns)"])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            let daily = try #require(lines.firstIndex(of: "Next 7 days"), "\(result.stdout)")
            let header = lines[daily + 1], hourlyHeader = try #require(lines.first { $0.hasPrefix("Time") })
            for word in shown { #expect(header.contains(word), "\(columns): \(header)") }
            for word in left { #expect(!header.contains(word), "\(columns): \(header)") }
            #expect(lines.contains { $0.hasSuffix("  Showers and thunderstorms likely") }, "\(columns):\n\(result.stdout)")
            #expect(!hourlyHeader.contains("Feels") && !hourlyHeader.contains("Precip"), "\(columns): \(hourlyHeader)")
            #expect(lines.allSatisfy { TextWidth.columns($0) <= columns }, "\(columns):\n\(result.stdout)")
        }
    }

    /// The NWS gives no sunrise or sunset: here-weather works them out (NOAA's calculator,
    /// `SolarTimesTests`) for the point asked about, so `%S`/`%s`, the text and JSON have them
    /// (issue 35 D27). Tampa on 26 November 2026: 06:59:58 and 17:34:11 EST by PyEphem.
    @Test func sunriseAndSunsetAreWorkedOutForTheNWS() async throws {
        let server = try Self.server(observedAgo: 1800)
        let runner = try InProcessCommand()
        try runner.writeConfig(config(server))
        let line = try await run(runner, ["--format", "%S %s"])
        #expect(line.status == 0, "\(line.stderr)")
        #expect(line.stdout == "06:59 17:34\n", "\(line.stdout)")
        let text = try await run(runner, [])
        #expect(text.stdout.contains("Sunrise 06:59 · Sunset 17:34"), "\(text.stdout)")
        let json = try await run(runner, ["--json", "--daily"])
        let days = try #require(((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["weather"]
            as? [String: Any])?["daily"] as? [[String: Any]], "\(json.stdout)")
        #expect(!days.isEmpty && days.allSatisfy { $0["sunrise"] is String && $0["sunset"] is String }, "\(days)")
    }

    @Test func anOldObservationIsReplacedByTheForecastHourAndTheReportSaysSo() async throws {
        let server = try Self.server(observedAgo: 3 * 3600)
        let runner = try InProcessCommand()
        try runner.writeConfig(config(server))
        let result = try await run(runner, ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let current = try #require((result.json?["weather"] as? [String: Any])?["current"] as? [String: Any])
        #expect(current["basis"] as? String == "forecast")
        #expect(current["station"] is NSNull)
        #expect(current["description"] as? String == "Partly sunny")
        let text = try await run(runner, ["--no-cache"])
        #expect(text.stdout.contains("NWS forecast for 14:00 local time (no recent station observation)"), "\(text.stdout)")
    }

    @Test func aPointOutsideTheUSIsOneTrueLine() async throws {
        let server = try Self.server { target in
            target.hasPrefix("/points/") ? .fixture("weather/nws/problem-404-invalid-point.json", status: 404) : nil
        }
        let runner = try InProcessCommand()
        try runner.writeConfig(config(server, location: ProviderSetup.fixedLocation
            .replacing("27.9506", with: "51.5074").replacing("-82.4572", with: "-0.1278")))
        let result = try await run(runner, [])
        #expect(result.status == 78)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("NWS covers only the United States"))
        #expect(result.stderr.contains("--provider open-meteo, openweathermap, metno or pirateweather"))
        #expect(server.requests == ["/points/51.51,-0.13"])
    }

    @Test func anExpiredGridIsOneTrueLineOrTheStaleReport() async throws {
        let expired = Mutex(false)
        let server = try Self.server { target in
            expired.withLock { $0 } && target.hasPrefix("/gridpoints/TBW/71,98/forecast")
                ? .fixture("weather/nws/problem-503-grid-expired.json", status: 503) : nil
        }
        let runner = try InProcessCommand()
        try runner.writeConfig(config(server))
        expired.withLock { $0 = true }
        let failed = try await run(runner, ["--no-stale"])
        #expect(failed.status == 69)
        #expect(failed.stderr.split(separator: "\n").count == 1, "\(failed.stderr)")
        #expect(failed.stderr.contains("NWS answered HTTP 503: Forecast Grid Expired: The requested forecast grid was issued"))
        // Each forecast is asked again once. The hourly one is awaited first, so its failure
        // may cancel the 12-hour one's retry (in its pause): that one is asked once or twice.
        #expect(server.requests.filter { $0 == "/gridpoints/TBW/71,98/forecast/hourly" }.count == 2, "asked again once: \(server.requests)")
        #expect((1...2).contains(server.requests.filter { $0 == "/gridpoints/TBW/71,98/forecast" }.count), "\(server.requests)")
        // With a report in the cache, the same failure shows it, marked.
        expired.withLock { $0 = false }
        #expect(try await run(runner, []).status == 0)
        expired.withLock { $0 = true }
        let stale = try await run(runner, ["--no-cache", "--json"])
        #expect(stale.status == 0, "\(stale.stderr)")
        #expect(stale.stdout.contains(#""stale":true"#) || stale.stdout.contains(#""cached":true"#))
        #expect(stale.stdout.contains(#""title":"Flood Warning""#), "the cached alerts come back with it")
    }

    // MARK: Official alerts with other providers

    @Test func openMeteoAtAUSPointShowsTheNWSFloodWarning() async throws {
        let server = try Self.server()
        let runner = try InProcessCommand()
        try runner.writeConfig(config(server, "[weather]\nprovider = \"open-meteo\"\n[weather.open-meteo]\nbase_url = \"BASE\"\n[weather.nws]\nbase_url = \"BASE\""))
        let text = try await run(runner, [], environment: ["COLUMNS": "120"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Alert: Flood Warning (Severe), until Sat 28 Nov 14:00, from NWS Tampa Bay Ruskin FL"), "\(text.stdout)")
        #expect(text.stdout.contains("Open-Meteo"))
        #expect(server.requests.contains("/alerts/active?point=27.95,-82.46"))
        let alertRequests = server.requests.count
        // From the cache: no request at all, and the alert is still there.
        let json = try await run(runner, ["--json"])
        #expect(server.requests.count == alertRequests)
        let weather = try #require(json.json?["weather"] as? [String: Any])
        #expect(weather["cached"] as? Bool == true)
        let alerts = try #require(weather["alerts"] as? [[String: Any]])
        #expect(alerts.map { $0["title"] as? String } == ["Flood Warning"])
        #expect((alerts.first?["headline"] as? String)?.hasPrefix("Flood Warning issued November 26 at 9:12AM EST") == true)
        #expect(alerts.first?["end"] as? String == "2026-11-28T14:00:00-05:00")
        #expect(try await JSONSchemaCheck.problems([json.stdout], as: "report").isEmpty)
        // --format %A and waybar show the event's name.
        let line = try await run(runner, ["--format", "[%A]"])
        #expect(line.stdout == "[Flood Warning]\n")
    }

    @Test func alertsCanBeTurnedOffAndAreNotAskedOutsideTheUS() async throws {
        let server = try Self.server()
        let off = try InProcessCommand()
        try off.writeConfig(config(server, "[weather.open-meteo]\nbase_url = \"BASE\"\n[weather.nws]\nbase_url = \"BASE\"\n[alerts]\nnws = false"))
        #expect(try await off.run([]).status == 0)
        #expect(server.requests.count == 1 && server.requests.first?.hasPrefix("/v1/forecast?") == true, "\(server.requests)")
        #expect(!server.requests.contains { $0.hasPrefix("/alerts/") })
        let oslo = try InProcessCommand()
        try oslo.writeConfig(config(server, "[weather.open-meteo]\nbase_url = \"BASE\"\n[weather.nws]\nbase_url = \"BASE\"\n[weather.metno]\nbase_url = \"BASE\"",
                                    location: ProviderSetup.fixedLocation.replacing("27.9506", with: "59.9139").replacing("-82.4572", with: "10.7522")))
        #expect(try await oslo.run([]).status == 0)
        #expect(!server.requests.contains { $0.hasPrefix("/alerts/") })
    }

    @Test func aFailedAlertsFetchDoesNotFailTheReportAndVerboseSaysSo() async throws {
        let server = try Self.server { target in target.hasPrefix("/alerts/") ? .json(500, #"{"title":"Unexpected Problem"}"#) : nil }
        let runner = try InProcessCommand()
        try runner.writeConfig(config(server, "[weather.open-meteo]\nbase_url = \"BASE\"\n[weather.nws]\nbase_url = \"BASE\""))
        let result = try await run(runner, ["--verbose"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("Alert:"))
        #expect(result.stderr.contains("/alerts/active?point=27.95,-82.46"))
        #expect(result.stderr.contains("-> HTTP 500"))
        #expect(server.requests.filter { $0.hasPrefix("/alerts/") }.count == 1, "no retry for alerts")
    }

    /// Alerts that never answer cost the grace after the weather (1.5 s on the run's clock),
    /// not the weather's 300 s deadline: the report comes without them, the request is
    /// cancelled (the run ends long before the deadline), and `--verbose` says so. The cache
    /// then keeps the report as after a failed alerts fetch: without alerts, for its ttl.
    /// The run starts at once (not queued for a slot): the test clock's instants stand where
    /// it was made, and the transfers' deadlines are counted from there in real time.
    @Test func hangingAlertsCostTheGraceNotTheDeadline() async throws {
        let server = try Self.server { target in target.hasPrefix("/alerts/") ? .hang : nil }
        let runner = try InProcessCommand(queued: false)
        try runner.writeConfig(config(server, """
            [weather]
            timeout = 300
            [weather.open-meteo]
            base_url = "BASE"
            [weather.nws]
            base_url = "BASE"
            """))
        let clock = TestClock()
        async let run = runner.run(["--verbose"], killAfter: .seconds(100), assembly: .test(.test(clock: clock)))
        // Once both requests are out and the weather has answered, the grace is the one sleeper.
        let asked = ContinuousClock.now + .seconds(30)
        while !(server.requests.contains { $0.hasPrefix("/alerts/") } && server.requests.contains { $0.hasPrefix("/v1/forecast") }),
              ContinuousClock.now < asked {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: CompanionGrace.length)
        let result = try await run
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.killed)
        #expect(result.elapsed < .seconds(100), "ended with the grace, not at the 300 s deadline")
        #expect(result.stdout.contains("Open-Meteo"))
        #expect(!result.stdout.contains("Alert:"))
        #expect(result.stderr.contains("alerts: no answer within 1.5 s of the weather; shown without them"), "\(result.stderr)")

        let cached = try await runner.run(["--json"], assembly: .test(.test(clock: clock)))
        let weather = try #require(cached.json?["weather"] as? [String: Any])
        #expect(weather["cached"] as? Bool == true, "kept as after a failed alerts fetch")
        #expect((weather["alerts"] as? [Any])?.isEmpty == true)
    }
}

/// RFC 3339 in UTC with `+00:00`, as the NWS writes observation times.
enum LocalTimeText {
    static func utc(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        return formatter.string(from: date).replacing("Z", with: "+00:00")
    }
}
