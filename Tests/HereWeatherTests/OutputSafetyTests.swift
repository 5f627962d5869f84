import Foundation
import Testing
import HereWeatherCore

/// What the built binary writes, when writing fails and when it echoes text it was given
/// (issue 14): a report that cannot be written is exit 74 with one line on stderr, never
/// exit 0 with nothing; text a message echoes never breaks the line or drives the terminal.
@Suite struct OutputSafetyTests {
    static let replay = Fixtures.url("weather/open-meteo/tampa-metric.json").path
    static let report = ["--lat", "27.95", "--lon", "-82.46", "--weather-replay", replay]

    // MARK: Output write failures

    @Test(arguments: [
        ["--json"], [], ["--format", "%c %t"], ["--waybar"], ["--hourly", "--daily"],
    ])
    func aReportThatCannotBeWrittenIsExit74WithOneLine(output: [String]) async throws {
        let runner = try CommandRunner()
        defer { try? FileManager.default.removeItem(at: runner.home) }
        let result = try await runner.run(Self.report + output, stdout: ">/dev/full")
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n") == [
            "here-weather: Cannot write the output: No space left on device. Check where standard output goes (a full disk, a closed file or pipe).",
        ])
    }

    @Test func aClosedStdoutIsExit74() async throws {
        let runner = try CommandRunner()
        defer { try? FileManager.default.removeItem(at: runner.home) }
        let result = try await runner.run(Self.report + ["--json"], stdout: ">&-")
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n") == [
            "here-weather: Cannot write the output: standard output is closed. Check where standard output goes (a full disk, a closed file or pipe).",
        ])
    }

    /// Every subcommand's output is checked, not only the report's.
    @Test(arguments: [
        ["where", "--lat", "27.95", "--lon", "-82.46"], ["config", "path"], ["config", "show"],
        ["permissions", "show"], ["doctor"],
    ])
    func everySubcommandsOutputIsChecked(arguments: [String]) async throws {
        let runner = try CommandRunner()
        defer { try? FileManager.default.removeItem(at: runner.home) }
        try runner.writeConfig("version = 1\n[location]\nsources = [\"fixed\"]\n[location.fixed]\nlatitude = 27.95\nlongitude = -82.46\n[weather]\nbase_url = \"http://127.0.0.1:9\"\n[weather.nws]\nbase_url = \"http://127.0.0.1:9\"\n")
        let result = try await runner.run(arguments, stdout: ">/dev/full")
        #expect(result.status == 74, "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").last?.hasPrefix("here-weather: Cannot write the output: No space left on device.") == true,
                "\(result.stderr)")
    }

    /// Help and version are output too: written through the same check.
    @Test(arguments: [["--help"], ["--version"], ["report", "--help"]])
    func helpThatCannotBeWrittenIsExit74(arguments: [String]) async throws {
        let runner = try CommandRunner()
        defer { try? FileManager.default.removeItem(at: runner.home) }
        let result = try await runner.run(arguments, stdout: ">/dev/full")
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("here-weather: Cannot write the output: No space left on device."), "\(result.stderr)")
    }

    /// An error's JSON copy that cannot be written leaves the error itself as the one line.
    @Test func anErrorWithAFullStdoutKeepsItsOwnStatusAndLine() async throws {
        let runner = try CommandRunner()
        defer { try? FileManager.default.removeItem(at: runner.home) }
        let result = try await runner.run(["--lat", "27.95", "--lon", "-82.46", "--json", "--weather-replay", "/nonexistent"],
                                    stdout: ">/dev/full")
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    // MARK: Echoed text

    /// `--city` text with a line break, an escape sequence and a bell came back raw in the
    /// error line (and in the JSON error and the waybar tooltip).
    @Test(arguments: [["where"], ["where", "--json"], ["--waybar"]])
    func anEchoedCityNameStaysOnOneLineWithoutControlCharacters(command: [String]) async throws {
        let server = try FixtureServer(routes: ["/v1/search": .fixture("geocoding/open-meteo/no-results.json")])
        defer { server.stop() }
        let runner = try InProcessCommand()
        defer { try? FileManager.default.removeItem(at: runner.home) }
        try runner.writeConfig("[weather.open-meteo]\ngeocoding_url = \"\(server.baseURL)\"\n")
        let city = "Xyz\nzy\u{1B}[2J\u{1B}]0;pwned\u{07}ville\r"
        let result = try await runner.run(command + ["--city", city])
        #expect(result.status == (command == ["--waybar"] ? 0 : 75), "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1, "one line: \(result.stderr.debugDescription)")
        #expect(!Self.hasControl(result.stderr.dropLast()), "\(result.stderr.debugDescription)")
        #expect(result.stderr.contains("No place named \"Xyz zy [2J ]0;pwned ville\" found"), "\(result.stderr.debugDescription)")
        let message = (result.json?["error"] as? [String: Any])?["message"] as? String
            ?? result.json?["tooltip"] as? String
        if command != ["where"] {
            let shown = try #require(message, "\(result.stdout)")
            #expect(!Self.hasControl(Substring(shown)), "\(shown.debugDescription)")
        }
    }

    /// Option values the command line rejects are echoed on the error's line as they are
    /// everywhere else: no line break, no escape sequence.
    @Test(arguments: [["--units"], ["--provider"], ["where", "--accuracy"], ["where", "--source"], ["--format"]])
    func anEchoedOptionValueStaysOnOneLine(option: [String]) async throws {
        let runner = try InProcessCommand()
        defer { try? FileManager.default.removeItem(at: runner.home) }
        let value = option == ["--format"] ? "%\u{1B}" : "x\ny\u{1B}[2J\u{07}"
        let result = try await runner.run(option + [value])
        #expect(result.status == 64, "\(result.stderr)")
        let errorLine = result.stderr.split(separator: "\n").first { $0.hasPrefix("here-weather: ") }
        #expect(errorLine?.contains(option == ["--format"] ? "unknown code % ." : "(got \"x y [2J \")") == true, "\(result.stderr.debugDescription)")
        #expect(!Self.hasControl(Substring(result.stderr.replacingOccurrences(of: "\n", with: ""))), "\(result.stderr.debugDescription)")
    }

    static func hasControl(_ text: Substring) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }
    }
}

extension CommandRunner {
    /// Runs the binary as `run` does (waiting on a thread of its own, never on the few
    /// cooperative threads), through `sh` with `stdout` as its stdout redirection
    /// (`>/dev/full`, `>&-`); stdout is not captured.
    func run(_ arguments: [String], stdout redirection: String) async throws -> Result {
        try await BlockingCall.run { Swift.Result { try runBlocking(arguments, stdout: redirection) } }
    }

    private func runBlocking(_ arguments: [String], stdout redirection: String) throws -> Result {
        let command = ["/bin/sh", "-c", "exec \"$0\" \"$@\" \(redirection)", Self.executable.path] + arguments
        let run = try ChildProcess.run(command, environment: ["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        try LaunchFailure.check(run.termination, stderr: run.stderrText, command: command)
        return Result(status: run.termination.code, stdout: "", stderr: run.stderrText)
    }
}
