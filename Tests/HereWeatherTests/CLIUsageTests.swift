import Foundation
import Testing

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
        (["wehre"], "unknown command 'wehre'; did you mean 'where'?"),
        (["docter"], "unknown command 'docter'; did you mean 'doctor'?"),
        (["config", "int"], "unknown command 'config int'; did you mean 'config init'?"),
        (["permissions", "alow", "gpsd"], "unknown command 'permissions alow'; did you mean 'permissions allow'?"),
        (["help", "wehre"], "unknown command 'wehre'; did you mean 'where'?"),
        (["help", "config", "int"], "unknown command 'config int'; did you mean 'config init'?"),
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
        #expect(result.stderr == "here-weather: unknown command 'config xyzzy'; use 'config path', 'config show' or 'config init'\n")
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
        #expect(result.stderr == "here-weather: the command comes before its options: \(corrected)\n", "\(result.stderr)")
    }

    // MARK: Values

    @Test(arguments: [
        (["--units", "metrc"], "--units must be metric, imperial or standard (got \"metrc\"); did you mean 'metric'?"),
        (["--provider", "openweather"],
         "--provider must be open-meteo, openweathermap, metno, pirateweather or nws (got \"openweather\"); did you mean 'openweathermap'?"),
        (["--accuracy", "5km"], "--accuracy must be best, 10m, 100m, 1km, 3km or any (got \"5km\")"),
        (["where", "--source", "gpds"], "--source must be gpsd, geoclue, wifi, ip, nmea or fixed (got \"gpds\"); did you mean 'gpsd'?"),
        (["permissions", "allow", "wfii"], "(got \"wfii\"); did you mean 'wifi'?"),
        (["--timeout", "-3"], "--timeout must be from 1 to 3600 seconds (got -3)."),
        (["--timeout", "0"], "--timeout must be from 1 to 3600 seconds (got 0)."),
        (["--max-age", "0"], "--max-age must be 'off' or from 1 to 31536000 seconds (got \"0\")."),
        (["--max-age", "-5"], "--max-age must be 'off' or from 1 to 31536000 seconds (got \"-5\")."),
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

    @Test(arguments: [["--no-such-flag"], ["--lat", "1"], ["--json", "--waybar"], ["report", "extra"],
                      ["--generate-completion-script", "tcsh"], ["where", "--timeout", "soon"]])
    func everyErrorLineStartsWithTheProgramsName(arguments: [String]) async throws {
        let result = try await InProcessCommand().run(arguments)
        #expect(result.status == 64)
        #expect(Self.allPrefixed(result.stderr), "\(result.stderr)")
        #expect(!result.stderr.contains("Error:"))
        #expect(!result.stderr.contains("Usage:"), "a hint, not the usage: \(result.stderr)")
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
