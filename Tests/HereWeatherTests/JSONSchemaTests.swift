import Foundation
@testable import HereWeatherCLI
import HereWeatherCore
import Testing

/// The release binary's JSON, checked against `docs/here-weather.schema.json` with
/// python3-jsonschema: every weather recording in Fixtures (replayed, and served over HTTP),
/// a cached and a stale report, alerts, `where` for each source a test can run, every error
/// class, and the `--waybar` line. The schema fixes the keys (`additionalProperties: false`),
/// so a key added, renamed or dropped in the writer fails here until the schema says so.
@Suite struct JSONSchemaTests {
    /// A replayed recording: the provider, the file under Fixtures/weather, extra arguments.
    struct Replay: Sendable, CustomTestStringConvertible {
        var provider: String
        var file: String
        var extra: [String] = []
        var testDescription: String { ([provider, file] + extra).joined(separator: " ") }
    }

    static let replays: [Replay] = [
        Replay(provider: "open-meteo", file: "open-meteo/tampa-metric.json", extra: ["--hourly", "--daily"]),
        Replay(provider: "open-meteo", file: "open-meteo/denver-imperial.json", extra: ["--units", "imperial"]),
        Replay(provider: "open-meteo", file: "open-meteo/melbourne-au-metric.json", extra: ["--units", "standard"]),
        Replay(provider: "open-meteo", file: "open-meteo/nulls.json"),
        Replay(provider: "openweathermap", file: "openweathermap/weather-tampa-metric.json"),
        Replay(provider: "openweathermap", file: "openweathermap/weather-polar.json"),
        Replay(provider: "openweathermap", file: "openweathermap/weather-rain-1h.json"),
        Replay(provider: "openweathermap", file: "openweathermap/weather-snow-3h-imperial.json", extra: ["--units", "imperial"]),
        Replay(provider: "openweathermap", file: "openweathermap/onecall-tampa-metric.json"),
        Replay(provider: "openweathermap", file: "openweathermap/onecall-2020-no-offset.json"),
        Replay(provider: "metno", file: "metno/oslo-compact.json"),
        Replay(provider: "pirateweather", file: "pirateweather/tampa-si.json"),
        Replay(provider: "pirateweather", file: "pirateweather/denver-us.json", extra: ["--units", "imperial"]),
        // Nowcasts: rain in 30 minutes and a dry horizon from each service.
        Replay(provider: "open-meteo", file: "open-meteo/tampa-rain-in-30-min.json"),
        Replay(provider: "open-meteo", file: "open-meteo/tampa-dry-nowcast.json", extra: ["--units", "imperial"]),
        Replay(provider: "pirateweather", file: "pirateweather/tampa-rain-in-30-min.json", extra: ["--units", "imperial"]),
        Replay(provider: "pirateweather", file: "pirateweather/tampa-dry-nowcast.json"),
        Replay(provider: "metno", file: "metno/oslo-compact-with-nowcast.json"),
    ]

    /// Runs `arguments` and returns stdout's one line, after checking the exit status.
    func output(_ runner: InProcessCommand, _ arguments: [String], status: Int32 = 0,
                environment: [String: String] = [:], assembly: SystemAssembly = .live) async throws -> String {
        let result = try await runner.run(arguments, environment: environment, assembly: assembly)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        #expect(result.stdout.filter { $0 == "\n" }.count == 1, "one line: \(result.stdout)")
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    func expectValid(_ documents: [String], as definition: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let problems = try await JSONSchemaCheck.problems(documents, as: definition)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))", sourceLocation: sourceLocation)
    }

    // MARK: Reports

    @Test(arguments: replays)
    func aReplayedRecordingMatchesTheSchema(_ replay: Replay) async throws {
        let arguments = ["--lat", "27.95", "--lon", "-82.46", "--provider", replay.provider, "--json",
                         "--weather-replay", Fixtures.url("weather/" + replay.file).path] + replay.extra
        try await expectValid([try await output(try InProcessCommand(), arguments)], as: "report")
    }

    /// OpenWeatherMap's classic API answers in two bodies; its recording holds both.
    @Test func aClassicOpenWeatherMapRecordingWithItsForecastMatchesTheSchema() async throws {
        let recording = FileManager.default.temporaryDirectory.appendingPathComponent("owm-\(UUID().uuidString).json")
        let body = #"{"weather":"# + String(decoding: Fixtures.data("weather/openweathermap/weather-tampa-metric.json"), as: UTF8.self)
            + #","forecast":"# + String(decoding: Fixtures.data("weather/openweathermap/forecast-tampa-metric.json"), as: UTF8.self) + "}"
        try body.write(to: recording, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: recording) }
        let line = try await output(try InProcessCommand(), ["--lat", "27.95", "--lon", "-82.46", "--provider", "openweathermap",
                                                          "--json", "--weather-replay", recording.path])
        #expect(line.contains(#""hourly_step_s":10800"#))
        try await expectValid([line], as: "report")
    }

    /// Each provider over HTTP from a fixed location: fresh, then from the cache, then stale
    /// once the service cannot be reached (a port nothing listens on; the cache key does not
    /// hold the URL); alerts where the service sends them.
    @Test(arguments: ProviderSetup.all)
    func aServedReportFreshCachedAndStaleMatchesTheSchema(_ setup: ProviderSetup) async throws {
        let server = try FixtureServer(routes: setup.routes)
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let runner = try InProcessCommand()
        // On the recordings' day: their alerts end a day or so after it.
        let assembly = SystemAssembly.test(.test(clock: TestClock(date: ProviderSetup.recordedAt)))
        try runner.writeConfig(setup.config(server.baseURL, timeout: 300))
        let fresh = try await output(runner, ["--json"], environment: setup.environment, assembly: assembly)
        let cached = try await output(runner, ["--json"], environment: setup.environment, assembly: assembly)
        try runner.writeConfig(setup.config("http://127.0.0.1:\(closed.port)", ttl: 0, timeout: 300))
        let stale = try await output(runner, ["--json"], environment: setup.environment, assembly: assembly)
        #expect(fresh.contains(#""cached":false"#) && cached.contains(#""cached":true,"age_s":"#))
        #expect(stale.contains(#""stale":true"#), "\(stale)")
        #expect(fresh.contains(#""alerts":[{"title":"#) == setup.hasAlerts, "\(fresh)")
        try await expectValid([fresh, cached, stale], as: "report")
    }

    // MARK: where

    @Test func whereForEachSourceMatchesTheSchema() async throws {
        let nmea = ["drive", "hdop-only", "simulated", "southern-eastern", "southern-western"]
        var lines: [String] = []
        for log in nmea {
            lines.append(try await output(try InProcessCommand(), ["where", "--json", "--replay", Fixtures.url("nmea/\(log).nmea").path]))
        }
        lines.append(try await output(try InProcessCommand(), ["where", "--json", "--lat", "-89.99", "--lon", "180"]))
        let fixed = try InProcessCommand()
        try fixed.writeConfig(ProviderSetup.fixedLocation)
        lines.append(try await output(fixed, ["where", "--json"]))

        let server = try FixtureServer(routes: ["/ipinfo/json": .fixture("ip/ipinfo/success.json"),
                                                "/v1/search": .fixture("geocoding/open-meteo/melbourne.json")])
        let located = try InProcessCommand()
        try located.writeConfig("""
        \(ProviderSetup.ipLocation(server.baseURL))
        [weather.open-meteo]
        geocoding_url = "\(server.baseURL)"
        """)
        lines.append(try await output(located, ["where", "--json"]))
        lines.append(try await output(located, ["where", "--json", "--city", "Melbourne, AU"]))
        #expect(lines.contains { $0.contains(#""source":"ip","service":"ipinfo.io""#) })
        #expect(lines.contains { $0.contains(#""source":"city","service":"Open-Meteo geocoding""#) })
        try await expectValid(lines, as: "where")
    }

    /// `doctor --json`, with checks that pass, fail and are skipped, and with a broken config.
    @Test func doctorMatchesTheSchema() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig(DoctorCommandTests.passFailAndSkip)
        let checked = try await output(runner, ["doctor", "--json"], status: 1)
        let broken = try InProcessCommand()
        try broken.writeConfig("version = 1\n[weather]\nunits = \"kelvinish\"\n")
        let failed = try await output(broken, ["doctor", "--json"], status: 78)
        #expect(failed.contains(#""name":"config","status":"fail""#), "\(failed)")
        try await expectValid([checked, failed], as: "doctor")
    }

    /// gpsd itself (fed NMEA by the harness): mode and simulated come from its report.
    @Test func whereFromGPSDMatchesTheSchema() async throws {
        let harness = try await GPSDHarness.started()
        defer { harness.stop() }
        let runner = try InProcessCommand(queued: false)
        try runner.writeConfig(harness.onlySourceConfig)
        harness.feed(Fixtures.url("nmea/simulated.nmea"))
        let line = try await output(runner, ["where", "--json", "--timeout", "20"])
        #expect(line.contains(#""source":"gpsd""#))
        try await expectValid([line], as: "where")
    }

    // MARK: Errors

    /// Every error class a JSON run can end with (74 and 73 never reach JSON: stdout is what
    /// failed, or the command has no --json), from the report and from `where`.
    @Test func everyErrorClassMatchesTheSchema() async throws {
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let cases: [(config: String?, arguments: [String], status: Int32)] = [
            (nil, ["--json", "--lat", "1"], 64),
            (nil, ["--json", "--no-such-option"], 64),
            (nil, ["where", "--json", "--lat", "100", "--lon", "0"], 64),
            (nil, ["--json", "--lat", "1", "--lon", "2", "--weather-replay", "/nonexistent/recording.json"], 66),
            (ProviderSetup.fixedLocation + "\n[weather.open-meteo]\nbase_url = \"http://127.0.0.1:\(closed.port)\"",
             ["--json", "--no-cache"], 69),
            ("version = 1\n[location]\nsources = [\"fixed\"]", ["where", "--json"], 75),
            ("version = 1\n[location]\nsources = [\"ip\"]\n[location.ip]\npermission = \"deny\"", ["--json"], 77),
            (ProviderSetup.fixedLocation + "\n[weather]\nprovider = \"pirateweather\"", ["--json"], 78),
            ("version = 1\n[location\n", ["where", "--json"], 78),
        ]
        var lines: [String] = []
        for (config, arguments, status) in cases {
            let runner = try InProcessCommand()
            if let config { try runner.writeConfig(config) }
            let line = try await output(runner, arguments, status: status)
            #expect(line.contains(#""exit_status":\#(status)}"#), "\(arguments): \(line)")
            lines.append(line)
        }
        try await expectValid(lines, as: "error")
    }

    // MARK: waybar

    @Test func waybarLinesMatchTheSchema() async throws {
        var lines: [String] = []
        for replay in Self.replays {
            lines.append(try await output(try InProcessCommand(), ["--lat", "27.95", "--lon", "-82.46", "--provider", replay.provider,
                                                                "--waybar", "--weather-replay", Fixtures.url("weather/" + replay.file).path]))
        }
        let setup = ProviderSetup.all[0]
        let server = try FixtureServer(routes: setup.routes)
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let runner = try InProcessCommand()
        try runner.writeConfig(setup.config(server.baseURL, ttl: 0))
        lines.append(try await output(runner, ["--waybar"]))
        try runner.writeConfig(setup.config("http://127.0.0.1:\(closed.port)", ttl: 0))
        lines.append(try await output(runner, ["--waybar"]))
        lines.append(try await output(try InProcessCommand(), ["--lat", "1", "--lon", "2", "--waybar", "--weather-replay", "/nonexistent"]))
        #expect(lines.contains { $0.contains(#""class":["clear","alert"]"#) }, "Pirate Weather's alerts")
        #expect(lines.contains { $0.contains(#""class":["clear","stale"]"#) }, "the stale report")
        #expect(lines.contains { $0.contains(#""class":["error","no_input"]"#) })
        try await expectValid(lines, as: "waybar")
    }
}
