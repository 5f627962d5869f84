import Foundation
import Testing
@testable import HereWeatherCore

/// `--waybar`: one JSON line with text, tooltip, class and alt, on success, for a stale
/// cached report, and for every kind of failure (still valid JSON, class "error", exit 0).
@Suite struct WaybarOutputTests {
    let tampaReplay = Fixtures.url("weather/open-meteo/tampa-metric.json").path

    /// stdout as the waybar object, after checking it is one line with exactly the four keys.
    func waybarObject(_ result: CommandRunner.Result) throws -> [String: Any] {
        #expect(result.stdout.hasSuffix("\n") && result.stdout.split(separator: "\n").count == 1, "one line")
        let json = try #require(result.json, "not JSON: \(result.stdout)")
        #expect(Set(json.keys) == ["text", "tooltip", "class", "alt"])
        return json
    }

    func classes(_ json: [String: Any]) -> [String] {
        if let one = json["class"] as? String { return [one] }
        return json["class"] as? [String] ?? []
    }

    func fixedConfig(name: String = "Tampa", extra: String = "") -> String {
        """
        \(ProviderSetup.fixedLocation(named: name))
        \(extra)
        """
    }

    // MARK: Success

    @Test func successHasTheFourKeys() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig(fixedConfig())
        let result = try await runner.run(["--waybar", "--weather-replay", tampaReplay])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try waybarObject(result)
        #expect(json["text"] as? String == "☀️ 26.8°C")
        #expect(json["class"] as? String == "clear")
        #expect(json["alt"] as? String == "clear")
        let tooltip = try #require(json["tooltip"] as? String)
        let lines = tooltip.split(separator: "\n").map(String.init)
        #expect(lines.first == "Tampa")
        #expect(tooltip.contains("Mainly clear"))
        #expect(tooltip.contains("feels like 26.9°C"))
        #expect(tooltip.contains("Wind 4.9 m/s from NNE"))
        #expect(tooltip.contains("Humidity 65%"))
        #expect(tooltip.contains("Location: fixed location, "), "the first line names Tampa; not again (issue 35 D25)")
        #expect(!tooltip.contains("fixed: Tampa"), "\(tooltip)")
        #expect(tooltip.contains("Open-Meteo, replayed from a recording"), "a replay has no age")
        #expect(result.stderr.isEmpty, "no spinner, no warnings")
    }

    @Test func formatSetsTheText() async throws {
        let runner = try InProcessCommand()
        let result = try await runner.run(["--lat", "27.95", "--lon", "-82.46", "--waybar", "--format", "%t %h",
                                     "--weather-replay", tampaReplay])
        #expect(try waybarObject(result)["text"] as? String == "26.8°C 65%")
    }

    @Test func markupIsEscaped() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig(fixedConfig(name: "Bait & <Tackle>"))
        let json = try waybarObject(try await runner.run(["--waybar", "--weather-replay", tampaReplay]))
        let tooltip = try #require(json["tooltip"] as? String)
        #expect(tooltip.hasPrefix("Bait &amp; &lt;Tackle&gt;\n"))
    }

    @Test func staleReportAddsTheStaleClass() throws {
        var report = try FormatStringTests.report()
        report.freshness = Freshness(cached: true, ageSeconds: 3 * 3600, stale: true)
        let fields = ReportFields(location: FormatStringTests.tampa, report: report, now: Date())
        let line = WaybarReport.render(fields, format: try FormatString("%c %t (%a)"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(classes(json) == ["clear", "stale"])
        #expect(json["text"] as? String == "☀️ 26.8°C (3 h) (offline 3 h)", "a stale report never looks fresh")
        #expect((json["tooltip"] as? String)?.contains("from 3 h ago (stale: the service could not be reached)") == true)
        #expect(json["alt"] as? String == "clear")
    }

    @Test func freshReportIsNotStale() throws {
        let fields = ReportFields(location: FormatStringTests.tampa, report: try FormatStringTests.report(), now: Date())
        let line = WaybarReport.render(fields, format: try FormatString(WaybarReport.defaultText))
        #expect(!line.contains("stale"))
    }

    // MARK: Failures still give the bar a line

    @Test func noLocationIsAnErrorLineAndExitZero() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("[location]\nsources = [\"fixed\"]\n")
        let result = try await runner.run(["--waybar"])
        #expect(result.status == 0)
        let json = try waybarObject(result)
        #expect(classes(json) == ["error", "no_location"])
        #expect(json["alt"] as? String == "error")
        #expect((json["text"] as? String)?.contains("no location") == true)
        #expect((json["tooltip"] as? String)?.contains("[location.fixed]") == true)
        #expect(result.stderr.contains("No location"), "the message is on stderr too, for waybar's log")
    }

    @Test func badConfigIsAnErrorLine() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("version = 1\n[weather]\nunits = \"metric\nprovider = 3\n")
        let result = try await runner.run(["--waybar"])
        #expect(result.status == 0)
        let json = try waybarObject(result)
        #expect(classes(json) == ["error", "configuration"])
        #expect((json["text"] as? String)?.contains("config error") == true)
        #expect((json["tooltip"] as? String)?.contains(runner.configPath) == true)
    }

    @Test func serviceFailureIsAnErrorLine() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": .json(503, "<html>down</html>")])
        let runner = try InProcessCommand()
        try runner.writeConfig(fixedConfig(extra: "[weather.open-meteo]\nbase_url = \"\(server.baseURL)\""))
        let result = try await runner.run(["--waybar"])
        #expect(result.status == 0)
        let json = try waybarObject(result)
        #expect(classes(json) == ["error", "service_unavailable"])
        #expect((json["tooltip"] as? String)?.contains("HTTP 503") == true)
    }

    @Test func unreadableReplayIsAnErrorLine() async throws {
        let runner = try InProcessCommand()
        let result = try await runner.run(["--lat", "1", "--lon", "2", "--waybar", "--weather-replay", "/nonexistent.json"])
        #expect(result.status == 0)
        #expect(classes(try waybarObject(result)) == ["error", "no_input"])
    }

    @Test func errorGlyphFollowsTheIconSet() {
        let error = LocationError.noSources(configPath: "/x")
        #expect(WaybarReport.error(error, output: .init(icons: .ascii)).contains(#""text":"! no location""#))
        #expect(WaybarReport.error(error, output: .init(icons: .emoji)).contains(#""text":"⚠️ no location""#))
    }
}
