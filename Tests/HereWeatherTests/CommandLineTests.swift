import Foundation
import Testing

/// The built `here-weather` binary, run as a user runs it, with a temporary HOME.
@Suite struct CommandLineTests {
    let tampaReplay = Fixtures.url("weather/open-meteo/tampa-metric.json").path

    /// A config pointing both providers at `server`.
    func config(server: FixtureServer, provider: String = "open-meteo", extra: String = "") -> String {
        config(baseURL: server.baseURL, provider: provider, extra: extra)
    }

    func config(baseURL: String, provider: String = "open-meteo", extra: String = "") -> String {
        """
        \(ProviderSetup.fixedLocation)
        [weather]
        provider = "\(provider)"
        units = "metric"
        timeout = 30
        [weather.open-meteo]
        base_url = "\(baseURL)"
        [weather.openweathermap]
        base_url = "\(baseURL)"
        \(extra)
        """
    }

    // MARK: Reports

    @Test func fullRunFromTheFixedLocationAgainstALocalServer() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": .fixture("weather/open-meteo/tampa-metric.json")])
        let runner = try InProcessCommand()
        try runner.writeConfig(config(server: server))
        let result = try await runner.run([])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Tampa (fixed location, ±1 km)"))
        #expect(result.stdout.contains("Mainly clear, 26.8 °C, feels like 26.9 °C"))
        #expect(result.stdout.contains("Wind 4.9 m/s from NNE"))
        #expect(result.stdout.contains("Humidity 65%"))
        #expect(result.stdout.contains("Sunrise 06:56"))
        #expect(result.stdout.contains("Sunset 17:35"))
        #expect(!result.stdout.contains("\u{1B}["), "no colour when stdout is not a terminal")
        #expect(result.stderr.isEmpty)
        #expect(server.requests.count == 1)
        #expect(server.requests[0].contains("latitude=27.95&longitude=-82.46"))
    }

    @Test func jsonOutputFollowsTheSchema() async throws {
        let runner = try InProcessCommand()
        let result = try await runner.run(["--lat", "27.9506", "--lon", "-82.4572", "--json", "--weather-replay", tampaReplay])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 1, "one JSON object on one line")
        let json = try #require(result.json)
        let location = try #require(json["location"] as? [String: Any])
        #expect(location["latitude"] as? Double == 27.9506)
        #expect(location["longitude"] as? Double == -82.4572)
        #expect(location["source"] as? String == "command-line")
        #expect(location["accuracy_m"] is NSNull)
        #expect(location["name"] is NSNull)
        #expect((location["timestamp"] as? String)?.hasSuffix("-05:00") == true)
        let weather = try #require(json["weather"] as? [String: Any])
        #expect(weather["provider"] as? String == "open-meteo")
        #expect(weather["units"] as? String == "metric")
        let current = try #require(weather["current"] as? [String: Any])
        for key in ["time", "temperature", "feels_like", "humidity", "pressure_hpa", "wind_speed",
                    "wind_direction_deg", "condition", "condition_group", "description", "is_day", "sunrise", "sunset"] {
            #expect(current[key] != nil, "current.\(key) is missing")
        }
        #expect(current["time"] as? String == "2026-11-22T14:15:00-05:00")
        #expect(current["temperature"] as? Double == 26.8)
        #expect(current["condition"] as? String == "mainly_clear")  // WMO 1
        #expect(current["condition_group"] as? String == "clear")
        #expect(json["language"] as? String == "en")
        #expect(current["is_day"] as? Bool == true)
        #expect(current["sunrise"] as? String == "2026-11-22T06:56:00-05:00")
        let hourly = try #require(weather["hourly"] as? [[String: Any]])
        let daily = try #require(weather["daily"] as? [[String: Any]])
        #expect(hourly.count == 12)
        #expect(daily.count == 7)
        #expect(daily.first?["date"] as? String == "2026-11-22")
    }

    @Test func nullsStayNullInJSON() async throws {
        let runner = try InProcessCommand()
        let replay = Fixtures.url("weather/open-meteo/nulls.json").path
        let result = try await runner.run(["--lat", "89.9", "--lon", "0", "--json", "--weather-replay", replay])
        #expect(result.status == 0, "\(result.stderr)")
        let current = try #require((result.json?["weather"] as? [String: Any])?["current"] as? [String: Any])
        #expect(current["visibility_m"] is NSNull)
        #expect(current["wind_gust"] is NSNull)
        #expect(current["wind_direction_deg"] is NSNull)
        #expect(current["wind_direction"] is NSNull)
        #expect(current["sunrise"] is NSNull, "polar night has no sunrise")
    }

    @Test func hourlyAndDailyTables() async throws {
        let runner = try InProcessCommand()
        let result = try await runner.run(["--lat", "27.95", "--lon", "-82.46", "--hourly", "--daily", "--weather-replay", tampaReplay])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let hourlyTitle = try #require(lines.firstIndex(of: "Next 12 hours"))
        #expect(lines[hourlyTitle + 1].hasPrefix("Time   Temp"))
        #expect(lines[hourlyTitle + 2].hasPrefix("14:00  26.7 °C"))
        let dailyTitle = try #require(lines.firstIndex(of: "Next 7 days"))
        #expect(lines[dailyTitle + 2].hasPrefix("Sun 22 Nov"))
        // Aligned: every row starts its "High" column where the header does.
        let header = Array(lines[dailyTitle + 1])
        let column = try #require(String(header).range(of: "High")).lowerBound.utf16Offset(in: String(header))
        for row in lines[(dailyTitle + 2)...(dailyTitle + 8)].map(Array.init) {
            #expect(row.count > column && row[column - 1] == " " && row[column] != " ", "misaligned: \(String(row))")
        }
    }

    @Test func unitsFlagConverts() async throws {
        let runner = try InProcessCommand()
        let result = try await runner.run(["--lat", "27.95", "--lon", "-82.46", "--units", "imperial", "--json", "--weather-replay", tampaReplay])
        let current = try #require((result.json?["weather"] as? [String: Any])?["current"] as? [String: Any])
        #expect(current["temperature"] as? Double == 80.24)  // 26.8 °C
    }

    @Test func openWeatherMapReplayWithItsPlaceName() async throws {
        let runner = try InProcessCommand()
        let replay = Fixtures.url("weather/openweathermap/weather-tampa-metric.json").path
        let result = try await runner.run(["--lat", "27.95", "--lon", "-82.46", "--provider", "openweathermap", "--weather-replay", replay])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("near Tampa, Florida, US (--lat/--lon)"), "the nearest town's form, as with every provider")
    }

    // MARK: Errors and exit codes

    @Test func zeroConfigWithoutATerminalNamesTheCommandThatGrantsTheSources() async throws {
        // No config file: the zero-config chain, not "no fixed location is configured".
        let runner = try InProcessCommand()
        let result = try await runner.run([], assembly: .withoutDaemons)
        #expect(result.status == 77)
        #expect(result.stderr.contains("Run `here-weather permissions allow "))
        #expect(result.stderr.contains(" ip` (or `deny`) once."))
        #expect(!result.stderr.contains("no fixed location"))
        #expect(result.stderr.split(separator: "\n").count == 1, "one line")
    }

    @Test func noLocationExplainsHowToConfigureOne() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("[location]\nsources = [\"fixed\"]\n")
        let result = try await runner.run([])
        #expect(result.status == 75)
        #expect(result.stderr.contains("[location.fixed]"))
        #expect(result.stderr.contains("--lat and --lon"))
        #expect(result.stderr.contains(runner.configPath))
        #expect(result.stderr.split(separator: "\n").count == 1, "one line")
    }

    @Test func errorsInJSONModeAreJSONOnStdout() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("[location]\nsources = [\"fixed\"]\n")
        let result = try await runner.run(["--json"])
        #expect(result.status == 75)
        let error = try #require(result.json?["error"] as? [String: Any])
        #expect(error["code"] as? String == "no_location")
        #expect(error["exit_status"] as? Int == 75)
        #expect((error["message"] as? String)?.contains("--lat") == true)
    }

    @Test func serviceFailureIsExit69() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": .json(503, "<html>down</html>")])
        let runner = try InProcessCommand()
        try runner.writeConfig(config(server: server))
        let result = try await runner.run(["--json"])
        #expect(result.status == 69)
        let error = try #require(result.json?["error"] as? [String: Any])
        #expect(error["code"] as? String == "service_unavailable")
        #expect((error["message"] as? String)?.contains("HTTP 503") == true)
    }

    @Test func unreachableServiceIsExit69() async throws {
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let runner = try InProcessCommand()
        try runner.writeConfig(config(baseURL: closed.baseURL))
        let result = try await runner.run([])
        #expect(result.status == 69)
        #expect(result.stderr.contains("connection refused"))
    }

    @Test func rejectedKeyIsExit78AndNeverPrinted() async throws {
        let key = "c0ffeec0ffeec0ffeec0ffeec0ffee00"
        let server = try FixtureServer(routes: [
            "/data/2.5/weather": .fixture("weather/openweathermap/error-401.json", status: 401),
            "/data/2.5/forecast": .fixture("weather/openweathermap/error-401.json", status: 401),
        ])
        let runner = try InProcessCommand()
        try runner.writeConfig(config(server: server, provider: "openweathermap"))
        for arguments in [[], ["--json"]] {
            let result = try await runner.run(arguments, environment: ["OPENWEATHERMAP_API_KEY": key])
            #expect(result.status == 78)
            #expect(!result.stdout.contains(key) && !result.stderr.contains(key))
            #expect(result.stderr.contains("rejected the API key"))
        }
        #expect(server.requests.allSatisfy { $0.contains("appid=\(key)") })
    }

    @Test func missingKeyIsExit78NamingBothWaysToSetIt() async throws {
        let runner = try InProcessCommand()
        let result = try await runner.run(["--lat", "1", "--lon", "2", "--provider", "openweathermap"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("api_key"))
        #expect(result.stderr.contains("OPENWEATHERMAP_API_KEY"))
    }

    @Test func openWeatherMapEndToEndWithTheKeyFromTheConfigFile() async throws {
        let server = try FixtureServer(routes: [
            "/data/2.5/weather": .fixture("weather/openweathermap/weather-tampa-metric.json"),
            "/data/2.5/forecast": .fixture("weather/openweathermap/forecast-tampa-metric.json"),
        ])
        let runner = try InProcessCommand()
        try runner.writeConfig(config(server: server, provider: "openweathermap").replacingOccurrences(
            of: "[weather.openweathermap]", with: "[weather.openweathermap]\napi_key = \"filekey123\""))
        let result = try await runner.run(["--daily"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Tampa (fixed location"))
        #expect(result.stdout.contains("Next "))
        #expect(server.requests.count == 2)
        #expect(server.requests.allSatisfy { $0.contains("appid=filekey123") })
    }

    @Test(arguments: [
        (["--lat", "27"], "--lat and --lon go together"),
        (["--lat", "91", "--lon", "0"], "Invalid value '91' for --lat: use a number from -90 to 90"),
        (["--lat", "0", "--lon", "-181"], "Invalid value '-181' for --lon: use a number from -180 to 180"),
        (["--units", "kelvinish"], "Invalid value 'kelvinish' for --units"),
        (["--provider", "darksky"], "Invalid value 'darksky' for --provider"),
        (["--no-such-flag"], "Unknown option"),
    ])
    func usageErrorsAreExit64(arguments: [String], message: String) async throws {
        let result = try await InProcessCommand().run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func negativeCoordinatesParseAsValues() async throws {
        let result = try await InProcessCommand().run(["--lat", "-37.81", "--lon", "144.96", "--json", "--weather-replay",
                                              Fixtures.url("weather/open-meteo/melbourne-au-metric.json").path])
        #expect(result.status == 0, "\(result.stderr)")
        let location = try #require(result.json?["location"] as? [String: Any])
        #expect(location["latitude"] as? Double == -37.81)
    }

    @Test func missingReplayFileIsExit66() async throws {
        let result = try await InProcessCommand().run(["--lat", "1", "--lon", "2", "--weather-replay", "/nonexistent/recording.json"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("/nonexistent/recording.json"))
    }

    /// A local file that is not weather data is the file's fault, not the service's: exit 66
    /// (no input), as for an unreadable recording, never 69 (service unavailable).
    @Test func undecodableReplayIsExit66() async throws {
        let result = try await InProcessCommand().run(["--lat", "1", "--lon", "2", "--weather-replay",
                                              Fixtures.url("weather/misc/truncated.json").path])
        #expect(result.status == 66)
        #expect(result.stderr.contains("not valid JSON"))
        #expect(result.stderr.hasPrefix("here-weather: The --weather-replay file is not weather data from Open-Meteo, the provider this run expected: "),
                "\(result.stderr)")
    }

    // MARK: Config

    @Test func badConfigNamesFileLineAndColumn() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("version = 1\n[weather]\nunits = \"metric\nprovider = 3\n")
        let result = try await runner.run(["--lat", "1", "--lon", "2"])
        #expect(result.status == 78)
        #expect(result.stderr.contains(runner.configPath))
        #expect(result.stderr.contains("line 3, column"))
    }

    @Test(arguments: [
        ("[location.fixed]\nlatitude = 91\nlongitude = 0", "config.toml:3: [location.fixed] latitude", "-90 to 90"),
        ("[weather]\nunits = \"kelvinish\"", "config.toml:3: [weather] units", "\"kelvinish\""),
        ("[weather]\ntimeout = \"soon\"", "config.toml:3: [weather] timeout", "seconds"),
        ("[weather.open-meteo]\nbase_url = \"api.open-meteo.com\"", "config.toml:3: [weather.open-meteo] base_url", "URL"),
    ])
    func badValuesAreExit78NamingTheKey(body: String, key: String, detail: String) async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("version = 1\n" + body + "\n")
        let result = try await runner.run(["--lat", "1", "--lon", "2", "--weather-replay", tampaReplay])
        #expect(result.status == 78)
        #expect(result.stderr.contains(key), "\(result.stderr)")
        #expect(result.stderr.contains(detail), "\(result.stderr)")
    }

    @Test func unknownKeysWarnButRun() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("version = 1\ncolour = true\n[weather]\nunits = \"metric\"\nspeed = 3\n")
        let result = try await runner.run(["--lat", "1", "--lon", "2", "--weather-replay", tampaReplay])
        #expect(result.status == 0)
        #expect(result.stderr.contains("unknown key colour"))
        #expect(result.stderr.contains("unknown key weather.speed"))
    }

    @Test func configPathFollowsTheEnvironment() async throws {
        let runner = try InProcessCommand()
        #expect(try await runner.run(["config", "path"]).stdout == runner.configPath + "\n")
        #expect(try await runner.run(["config", "path"], environment: ["XDG_CONFIG_HOME": "/tmp/xdg"]).stdout
                == "/tmp/xdg/here-weather/config.toml\n")
        #expect(try await runner.run(["config", "path"], environment: ["HERE_WEATHER_CONFIG": "/tmp/elsewhere.toml"]).stdout
                == "/tmp/elsewhere.toml\n")
    }

    @Test func configInitWritesOnceAndRefusesToOverwrite() async throws {
        let runner = try InProcessCommand()
        let first = try await runner.run(["config", "init"])
        #expect(first.status == 0, "\(first.stderr)")
        let written = try String(contentsOfFile: runner.configPath, encoding: .utf8)
        #expect(written.hasPrefix("# here-weather configuration"))
        #expect(written.contains("version = 1"))

        try runner.writeConfig(written + "\n# my own note\n")
        let second = try await runner.run(["config", "init"])
        #expect(second.status == 73)
        #expect(second.stderr.contains("--force"))
        #expect(try String(contentsOfFile: runner.configPath, encoding: .utf8).contains("# my own note"), "left alone")

        let forced = try await runner.run(["config", "init", "--force"])
        #expect(forced.status == 0)
        #expect(try String(contentsOfFile: runner.configPath, encoding: .utf8) == written)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (runner.configPath as NSString).deletingLastPathComponent)
        #expect(leftovers == ["config.toml"], "no temporary files left behind")

        // The written template is a valid config: the zero-config chain, which without a
        // terminal stops only for want of permission, naming the command that grants it.
        #expect(written.contains("# sources = [\"gpsd\", \"geoclue\", \"wifi\", \"ip\", \"fixed\"]"))
        let run = try await runner.run([], assembly: .withoutDaemons)
        #expect(run.status == 77, "\(run.stderr)")
        #expect(run.stderr.contains("`here-weather permissions allow "))
        #expect(run.stderr.split(separator: "\n").count == 1, "no warnings from the template")
    }

    @Test func configShowRedactsTheKey() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("version = 1\n[weather.openweathermap]\napi_key = \"supersecretkey42\"\n")
        let fromFile = try await runner.run(["config", "show"])
        #expect(fromFile.status == 0)
        #expect(!fromFile.stdout.contains("supersecretkey42"))
        #expect(fromFile.stdout.contains("api_key = \"[redacted]\"  # from the config file"))
        #expect(fromFile.stdout.contains("provider = \"open-meteo\""))

        let fromEnvironment = try await runner.run(["config", "show"], environment: ["OPENWEATHERMAP_API_KEY": "envsecret99"])
        #expect(!fromEnvironment.stdout.contains("envsecret99"))
        #expect(fromEnvironment.stdout.contains("from OPENWEATHERMAP_API_KEY"))
    }

    @Test func helpTeachesUsage() async throws {
        let result = try await InProcessCommand().run(["--help"])
        #expect(result.status == 0)
        for text in ["--lat", "--json", "--weather-replay", "config", "Exit status", "78"] {
            #expect(result.stdout.contains(text), "help lacks \(text)")
        }
    }
}
