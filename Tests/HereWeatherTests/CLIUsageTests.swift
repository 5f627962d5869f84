import Foundation
import Testing
@testable import HereWeatherCLI

/// The command line as a new user meets it (issue 15, "Why" items 1, 2 and 8): mistyped
/// commands and values get a suggestion, a --config file that is not there is exit 66, and
/// every error line starts `here-weather: `.
@Suite struct CLIUsageTests {
    let tampaReplay = Fixtures.url("weather/open-meteo/tampa-metric.json").path

    /// Every line the run wrote on stderr starts `here-weather: `, and there is at least one.
    static func allPrefixed(_ stderr: String) -> Bool {
        let lines = stderr.split(separator: "\n")
        return !lines.isEmpty && lines.allSatisfy { $0.hasPrefix("here-weather: ") }
    }

    // MARK: Commands

    @Test(arguments: [
        (["wehre"], "Unknown command 'wehre'. Did you mean 'where'?"),
        (["docter"], "Unknown command 'docter'. Did you mean 'doctor'?"),
        (["config", "int"], "Unknown command 'config int'. Did you mean 'config init'?"),
        (["permissions", "alow", "gpsd"], "Unknown command 'permissions alow'. Did you mean 'permissions allow'?"),
        (["help", "wehre"], "Unknown command 'wehre'. Did you mean 'where'?"),
        (["help", "config", "int"], "Unknown command 'config int'. Did you mean 'config init'?"),
    ])
    func aMistypedCommandIsNamedWithTheNearestOne(arguments: [String], line: String) async throws {
        let result = try await InProcessCommand().run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr == "here-weather: \(line)\n", "\(result.stderr)")
        #expect(result.stdout.isEmpty, "no help on stdout: \(result.stdout)")
    }

    @Test func aWordNearNoCommandListsThem() async throws {
        let result = try await InProcessCommand().run(["config", "xyzzy"])
        #expect(result.status == 64)
        #expect(result.stderr == "here-weather: Unknown command 'config xyzzy'. Use 'config path', 'config show' or 'config init'.\n")
    }

    @Test func helpForARealCommandStillWorks() async throws {
        let result = try await InProcessCommand().run(["help", "config", "init"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("USAGE: here-weather config init"))
        let helpOnHelp = try await InProcessCommand().run(["help", "help"])
        #expect(helpOnHelp.status == 0, "\(helpOnHelp.stderr)")
        #expect(helpOnHelp.stdout.contains("USAGE: here-weather help"))
    }

    @Test(arguments: [
        (["--config", "x.toml", "where"], "here-weather where --config x.toml"),
        (["--json", "where"], "here-weather where --json"),
        (["config", "--config", "x.toml", "show"], "here-weather config show --config x.toml"),
        (["--city", "New York", "where"], "here-weather where --city 'New York'"),
    ])
    func aCommandAfterItsOptionsIsShownFirst(arguments: [String], corrected: String) async throws {
        let result = try await InProcessCommand().run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr == "here-weather: The command comes before its options: \(corrected)\n", "\(result.stderr)")
    }

    // MARK: Values

    @Test(arguments: [
        (["--units", "metrc"], "Invalid value 'metrc' for --units: use metric, imperial or standard. Did you mean 'metric'?"),
        (["--provider", "openweather"],
         "Invalid value 'openweather' for --provider: use open-meteo, openweathermap, metno, pirateweather or nws. Did you mean 'openweathermap'?"),
        (["--accuracy", "5km"], "Invalid value '5km' for --accuracy: use best, 10m, 100m, 1km, 3km or any."),
        (["where", "--source", "gpds"], "Invalid value 'gpds' for --source: use gpsd, geoclue, wifi, ip, nmea or fixed. Did you mean 'gpsd'?"),
        (["permissions", "allow", "wfii"], "Invalid source 'wfii': use gpsd, geoclue, wifi, ip, nmea or fixed. Did you mean 'wifi'?"),
        (["--timeout", "-3"], "Invalid value '-3' for --timeout: use a number of seconds from 1 to 3600."),
        (["--timeout", "0"], "Invalid value '0' for --timeout: use a number of seconds from 1 to 3600."),
        (["--timeout", "soon"], "Invalid value 'soon' for --timeout: use a number of seconds from 1 to 3600."),
        (["--max-age", "0"], "Invalid value '0' for --max-age: use 'off' or a number of seconds from 1 to 31536000."),
        (["--max-age", "-5"], "Invalid value '-5' for --max-age: use 'off' or a number of seconds from 1 to 31536000."),
        (["--lat", "abc", "--lon", "3"], "Invalid value 'abc' for --lat: use a number from -90 to 90 (degrees)."),
        (["--lat", "91", "--lon", "3"], "Invalid value '91' for --lat: use a number from -90 to 90 (degrees)."),
        (["--lat", "1", "--lon", "0x10"], "Invalid value '0x10' for --lon: use a number from -180 to 180 (degrees)."),
    ])
    func aWrongValueNamesTheChoicesAndTheNearest(arguments: [String], message: String) async throws {
        let result = try await InProcessCommand().run(arguments)
        #expect(result.status == 64)
        let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("here-weather: "), "\(result.stderr)")
        #expect(first.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains("Missing value"))
        #expect(!result.stderr.contains("from 0"))
        #expect(Self.allPrefixed(result.stderr), "\(result.stderr)")
    }

    @Test(arguments: [["--units", "Imperial"], ["--units", "IMPERIAL", "--provider", "Open-Meteo"], ["--accuracy", "3KM"]])
    func valuesAreReadInAnyLetterCase(extra: [String]) async throws {
        let result = try await InProcessCommand().run(["--lat", "27.95", "--lon", "-82.46", "--json", "--weather-replay", tampaReplay] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        let weather = try #require(result.json?["weather"] as? [String: Any])
        #expect(weather["units"] as? String == (extra[1].lowercased() == "imperial" ? "imperial" : "metric"))
    }

    @Test func aSourceIsReadInAnyLetterCase() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("[location]\nsources = [\"fixed\"]\n[location.fixed]\nlatitude = 27.95\nlongitude = -82.46\n")
        let result = try await runner.run(["where", "--source", "FIXED", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect((result.json?["location"] as? [String: Any])?["source"] as? String == "fixed")
    }

    // MARK: One style

    /// Every usage error is one style (issue 35, D21): a capitalised sentence with a full stop,
    /// a suggestion as a sentence of its own; `--verison` and `-V` are `--version`, and a
    /// report option given to `where` says whose it is.
    @Test(arguments: [
        (["--verison"], "Unknown option '--verison'. Did you mean '--version'?"),
        (["-V"], "Unknown option '-V'. Did you mean '--version'?"),
        (["--hourlyy"], "Unknown option '--hourlyy'. Did you mean '--hourly'?"),
        (["--xyzzy"], "Unknown option '--xyzzy'."),
        (["where", "--hourly"], "Unknown option '--hourly' for 'here-weather where': --hourly is an option of the weather report (here-weather --hourly)."),
        (["where", "--format", "%t"], "Unknown option '--format' for 'here-weather where': --format is an option of the weather report (here-weather --format)."),
        (["where", "--jsn"], "Unknown option '--jsn'. Did you mean '--json'?"),
        (["report", "extra"], "Unexpected argument 'extra'."),
    ])
    func usageErrorsAreOneStyle(arguments: [String], line: String) async throws {
        let result = try await InProcessCommand().run(arguments)
        #expect(result.status == 64)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "here-weather: " + line, "\(result.stderr)")
        #expect(lines.dropFirst().first?.hasPrefix("here-weather: See 'here-weather ") == true, "\(result.stderr)")
        #expect(lines.dropFirst().first?.hasSuffix(" --help'.") == true, "\(result.stderr)")
    }

    @Test(arguments: [["--no-such-flag"], ["--lat", "1"], ["--json", "--waybar"], ["report", "extra"],
                      ["--generate-completion-script", "tcsh"], ["where", "--timeout", "soon"]])
    func everyErrorLineStartsWithTheProgramsName(arguments: [String]) async throws {
        let result = try await InProcessCommand().run(arguments)
        #expect(result.status == 64)
        #expect(Self.allPrefixed(result.stderr), "\(result.stderr)")
        #expect(!result.stderr.contains("Error:"))
        #expect(!result.stderr.contains("Usage:"), "a hint, not the usage: \(result.stderr)")
    }

    // MARK: Help (issue 35, D29)

    @Test func reportHelpsUsageIsItsOwnAndUsageLinesWrap() async throws {
        let report = try await InProcessCommand().run(["report", "--help"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("\nUSAGE: here-weather report [<options>]\n"), "\(report.stdout)")
        // Every command's usage fits 80 columns.
        for command in [["where"], ["doctor"], ["config", "init"], ["permissions", "allow"], ["help"]] {
            let help = try await InProcessCommand().run(command + ["--help"])
            let usage = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
                .drop { !$0.hasPrefix("USAGE: ") }.prefix { !$0.isEmpty }
            #expect(!usage.isEmpty && usage.allSatisfy { $0.count <= 80 }, "\(command): \(usage)")
        }
        // A usage line longer than that wraps between options, never inside one, the later
        // lines under the first option.
        let long = "USAGE: here-weather where [--lat <degrees>] [--lon <degrees>] [--city <name>] [--accuracy <level>] "
            + "[--timeout <seconds>] [--max-age <seconds|off>] [--replay <file>] [--source <name> ...] [--json]"
        let usage = UsageWording.wrappingUsage("OVERVIEW: x\n\n" + long + "\n\nOPTIONS:\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("USAGE: ") }.prefix { !$0.isEmpty }
        #expect(usage.count > 1 && usage.allSatisfy { $0.count <= 80 }, "\(usage)")
        #expect(usage.first == "USAGE: here-weather where [--lat <degrees>] [--lon <degrees>] [--city <name>]", "\(usage)")
        #expect(usage.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 26) + "[") }, "\(usage)")
        #expect(usage.joined(separator: " ").split(separator: " ").filter { !$0.isEmpty }.joined(separator: " ") == long)
    }

    // MARK: --config FILE

    @Test(arguments: [["--lat", "1", "--lon", "2"], ["where", "--lat", "1", "--lon", "2"], ["doctor"], ["config", "show"],
                      ["permissions"], ["permissions", "deny", "ip"], ["--json", "--lat", "1", "--lon", "2"]])
    func aMissingConfigFileIsExit66(command: [String]) async throws {
        let runner = try InProcessCommand()
        let missing = runner.home.appendingPathComponent("nonexistent.toml").path
        let result = try await runner.run(command + ["--config", missing])
        #expect(result.status == 66, "\(result.stdout)\(result.stderr)")
        // doctor reports its config check in its table (wrapped to the width: joined back
        // here); the others on stderr, in one line.
        let said = command == ["doctor"] ? DoctorCommandTests.checks(result.stdout).joined(separator: "\n") : result.stderr
        #expect(said.contains("\(missing) (--config): No such file or directory"), "\(said)")
        #expect(said.contains("here-weather config init --config \(missing)"))
        if command != ["doctor"] {
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
            #expect(Self.allPrefixed(result.stderr))
        }
        if command.first == "--json" {
            #expect((result.json?["error"] as? [String: Any])?["code"] as? String == "no_input")
        }
        #expect(!FileManager.default.fileExists(atPath: missing), "nothing written")
    }

    @Test func aFolderAsConfigFileIsExit66() async throws {
        let runner = try InProcessCommand()
        let result = try await runner.run(["--config", runner.home.path, "--lat", "1", "--lon", "2"])
        #expect(result.status == 66)
        #expect(result.stderr == "here-weather: cannot read the config file \(runner.home.path) (--config): Is a directory. "
                + "Name the config file, not its folder.\n")
    }

    @Test func configInitCreatesTheFileThatConfigNames() async throws {
        let runner = try InProcessCommand()
        let named = runner.home.appendingPathComponent("new.toml").path
        let result = try await runner.run(["config", "init", "--config", named])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: named))
        let path = try await runner.run(["config", "path", "--config", runner.home.appendingPathComponent("other.toml").path])
        #expect(path.status == 0, "config path only names the file")
    }

    @Test func theDefaultConfigFileMayBeMissing() async throws {
        let result = try await InProcessCommand().run(["--lat", "1", "--lon", "2", "--weather-replay", tampaReplay])
        #expect(result.status == 0, "\(result.stderr)")
    }
}
