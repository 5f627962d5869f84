import Foundation
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore

/// The command as a library (issue 23, part 2): a run writes only through its context's sinks
/// and takes its facts (terminal, width, prompt, environment) from the context, so tests run
/// it in-process; what the process itself does stays with the binary's tests.
@Suite struct InProcessCommandTests {
    static let report = ["--lat", "27.95", "--lon", "-82.46",
                         "--weather-replay", Fixtures.url("weather/open-meteo/tampa-metric.json").path]

    @Test func theReportGoesToTheContextsStdoutAndErrorsToItsStderr() async throws {
        let runner = try InProcessCommand()
        let report = try await runner.run(Self.report + ["--format", "%t"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout == "26.8°C\n")
        #expect(report.stderr.isEmpty)
        let failed = try await runner.run(["--units", "metrc"])
        #expect(failed.status == 64)
        #expect(failed.stdout.isEmpty)
        #expect(failed.stderr.hasPrefix("here-weather: Invalid value 'metrc' for --units"), "\(failed.stderr)")
    }

    /// The exit status comes back to the caller: a library run never ends the test process.
    @Test func helpAndTheVersionReturnTheirStatus() async throws {
        let runner = try InProcessCommand()
        let version = try await runner.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == HereWeatherVersion.current + "\n")
        let help = try await runner.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: here-weather"))
    }

    /// A stdout that cannot take the report is exit 74 and one line, as `>/dev/full` is for
    /// the binary (`OutputSafetyTests`).
    @Test(arguments: [[], ["--json"], ["--format", "%t"], ["--waybar"]])
    func aStdoutThatFailsIsExit74WithOneLine(output: [String]) async throws {
        let runner = try InProcessCommand()
        let result = try await runner.run(Self.report + output, standardOutput: CapturedOutput(failing: "No space left on device"))
        #expect(result.status == 74)
        #expect(result.stderr == "here-weather: Cannot write the output: No space left on device. "
                + "Check where standard output goes (a full disk, a closed file or pipe).\n")
    }

    /// The terminal's width comes from the context (`TIOCGWINSZ` in the binary); `COLUMNS` still wins.
    @Test func theTextReportFitsTheContextsTerminal() async throws {
        let runner = try InProcessCommand()
        let arguments = Self.report + ["--hourly", "--daily"]
        let narrow = try await runner.run(arguments, terminal: .init(standardOutput: true, columns: 60))
        #expect(narrow.status == 0, "\(narrow.stderr)")
        let widths = narrow.stdout.split(separator: "\n").map { TextWidth.columns(String($0).replacing(/\x{1B}\[[0-9;]*m/, with: "")) }
        #expect(widths.max() ?? 0 <= 60, "\(narrow.stdout)")
        #expect(widths.max() ?? 0 > 40, "the width is used: \(narrow.stdout)")
        let asked = try await runner.run(arguments, environment: ["COLUMNS": "120"], terminal: .init(standardOutput: true, columns: 60))
        #expect(narrow.stdout != asked.stdout, "COLUMNS overrides the terminal's width")
    }

    /// On a terminal the text report is coloured unless NO_COLOR is set or TERM is unset
    /// (issue 25 item 12: a cron job or a service has none) or "dumb"; piped, it never is.
    @Test func colourFollowsTheContextsTerminal() async throws {
        let runner = try InProcessCommand()
        let terminal = InProcessCommand.TerminalFacts(standardOutput: true, columns: 80)
        let piped = try await runner.run(Self.report, environment: ["TERM": "xterm"])
        #expect(!piped.stdout.contains("\u{1B}["), "\(piped.stdout)")
        let onTerminal = try await runner.run(Self.report, environment: ["TERM": "xterm"], terminal: terminal)
        #expect(onTerminal.stdout.contains("\u{1B}["), "\(onTerminal.stdout)")
        let noColor = try await runner.run(Self.report, environment: ["NO_COLOR": "1", "TERM": "xterm"], terminal: terminal)
        #expect(!noColor.stdout.contains("\u{1B}["), "\(noColor.stdout)")
        for term in [nil, "", "dumb"] {
            let run = try await runner.run(Self.report, environment: term.map { ["TERM": $0] } ?? [:], terminal: terminal)
            #expect(run.status == 0 && !run.stdout.contains("\u{1B}["), "TERM=\(term ?? "unset"): \(run.stdout)")
        }
    }

    /// The permission question goes to the context's prompt: answered "y", the source is used
    /// and the answer remembered for the next run, which has no one to ask.
    @Test func thePermissionQuestionGoesToTheContextsPrompt() async throws {
        let server = try FixtureServer(routes: ["/ipinfo/json": .fixture("ip/ipinfo/success.json")])
        defer { server.stop() }
        let runner = try InProcessCommand()
        try runner.writeConfig("""
            version = 1
            [location]
            sources = ["ip"]
            [location.ip]
            services = ["ipinfo"]
            [location.ip.ipinfo]
            base_url = "\(server.baseURL)/ipinfo"
            """)
        let prompt = ScriptedPrompt(["y"])
        let asked = try await runner.run(["where", "--json", "--accuracy", "any"], prompt: prompt)
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(prompt.questions.count == 1)
        #expect(prompt.questions.first?.hasSuffix("[Y/n/o]: ") == true, "\(prompt.questions)")
        #expect(server.requests == ["/ipinfo/json"])
        let later = try await runner.run(["where", "--json", "--accuracy", "any", "--max-age", "off"])
        #expect(later.status == 0, "remembered: \(later.stderr)")
    }

    /// `--verbose` lines reach the context's stderr, never the test process's.
    @Test func verboseLinesGoToTheContextsStderr() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": .fixture("weather/open-meteo/tampa-metric.json")])
        defer { server.stop() }
        let runner = try InProcessCommand()
        try runner.writeConfig("""
            version = 1
            [weather.open-meteo]
            base_url = "\(server.baseURL)"
            """)
        let result = try await runner.run(["--lat", "27.95", "--lon", "-82.46", "--verbose", "--format", "%t"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("GET \(server.baseURL)/v1/forecast?"), "\(result.stderr)")
        #expect(result.stdout == "26.8°C\n")
    }
}
