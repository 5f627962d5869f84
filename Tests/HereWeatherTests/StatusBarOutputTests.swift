import Foundation
import Testing
@testable import HereWeatherCore

/// `--format` for status bars (tmux, i3blocks, polybar): it never goes blank. A failure
/// prints one short line on stdout, keeps the error's exit status and its message on
/// stderr; a stale report is marked; `[output] format_error` sets the failure line.
@Suite struct StatusBarOutputTests {
    static let forecast = FixtureServer.Response.fixture("weather/open-meteo/tampa-metric.json")

    /// Tampa as the fixed location (as in the waybar tests), Open-Meteo at `baseURL`, and `extra` lines.
    func config(baseURL: String, ttl: Double = 600, extra: String = "") -> String {
        WaybarOutputTests().fixedConfig(extra: "[weather.open-meteo]\nbase_url = \"\(baseURL)\"\n[cache]\nttl = \(ttl)\n\(extra)")
    }

    /// One line on stdout, the message on stderr, the error's exit status.
    func expectFailureLine(_ result: CommandRunner.Result, _ line: String, status: Int32, message: String,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == status, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout == line + "\n", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("here-weather: ") && result.stderr.contains(message), "\(result.stderr)",
                sourceLocation: sourceLocation)
    }

    // MARK: Failures: one line on stdout, the exit status kept

    @Test func noLocationPrintsALine() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("[location]\nsources = [\"fixed\"]\n")
        let result = try await runner.run(["--format", "%c %t"])
        expectFailureLine(result, "⚠️ no location", status: 75, message: "[location.fixed]")
    }

    @Test func unreachableServicePrintsALine() async throws {
        let closed = try ClosedPort()
        let runner = try InProcessCommand()
        try runner.writeConfig(config(baseURL: "http://127.0.0.1:\(closed.port)"))
        let result = try await runner.run(["--format", "3"])
        expectFailureLine(result, "⚠️ weather offline", status: 69, message: "Cannot reach Open-Meteo")
    }

    @Test func locationSwitchedOffPrintsALine() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("[location]\nenabled = false\nsources = [\"ip\"]\n")
        let result = try await runner.run(["--format", "%c %t"])
        expectFailureLine(result, "⚠️ location off", status: 77, message: "off")
    }

    /// A bar's first run, with no terminal to ask on: nothing was switched off, the source
    /// needs permission ("location off" said otherwise).
    @Test func aSourceThatNeedsPermissionPrintsALine() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("[location]\nsources = [\"ip\"]\n")
        let result = try await runner.run(["--format", "%c %t"])
        expectFailureLine(result, "⚠️ location not allowed", status: 77, message: "here-weather permissions allow ip")
    }

    @Test func configErrorPrintsALine() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("version = 1\n[weather]\nunits = \"metric\nprovider = 3\n")
        let result = try await runner.run(["--format", "%c %t"])
        expectFailureLine(result, "⚠️ config error", status: 78, message: runner.configPath)
    }

    @Test func unreadableRecordingPrintsALine() async throws {
        let result = try await InProcessCommand().run(["--lat", "1", "--lon", "2", "--format", "%t",
                                                    "--weather-replay", "/nonexistent.json"])
        expectFailureLine(result, "⚠️ no input", status: 66, message: "/nonexistent.json")
    }

    /// A bad command line is fixed once in the bar's config: a usage error, no line.
    @Test func aBadFormatIsStillAUsageErrorWithoutALine() async throws {
        let result = try await InProcessCommand().run(["--lat", "1", "--lon", "2", "--format", "%k"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
    }

    // MARK: [output] format_error

    @Test func formatErrorSetsTheLineWithItsCodes() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("[location]\nsources = [\"fixed\"]\n[output]\nicons = \"ascii\"\nformat_error = \"%c wx: %e (%E) 100%%\"\n")
        let result = try await runner.run(["--format", "%c %t"])
        expectFailureLine(result, "! wx: no location (no_location) 100%", status: 75, message: "No location")
    }

    @Test func formatErrorIsTheWaybarTextToo() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("[location]\nsources = [\"fixed\"]\n[output]\nformat_error = \"n/a\"\n")
        let result = try await runner.run(["--waybar"])
        #expect(result.status == 0)
        let json = try #require(result.json)
        #expect(json["text"] as? String == "n/a")
        #expect(json["class"] as? [String] == ["error", "no_location"])
    }

    @Test func anUnknownCodeInFormatErrorIsAConfigError() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("[location]\nsources = [\"fixed\"]\n[output]\nformat_error = \"%c %q\"\n")
        let result = try await runner.run(["--format", "%t"])
        // The configuration it names is the one that failed: the default line stands in.
        expectFailureLine(result, "⚠️ config error", status: 78, message: "[output] format_error must be text with the codes %c")
    }

    @Test func formatErrorIsShownByConfigShow() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("[output]\nformat_error = \"wx %e\"\n")
        let result = try await runner.run(["config", "show"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("format_error = \"wx %e\""), "\(result.stdout)")
        #expect(result.stderr.isEmpty, "a known key: \(result.stderr)")
    }

    // MARK: Stale reports never look fresh

    /// Fetches once from a server, then points the config at a closed port: the next run
    /// shows the cached report, stale.
    func staleRunner(extra: String = "") async throws -> InProcessCommand {
        let server = try FixtureServer(routes: ["/v1/forecast": Self.forecast])
        let runner = try InProcessCommand()
        try runner.writeConfig(config(baseURL: server.baseURL, ttl: 0, extra: extra))
        let first = try await runner.run(["--format", "%c %t"])
        #expect(first.stdout == "☀️ 26.8°C\n", "a fresh report has no marker: \(first.stderr)")
        return runner
    }

    @Test func aStaleReportIsMarkedInEveryFormat() async throws {
        let closed = try ClosedPort()
        let runner = try await staleRunner()
        try runner.writeConfig(config(baseURL: "http://127.0.0.1:\(closed.port)", ttl: 0))
        // The marker gives the age from a minute on, which a loaded machine may reach.
        func withoutAge(_ text: String?) -> String? { text?.replacing(/\(offline [0-9]+ min\)/, with: "(offline)") }
        let plain = try await runner.run(["--format", "%c %t"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(withoutAge(plain.stdout) == "☀️ 26.8°C (offline)\n")
        let preset = try await runner.run(["--format", "1"])
        #expect(withoutAge(preset.stdout) == "☀️ 26.8°C (offline)\n")
        let placed = try await runner.run(["--format", "%O %t"])
        #expect(withoutAge(placed.stdout) == "(offline) 26.8°C\n", "%O puts the marker where it is written, once")
        let waybar = try #require(try await runner.run(["--waybar"]).json)
        #expect(withoutAge(waybar["text"] as? String) == "☀️ 26.8°C (offline)")
    }

    @Test func theStaleMarkerSaysHowOld() throws {
        var report = try FormatStringTests.report()
        let fresh = ReportFields(location: FormatStringTests.tampa, report: report, now: Date())
        #expect(fresh.staleMarker == "")
        #expect(try FormatString("%t%O").render(fresh) == "26.8°C")
        report.freshness = Freshness(cached: true, ageSeconds: 3 * 3600 + 60, stale: true)
        let stale = ReportFields(location: FormatStringTests.tampa, report: report, now: Date())
        #expect(try FormatString("%c %t").render(stale) == "☀️ 26.8°C (offline 3 h)")
        #expect(try FormatString("%t %a").render(stale) == "26.8°C 3 h (offline 3 h)")
        // A cached report that is still fresh is not stale: no marker.
        report.freshness = Freshness(cached: true, ageSeconds: 300, stale: false)
        #expect(try FormatString("%c %t").render(ReportFields(location: FormatStringTests.tampa, report: report, now: Date())) == "☀️ 26.8°C")
    }

    // MARK: Replayed recordings

    @Test func aReplayIsMarkedInTextAndJSON() async throws {
        let arguments = ["--replay", Fixtures.url("nmea/southern-eastern.nmea").path,
                         "--weather-replay", Fixtures.url("weather/open-meteo/melbourne-au-metric.json").path]
        let runner = try InProcessCommand()
        let text = try await runner.run(arguments)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.split(separator: "\n").last == "Replayed: NMEA log and recorded Open-Meteo response")
        let json = try await runner.run(arguments + ["--json"])
        #expect((json.json?["weather"] as? [String: Any])?["replayed"] as? Bool == true)
        #expect((json.json?["location"] as? [String: Any])?["source"] as? String == "nmea")
        let waybar = try #require(try await runner.run(arguments + ["--waybar"]).json)
        #expect((waybar["tooltip"] as? String)?.contains("Open-Meteo, replayed from a recording") == true)
    }

    @Test func aWeatherReplayAloneIsMarked() async throws {
        let result = try await InProcessCommand().run(["--lat", "27.95", "--lon", "-82.46", "--weather-replay",
                                                    Fixtures.url("weather/open-meteo/tampa-metric.json").path])
        #expect(result.stdout.split(separator: "\n").last == "Replayed: recorded Open-Meteo response")
    }

    @Test func aLiveReportIsNotMarked() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": Self.forecast])
        let runner = try InProcessCommand()
        try runner.writeConfig(config(baseURL: server.baseURL))
        let text = try await runner.run([])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(!text.stdout.contains("Replayed"))
        let json = try await runner.run(["--json"])
        #expect((json.json?["weather"] as? [String: Any])?["replayed"] as? Bool == false)
    }
}
