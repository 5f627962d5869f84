import Foundation
import Testing
@testable import HereWeatherCLI
import HereWeatherCore

/// The air quality companion through the command, in-process, against a local server: the
/// line by the place's convention, JSON, the request (coordinates rounded as for the weather),
/// the cache, `enabled = false`, and each way the Air Quality API can fail (the report prints
/// without the air line, exit 0, one `--verbose` line).
@Suite struct AirQualityCommandTests {
    /// Open-Meteo's Tampa weather and `air` at `/v1/air-quality`.
    static func server(_ air: FixtureServer.Response) throws -> FixtureServer {
        try FixtureServer { target in
            if target.hasPrefix("/v1/forecast") { return .fixture("weather/open-meteo/tampa-metric.json") }
            if target.hasPrefix("/v1/air-quality") { return air }
            if target.hasPrefix("/weatherapi/locationforecast/") { return .fixture("weather/metno/oslo-compact.json") }
            return .notFound
        }
    }

    static func config(_ server: FixtureServer, location: String = ProviderSetup.fixedLocation, weather: String? = nil,
                       air: String = "") -> String {
        location + "\n" + (weather ?? "[weather]\n[weather.open-meteo]\nbase_url = \"\(server.baseURL)\"")
            + "\n[air_quality]\nbase_url = \"\(server.baseURL)\"\n" + air
    }

    static let oslo = ProviderSetup.fixedLocation(named: "Oslo").replacing("27.9506", with: "59.9139").replacing("-82.4572", with: "10.7522")

    @Test func aUSPointShowsTheUSAQIAndJSONHasBothIndexes() async throws {
        let server = try Self.server(.fixture("weather/air-quality/tampa.json"))
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config(server))
        let text = try await runner.run([])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Air quality: good (US AQI 38)"), "\(text.stdout)")
        #expect(!text.stdout.contains("Pollen"))
        let air = try #require(server.requests.first { $0.hasPrefix("/v1/air-quality") })
        #expect(air == "/v1/air-quality?latitude=27.95&longitude=-82.46&current=european_aqi,us_aqi,pm2_5,pm10,"
                + "alder_pollen,birch_pollen,grass_pollen,mugwort_pollen,olive_pollen,ragweed_pollen&timezone=auto", "\(air)")
        let json = try await runner.run(["--json"])
        let quality = try #require((json.json?["weather"] as? [String: Any])?["air_quality"] as? [String: Any], "\(json.stdout)")
        #expect(quality["european_aqi"] as? Double == 24)
        #expect(quality["us_aqi"] as? Double == 38)
        #expect(quality["pm2_5"] as? Double == 6.1)
        #expect(quality["pm10"] as? Double == 12.3)
        #expect(quality["pollen"] is NSNull)
        #expect(quality["time"] as? String == "2026-11-22T14:00:00-05:00")
    }

    @Test func aEuropeanPointShowsTheEuropeanIndexWhateverTheProvider() async throws {
        let server = try Self.server(.fixture("weather/air-quality/oslo.json"))
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config(server, location: Self.oslo, weather: """
            [weather]
            provider = "metno"
            [weather.metno]
            contact = "ops@example.org"
            base_url = "\(server.baseURL)"
            """))
        let text = try await runner.run([])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Air quality: fair (European index 31)"), "\(text.stdout)")
        #expect(!text.stdout.contains("Pollen"), "no species above low")
        #expect(server.requests.contains { $0.hasPrefix("/v1/air-quality?latitude=59.91&longitude=10.75&") }, "\(server.requests)")
    }

    @Test func theAirIsCachedWithTheReport() async throws {
        let server = try Self.server(.fixture("weather/air-quality/tampa.json"))
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config(server))
        _ = try await runner.run([])
        let asked = server.requests.count
        let cached = try await runner.run([])
        #expect(cached.stdout.contains("Air quality: good (US AQI 38)"), "\(cached.stdout)")
        #expect(cached.stdout.contains("cached"), "\(cached.stdout)")
        #expect(server.requests.count == asked, "a cache hit asks nothing: \(server.requests)")
    }

    @Test func turnedOffItSendsNothing() async throws {
        let server = try Self.server(.fixture("weather/air-quality/tampa.json"))
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config(server, air: "enabled = false\n"))
        let text = try await runner.run([])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(!text.stdout.contains("Air quality"))
        #expect(!server.requests.contains { $0.hasPrefix("/v1/air-quality") }, "\(server.requests)")
    }

    enum Failure: String, CaseIterable, Sendable {
        case serverError, errorBody, garbage, htmlPage, closed, notAnIndex
    }

    /// Each failure: the report as without air, exit 0, and one `--verbose` line saying why.
    @Test(arguments: Failure.allCases)
    func aFailingAirQualityAPICostsOnlyTheAirLine(_ failure: Failure) async throws {
        let answer: FixtureServer.Response
        switch failure {
        case .serverError: answer = .json(500, "{\"error\":true,\"reason\":\"Internal error\"}")
        case .errorBody: answer = .fixture("weather/air-quality/error-400.json", status: 400)
        case .garbage: answer = .json(200, "{\"current\":[1,2,")
        case .htmlPage: answer = .fixture("weather/misc/captive-portal.html")
        case .closed: answer = FixtureServer.Response(status: 200, body: [], behaviour: .close)
        case .notAnIndex: answer = .json(200, "{\"current\":{\"european_aqi\":\"high\",\"us_aqi\":-5}}")
        }
        let server = try Self.server(answer)
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config(server))
        let result = try await runner.run(["--verbose", "--no-cache"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Mainly clear, 26.8 °C"), "\(result.stdout)")
        #expect(!result.stdout.contains("Air quality"), "\(result.stdout)")
        let notes = result.stderr.split(separator: "\n").filter { $0.contains("air quality:") }
        #expect(notes.count == 1, "\(result.stderr)")
        #expect(notes.first?.hasSuffix("; shown without it") == true, "\(result.stderr)")
    }
}
