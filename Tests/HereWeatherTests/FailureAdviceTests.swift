import Testing
@testable import HereWeatherCore

/// Failure lines read as sentences and every piece of advice works in the state the user is
/// in: several failures are joined in one place (`Sentences`), a source the user keeps denied
/// is not a dead end, and a broken config file is not sent to a command that fails on it.
@Suite struct FailureAdviceTests {
    @Test func severalFailuresAreJoinedAsSentences() {
        let error = LocationError.allSourcesFailed([
            "gpsd is not running on localhost:2947 (connection refused). Start it, or set [location.gpsd] host and port.",
            "Location from IP lookup is denied. Run `here-weather permissions allow ip` to allow it",
            "  ",
        ])
        #expect(error.message == "No location from any source. gpsd is not running on localhost:2947 (connection refused). "
                + "Start it, or set [location.gpsd] host and port. Location from IP lookup is denied. "
                + "Run `here-weather permissions allow ip` to allow it.")
        #expect(!error.message.contains(".;"))
        #expect(LocationError.allSourcesFailed(["Only one."]).message == "Only one.")
        #expect(Sentences.join(["Why?", "Stop!", "go on"]) == "Why? Stop! go on.")
        #expect(Sentences.join([]) == "")
    }

    /// `permissions deny ip` (the README's privacy advice) on a machine without GPS must leave
    /// a way to get the weather that needs no location source.
    @Test(arguments: [
        PermissionError.denied(.ip, origin: .remembered(path: "/home/u/.local/state/here-weather/permissions.toml")),
        PermissionError.denied(.ip, origin: .configFile(path: "/home/u/.config/here-weather/config.toml")),
        PermissionError.denied(.ip, origin: .defaultValue),
        PermissionError.declined(.ip, remembered: true),
        PermissionError.declined(.ip, remembered: false),
        PermissionError.restricted(.ip, policyPath: "/etc/here-weather/policy.toml"),
        PermissionError.disabledByUser(configPath: "/home/u/.config/here-weather/config.toml"),
    ])
    func aRefusedSourceIsNeverADeadEnd(_ error: PermissionError) {
        #expect(error.message.contains("--city NAME"), "\(error.message)")
        #expect(error.message.contains("--lat and --lon"), "\(error.message)")
        #expect(error.message.contains("[location.fixed] latitude and longitude"), "\(error.message)")
        #expect(!error.message.contains(".;") && !error.message.contains(".."), "\(error.message)")
    }

    @Test func aPolicyThatTurnsLocationOffOffersWhatStillWorks() {
        let message = PermissionError.disabledByPolicy(policyPath: "/etc/here-weather/policy.toml").message
        #expect(message.contains("--city NAME or --lat and --lon"), "\(message)")
    }

    /// A syntax error once sent the user to `config show`, which fails with the same error.
    @Test(arguments: ["/home/u/.config/here-weather/config.toml", "/tmp/my config.toml"])
    func aSyntaxErrorOffersAFixThatWorksOnABrokenFile(path: String) {
        let message = ConfigError.syntax(path: path, line: 3, column: 7, detail: "expected a value").message
        #expect(!message.contains("config show"), "\(message)")
        let quoted = path.contains(" ") ? "'\(path)'" : path
        #expect(message.hasSuffix("`here-weather config init --force --config \(quoted)`."), "\(message)")
        #expect(message.contains("here-weather.toml(5)"))
    }
}

import HereWeatherHTTP

extension FailureAdviceTests {
    /// `--provider metno --weather-replay <an Open-Meteo file>` once blamed MET Norway and sent
    /// the user to its base_url: the file is local, and the fix is the --provider it came from.
    @Test func anotherProvidersRecordingBlamesTheFileNotTheService() async throws {
        let fixed = FixedLocationProvider(place: FixedPlace(coordinate: Coordinate(latitude: 59.91, longitude: 10.75)),
                                          configPath: "/dev/null", clock: ContinuousClock())
        let lookup = WeatherLookup(locationProvider: fixed, locationRequest: LocationRequest(start: .now),
                                   weatherProvider: MetNorwayWeatherProvider(baseURL: "https://api.met.no", contact: "you@example.org",
                                                                             http: CurlHTTPClient(clock: ContinuousClock()), clock: ContinuousClock()),
                                   units: .metric, weatherTimeout: 5,
                                   recording: Fixtures.data("weather/open-meteo/tampa-metric.json"), clock: ContinuousClock())
        do {
            _ = try await lookup.run()
            Issue.record("an Open-Meteo body replayed as MET Norway's gave a report")
        } catch let error as WeatherError {
            #expect(error.exitStatus == .noInput)
            #expect(error.message.hasPrefix("The --weather-replay file is not weather data from MET Norway, the provider this run expected: "),
                    "\(error.message)")
            #expect(!error.message.contains("base_url") && !error.message.contains("try again later"), "\(error.message)")
            #expect(error.message.contains("The file looks like Open-Meteo's forecast"), "\(error.message)")
            #expect(error.message.hasSuffix("Pass --provider open-meteo."), "\(error.message)")
        }
    }
}
