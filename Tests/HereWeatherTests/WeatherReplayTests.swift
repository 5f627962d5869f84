import Foundation
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore

/// `--weather-replay` (issue 35, C18): the error names the provider the run expected and what
/// the file looks like; the complete NWS recording in Fixtures replays; a cache file replays
/// as it is, its first line naming the provider and units.
@Suite struct WeatherReplayTests {
    static let tampa = ["--lat", "27.95", "--lon", "-82.46"]

    @Test func anotherProvidersFileNamesTheExpectedProviderAndTheFilesShape() async throws {
        let runner = try InProcessCommand()
        let nws = Fixtures.url("weather/nws/tampa-recording.json").path
        let result = try await runner.run(Self.tampa + ["--provider", "metno", "--weather-replay", nws])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr.contains("not weather data from MET Norway, the provider this run expected"), "\(result.stderr)")
        #expect(result.stderr.contains("The file looks like NWS's recording (a JSON object with the keys alerts, fetched_at, forecast, forecast_hourly, observation and 1 more)."),
                "\(result.stderr)")
        #expect(result.stderr.contains("Pass --provider nws."), "\(result.stderr)")

        let openMeteo = Fixtures.url("weather/open-meteo/tampa-metric.json").path
        let other = try await runner.run(Self.tampa + ["--provider", "nws", "--weather-replay", openMeteo])
        #expect(other.stderr.contains("The file looks like Open-Meteo's forecast"), "\(other.stderr)")
        #expect(other.stderr.contains("Pass --provider open-meteo."), "\(other.stderr)")

        let html = Fixtures.url("weather/misc/captive-portal.html").path
        let page = try await runner.run(Self.tampa + ["--weather-replay", html])
        #expect(page.stderr.contains("The file looks like HTML or XML, not JSON."), "\(page.stderr)")
        #expect(page.stderr.contains("Pass the --provider it was recorded from"), "\(page.stderr)")
    }

    @Test func theCompleteNWSRecordingReplays() async throws {
        let nws = Fixtures.url("weather/nws/tampa-recording.json").path
        let result = try await InProcessCommand().run(Self.tampa + ["--provider", "nws", "--json", "--weather-replay", nws])
        #expect(result.status == 0, "\(result.stderr)")
        let weather = try #require(result.json?["weather"] as? [String: Any], "\(result.stdout)")
        #expect(weather["provider"] as? String == "nws")
        #expect(weather["replayed"] as? Bool == true)
        #expect((weather["alerts"] as? [Any])?.count == 1, "\(weather)")
    }

    /// docs/weather.md: a cache file is read as it is; its first line names the provider and
    /// units, which need not be given again.
    @Test func aCacheFileReplaysAsItIs() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": CacheCommandTests.forecast])
        let runner = try InProcessCommand()
        try runner.writeConfig(CacheCommandTests().config(baseURL: server.baseURL, ttl: 3600))
        let live = try await runner.run(Self.tampa + ["--json"])
        #expect(live.status == 0, "\(live.stderr)")
        let folder = runner.home.appendingPathComponent(".cache/here-weather")
        let entry = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".weather") })
        try runner.writeConfig("[weather]\nprovider = \"nws\"\nunits = \"imperial\"\n")
        let replay = try await runner.run(Self.tampa + ["--json", "--weather-replay", folder.appendingPathComponent(entry).path])
        #expect(replay.status == 0, "\(replay.stderr)")
        let weather = try #require(replay.json?["weather"] as? [String: Any], "\(replay.stdout)")
        #expect(weather["provider"] as? String == "open-meteo")
        #expect(weather["units"] as? String == "metric")
        #expect(weather["replayed"] as? Bool == true)
    }

    /// A cache entry is the provider's body wrapped by its companions (the air quality here):
    /// replayed as another provider's, the error still names whose it is, and what it holds.
    @Test func aWrappedCacheFileReplayedAsAnotherProvidersNamesItsOwn() async throws {
        let server = try AirQualityCommandTests.server(.fixture("weather/air-quality/tampa.json"))
        let runner = try InProcessCommand()
        try runner.writeConfig(AirQualityCommandTests.config(server))
        let live = try await runner.run(["--json"])
        #expect(live.status == 0, "\(live.stderr)")
        let folder = runner.home.appendingPathComponent(".cache/here-weather")
        let entry = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".weather") })
        let path = folder.appendingPathComponent(entry).path
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains(#""here_weather":"air-quality""#))
        let replay = try await runner.run(Self.tampa + ["--provider", "metno", "--weather-replay", path])
        #expect(replay.status == 66, "\(replay.stderr)")
        #expect(replay.stderr.contains("The file looks like Open-Meteo's forecast with the air quality (a JSON object with the keys air_quality, here_weather, report)."),
                "\(replay.stderr)")
        #expect(replay.stderr.contains("Pass --provider open-meteo."), "\(replay.stderr)")
    }

    /// Companions wrap one around the other: each is named, innermost first.
    @Test func nestedWrappersAreNamedInnermostFirst() throws {
        let body = try Data(contentsOf: Fixtures.url("weather/open-meteo/tampa-metric.json"))
        let warned = RegionalAlertsWeatherProvider.recording.wrap(body, body: nil)
        let aired = AirQualityWeatherProvider.recording.wrap(warned, body: Data("{}".utf8))
        let shape = WeatherRecordingShape(aired)
        #expect(shape.provider == .openMeteo)
        #expect(shape.words?.hasPrefix("Open-Meteo's forecast with official warnings and the air quality") == true, "\(shape.words ?? "")")
        let unknown = WeatherRecordingShape(Data(#"{"here_weather":"future-thing","report":"{}"}"#.utf8))
        #expect(unknown.provider == nil)
    }
}
