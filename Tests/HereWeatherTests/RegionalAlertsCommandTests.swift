import Foundation
import Testing
@testable import HereWeatherCLI
import HereWeatherCore

/// Official warnings outside the US through the command, in-process, against a local server
/// serving Fixtures/weather/alerts (issue 34): MET Norway at a Norwegian point, DWD at a
/// German one, MeteoAlarm at a Croatian one; none asked at a US point or with the switch off;
/// a failing or hanging service costs only the warnings.
@Suite struct RegionalAlertsCommandTests {
    /// 2026-11-28 12:00 UTC: within the recorded warnings, after the expired Croatian one.
    static let now = Date(timeIntervalSince1970: 1_795_867_200)
    static let clock = ShiftedClock(date: now)

    static let bergen = (60.3913, 5.3221)
    static let munich = (48.1374, 11.5755)
    static let hamburg = (53.5511, 9.9937)
    static let gospic = (44.5461, 15.3747)
    static let tampa = (27.9506, -82.4572)

    /// Open-Meteo's weather for any point, and the warnings services: MET's answer depends on
    /// `lang`, DWD's on the point in the filter (Munich's municipality has warnings, other
    /// points none), MeteoAlarm's Croatian feed; `override` first.
    static func server(_ override: @escaping @Sendable (String) -> FixtureServer.Response? = { _ in nil }) throws -> FixtureServer {
        try FixtureServer { target in
            if let answer = override(target) { return answer }
            let path = String(target.split(separator: "?", maxSplits: 1).first ?? "")
            switch path {
            case "/v1/forecast": return .fixture("weather/open-meteo/tampa-metric.json")
            case "/weatherapi/metalerts/2.0/current.json":
                return .fixture(target.contains("lang=no") ? "weather/alerts/metalerts-bergen-no.json" : "weather/alerts/metalerts-bergen-en.json")
            case "/geoserver/dwd/ows":
                let decoded = (target.removingPercentEncoding ?? target).replacing("+", with: " ")
                return .fixture(decoded.contains("CONTAINS(THE_GEOM,POINT(48.14 11.58))")
                                ? "weather/alerts/dwd-munich.json" : "weather/alerts/dwd-none.json")
            case "/api/v1/warnings/feeds-croatia": return .fixture("weather/alerts/meteoalarm-croatia.json")
            default: return .notFound
            }
        }
    }

    static func config(_ server: FixtureServer, at point: (Double, Double), extra: String = "",
                       dwd: Bool = true, meteoalarm: Bool = true) -> String {
        """
        version = 1
        [location]
        sources = ["fixed"]
        [location.fixed]
        latitude = \(point.0)
        longitude = \(point.1)
        name = "Here"
        accuracy = 1000
        [weather]
        provider = "open-meteo"
        timeout = 300
        [weather.open-meteo]
        base_url = "\(server.baseURL)"
        [weather.nws]
        base_url = "\(server.baseURL)"
        [weather.metno]
        base_url = "\(server.baseURL)"
        \(extra)
        [alerts.dwd]
        enabled = \(dwd)
        base_url = "\(server.baseURL)"
        [alerts.meteoalarm]
        enabled = \(meteoalarm)
        base_url = "\(server.baseURL)"
        """
    }

    func run(_ server: FixtureServer, at point: (Double, Double), _ arguments: [String], extra: String = "",
             dwd: Bool = true, meteoalarm: Bool = true, runner: InProcessCommand? = nil) async throws -> InProcessCommand.Result {
        let runner = try runner ?? InProcessCommand()
        try runner.writeConfig(Self.config(server, at: point, extra: extra, dwd: dwd, meteoalarm: meteoalarm))
        return try await runner.run(arguments, environment: ["COLUMNS": "200"], assembly: .test(.test(clock: Self.clock)))
    }

    static func isAlertsRequest(_ target: String) -> Bool {
        ["/weatherapi/metalerts", "/geoserver/", "/api/v1/warnings", "/alerts/"].contains { target.hasPrefix($0) }
    }

    @Test func norwayShowsMETsWarningsInTheLanguageAsked() async throws {
        let server = try Self.server()
        let english = try await run(server, at: Self.bergen, [])
        #expect(english.status == 0, "\(english.stderr)")
        #expect(english.stdout.contains("Alert: Rain (Severe), until Sat 28 Nov 19:00, from MET Norway"), "\(english.stdout)")
        #expect(english.stdout.contains("Alert: Gale (Moderate)"), "marine warnings too: MET filters by point")
        #expect(!english.stdout.contains("Snow"), "a cancellation is not shown")
        let request = try #require(server.receivedRequests.first { $0.target.hasPrefix("/weatherapi/metalerts/2.0/current.json") })
        #expect(request.target.contains("lat=60.39") && request.target.contains("lon=5.32") && request.target.contains("lang=en"),
                "\(request.target)")
        #expect(request.headers["user-agent"]?.contains("(+https://github.com/here-weather/here-weather)") == true,
                "no contact: the program's own User-Agent with its project page")

        let norwegian = try await run(server, at: Self.bergen, ["--lang", "nb", "--no-cache"])
        #expect(norwegian.stdout.contains("Kuling"), "\(norwegian.stdout)")
        #expect(server.requests.contains { $0.contains("lang=no") })
    }

    @Test func metsContactNamesTheRequest() async throws {
        let server = try Self.server()
        let runner = try InProcessCommand()
        var config = Self.config(server, at: Self.bergen)
        config = config.replacing("[weather.metno]\n", with: "[weather.metno]\ncontact = \"ops@example.org\"\n")
        try runner.writeConfig(config)
        let result = try await runner.run([], assembly: .test(.test(clock: Self.clock)))
        #expect(result.status == 0, "\(result.stderr)")
        let request = try #require(server.receivedRequests.first { $0.target.hasPrefix("/weatherapi/metalerts/") })
        #expect(request.headers["user-agent"]?.contains("ops@example.org") == true)
    }

    @Test func germanyShowsDWDsWarningsForThePointsMunicipality() async throws {
        let server = try Self.server()
        let german = try await run(server, at: Self.munich, ["--lang", "de"])
        #expect(german.status == 0, "\(german.stderr)")
        #expect(german.stdout.contains("Warnung: Sturmböen (mäßig)") || german.stdout.contains("Warnung: Sturmböen ("), "\(german.stdout)")
        #expect(german.stdout.contains("Es treten Sturmböen"), "German text under German output")
        #expect(!german.stdout.contains("Glätte"), "the cancellation is dropped")
        let english = try await run(server, at: Self.munich, [])
        #expect(english.stdout.contains("Alert: Wind (Moderate)"), "\(english.stdout)")
        #expect(english.stdout.contains("Alert: Frost (Minor)"))
        #expect(!english.stdout.contains("Sturmböen"), "no German under English output")
        let filter = try #require(server.requests.first { $0.hasPrefix("/geoserver/dwd/ows") })
        #expect(filter.contains("typeName=dwd%3AWarnungen_Gemeinden") || filter.contains("typeName=dwd:Warnungen_Gemeinden"), "\(filter)")

        let hamburg = try await run(server, at: Self.hamburg, [])
        #expect(hamburg.status == 0, "\(hamburg.stderr)")
        #expect(!hamburg.stdout.contains("Alert:"), "a point outside the warned municipality: none")
        #expect(server.requests.contains { $0.hasPrefix("/geoserver/") && $0.contains("53.55") })
    }

    @Test func croatiaShowsTheLocalWarningAndCountsTheRest() async throws {
        let server = try Self.server()
        let text = try await run(server, at: Self.gospic, [])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Alert: Orange wind warning (Severe), until Sun 29 Nov"), "\(text.stdout)")
        #expect(!text.stdout.contains("Yellow rain warning"), "Split's warning is never local")
        #expect(!text.stdout.contains("thunderstorm"), "the expired warning is dropped")
        #expect(!text.stdout.contains("Red rain warning"), "the cancelled warning is dropped")
        #expect(text.stdout.contains("4 more warnings elsewhere in the country (Croatia), highest level: red"), "\(text.stdout)")

        let json = try await run(server, at: Self.gospic, ["--json", "--no-cache"])
        let weather = try #require(json.json?["weather"] as? [String: Any])
        let alerts = try #require(weather["alerts"] as? [[String: Any]])
        #expect(alerts.map { $0["title"] as? String } == ["Orange wind warning"])
        #expect(alerts.first?["level"] as? String == "orange")
        #expect(alerts.first?["area"] as? String == "Gospić region")
        let elsewhere = try #require(weather["alerts_elsewhere"] as? [String: Any])
        #expect(elsewhere["country"] as? String == "HR")
        #expect(elsewhere["count"] as? Int == 4)
        #expect(elsewhere["highest_level"] as? String == "red")

        let format = try await run(server, at: Self.gospic, ["--format", "[%A]"])
        #expect(format.stdout == "[Orange wind warning]\n", "\(format.stdout)")
        let waybar = try await run(server, at: Self.gospic, ["--waybar"])
        let classes = waybar.json?["class"] as? [String] ?? []
        #expect(classes.contains("alert"), "\(waybar.stdout)")
        #expect((waybar.json?["tooltip"] as? String)?.contains("4 more warnings elsewhere in the country (Croatia)") == true)

        let german = try await run(server, at: Self.gospic, ["--lang", "de", "--no-cache"])
        #expect(german.stdout.contains("4 weitere Warnungen anderswo im Land (Kroatien), höchste Stufe: Rot"), "\(german.stdout)")
    }

    /// The reports with warnings from each source, and MeteoAlarm's warnings elsewhere, match
    /// docs/here-weather.schema.json.
    @Test func theirJSONMatchesTheSchema() async throws {
        let server = try Self.server()
        var documents: [String] = []
        for (point, language) in [(Self.bergen, "en"), (Self.munich, "de"), (Self.munich, "en"), (Self.gospic, "en")] {
            let result = try await run(server, at: point, ["--json", "--lang", language])
            #expect(result.status == 0, "\(result.stderr)")
            documents.append(result.stdout.trimmingCharacters(in: .newlines))
        }
        #expect(documents.allSatisfy { $0.contains("\"alerts\":[{") }, "each has warnings")
        let problems = try await JSONSchemaCheck.problems(documents, as: "report")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func aUSPointAsksNoneOfThemAndSwitchesTurnThemOff() async throws {
        let server = try Self.server()
        let us = try await run(server, at: Self.tampa, [])
        #expect(us.status == 0, "\(us.stderr)")
        #expect(!server.requests.contains { $0.hasPrefix("/weatherapi/metalerts") || $0.hasPrefix("/geoserver/") || $0.hasPrefix("/api/") })
        let off = try await run(server, at: Self.gospic, [], meteoalarm: false)
        #expect(off.status == 0, "\(off.stderr)")
        #expect(!off.stdout.contains("Alert:"))
        #expect(!server.requests.contains { $0.hasPrefix("/api/v1/warnings") })
        let dwdOff = try await run(server, at: Self.munich, [], dwd: false, meteoalarm: false)
        #expect(dwdOff.status == 0)
        #expect(!server.requests.contains { $0.hasPrefix("/geoserver/") })
        let metnoOff = try await run(server, at: Self.bergen, [], extra: "[alerts]\nmetno = false", meteoalarm: false)
        #expect(metnoOff.status == 0, "\(metnoOff.stderr)")
        #expect(!server.requests.contains { $0.hasPrefix("/weatherapi/metalerts") })
    }

    @Test func aFailingServiceCostsOnlyTheWarnings() async throws {
        let server = try Self.server { $0.hasPrefix("/api/v1/warnings") ? .json(500, "{}") : nil }
        let result = try await run(server, at: Self.gospic, ["--verbose"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Open-Meteo"))
        #expect(!result.stdout.contains("Alert:"))
        #expect(result.stderr.contains("alerts (meteoalarm): it answered HTTP 500; shown without them"), "\(result.stderr)")
    }

    @Test func aCachedReportKeepsItsWarnings() async throws {
        let server = try Self.server()
        let runner = try InProcessCommand()
        _ = try await run(server, at: Self.gospic, [], runner: runner)
        let asked = server.requests.count
        let cached = try await run(server, at: Self.gospic, ["--json"], runner: runner)
        #expect(server.requests.count == asked, "from the cache")
        let weather = try #require(cached.json?["weather"] as? [String: Any])
        #expect(weather["cached"] as? Bool == true)
        #expect((weather["alerts"] as? [[String: Any]])?.count == 1)
        #expect((weather["alerts_elsewhere"] as? [String: Any])?["count"] as? Int == 4)
    }

    @Test func aHangingWarningsServiceCostsTheGrace() async throws {
        let server = try Self.server { $0.hasPrefix("/api/v1/warnings") ? .hang : nil }
        let runner = try InProcessCommand(queued: false)
        try runner.writeConfig(Self.config(server, at: Self.gospic))
        let clock = TestClock()
        async let run = runner.run(["--verbose"], killAfter: .seconds(100), assembly: .test(.test(clock: clock)))
        let asked = ContinuousClock.now + .seconds(30)
        while !(server.requests.contains { $0.hasPrefix("/api/v1/warnings") } && server.requests.contains { $0.hasPrefix("/v1/forecast") }),
              ContinuousClock.now < asked {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: CompanionGrace.length)
        let result = try await run
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.killed)
        #expect(result.elapsed < .seconds(100), "ended with the grace, not at the 300 s deadline")
        #expect(!result.stdout.contains("Alert:"))
        #expect(result.stderr.contains("alerts: no answer within 1.5 s of the weather; shown without them"), "\(result.stderr)")
    }
}
