import Foundation
import Synchronization
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore

/// The composition root: a run makes every provider from the one system its context
/// assembles (`CommandContext.assembly`), so a test's system replaces the machine's parts.
struct RunSystemTests {
    /// A gpsd that answers with one fix at once.
    struct ScriptedGPSD: LocationSourceProvider {
        var source: LocationSource { .gpsd }
        func requestLocation(_ request: LocationRequest) async throws -> Location {
            Location(coordinate: Coordinate(latitude: 59.9139, longitude: 10.7522), horizontalAccuracy: 8,
                     timestamp: Date(), source: .gpsd, mode: 3)
        }
    }

    static let console = Console(sink: CapturedOutput(), charset: .utf8, isTerminal: false)

    static let gpsdConfig = """
        version = 1
        [location]
        sources = ["gpsd"]
        [location.gpsd]
        host = "gps.example"
        port = 3000
        permission = "allow"
        """

    @Test func whereTakesTheGPSDAdapterFromTheContext() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.gpsdConfig)
        let made = Mutex<[String]>([])
        let system = RunSystem.test(gpsd: .standIn { settings in
            made.withLock { $0.append("\(settings.host):\(settings.port)") }
            return ScriptedGPSD()
        })
        let result = try await runner.run(["where", "--json"], assembly: .test(system))
        #expect(result.status == 0, "\(result.stderr)")
        let location = try #require(result.json?["location"] as? [String: Any], "\(result.stdout)")
        #expect(location["latitude"] as? Double == 59.9139)
        #expect(location["source"] as? String == "gpsd")
        #expect(made.withLock { $0 } == ["gps.example:3000"], "made once, from [location.gpsd]")
    }

    @Test func doctorProbesTheSourcesOfTheSystem() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.gpsdConfig + "\n[weather.open-meteo]\nbase_url = \"http://127.0.0.1:1\"\n")
        let result = try await runner.run(["doctor", "--json"], assembly: .test(.test(gpsd: .standIn { _ in ScriptedGPSD() })))
        let checks = try #require(result.json?["checks"] as? [[String: Any]], "\(result.stdout)")
        let gpsd = try #require(checks.first { $0["name"] as? String == "gpsd" })
        #expect(gpsd["status"] as? String == "ok", "\(gpsd)")
        #expect((gpsd["detail"] as? String)?.contains("59.91") == true, "\(gpsd)")
    }

    /// `--city` asks the geocoder, then the weather service: both through the run's one client.
    @Test func aCityReportMakesEveryRequestThroughTheRunsOneHTTPClient() async throws {
        let server = try FixtureServer(routes: [
            "/v1/search": .fixture("geocoding/open-meteo/melbourne.json"),
            "/v1/forecast": .fixture("weather/open-meteo/tampa-metric.json"),
        ])
        let runner = try InProcessCommand()
        try runner.writeConfig("""
            version = 1
            [weather.open-meteo]
            base_url = "\(server.baseURL)"
            geocoding_url = "\(server.baseURL)"
            """)
        let http = PassingRecordingHTTPClient()
        let result = try await runner.run(["--city", "Melbourne, AU", "--json"], assembly: .test(.test(http: http)))
        #expect(result.status == 0, "\(result.stderr)")
        let paths = http.urls.map { $0.replacing(server.baseURL, with: "").prefix { $0 != "?" } }
        #expect(paths == ["/v1/search", "/v1/forecast"])
    }

    @Test func theLiveAssemblyRefusesACABundleThatCannotBeRead() throws {
        #expect(throws: (any Error).self) {
            _ = try SystemAssembly.live.assemble(["CURL_CA_BUNDLE": "/nonexistent/ca.pem"], Self.console)
        }
        let system = try SystemAssembly.live.assemble([:], Self.console)
        #expect(system.clock is ContinuousClock)
    }
}
