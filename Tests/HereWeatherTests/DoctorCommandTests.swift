import Foundation
import Testing

/// `here-weather doctor` with the built binary.
@Suite struct DoctorCommandTests {
    @Test func reportsEachSourceAndTheServiceWithoutProbingUnpermittedOnes() async throws {
        let server = try FixtureServer(routes: [
            "/v1/forecast": .fixture("weather/open-meteo/tampa-metric.json"),
            "/ipinfo/json": .fixture("ip/ipinfo/success.json"),
        ])
        let runner = try InProcessCommand()
        try runner.writeConfig("""
            version = 1
            [location]
            sources = ["gpsd", "ip", "fixed"]
            [location.gpsd]
            permission = "allow"
            host = "127.0.0.1"
            port = 1
            [location.ip]
            services = ["ipinfo"]
            [location.ip.ipinfo]
            base_url = "\(server.baseURL)/ipinfo"
            [location.fixed]
            latitude = 27.9506
            longitude = -82.4572
            name = "Tampa"
            [weather.open-meteo]
            base_url = "\(server.baseURL)"
            """)
        let result = try await runner.run(["doctor"])
        #expect(result.status == 1, "gpsd fails")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("config") && $0.contains("OK") })
        #expect(lines.contains { $0.hasPrefix("gpsd") && $0.contains("FAIL") && $0.contains("gpsd is not running") })
        #expect(lines.contains { $0.hasPrefix("ip") && $0.contains("SKIP") && $0.contains("permissions allow ip") })
        #expect(lines.contains { $0.hasPrefix("fixed") && $0.contains("OK") && $0.contains("fixed: Tampa") })
        #expect(lines.contains { $0.hasPrefix("open-meteo") && $0.contains("OK") && $0.contains("26.8 °C") })
        #expect(server.requests.allSatisfy { !$0.hasPrefix("/ipinfo") }, "the unpermitted IP service saw nothing")
        #expect(server.requests.contains { $0.hasPrefix("/v1/forecast?latitude=27.95&longitude=-82.46") })
    }

    @Test func aBrokenConfigIsExit78() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("version = 1\n[weather]\nunits = \"kelvinish\"\n")
        let result = try await runner.run(["doctor"])
        #expect(result.status == 78)
        #expect(result.stdout.contains("weather.units"))
    }
}
