import Foundation
import Testing
@testable import HereWeatherCLI
import HereWeatherCore

/// `doctor` asks what reports ask beside the weather: the air quality (`[air_quality]`) and,
/// outside the US, the warnings source for the location's country (MET Norway, DWD,
/// MeteoAlarm), in-process against a local server. A failing air quality is a warning (it
/// costs a report only its air line); a failing warnings source fails the check, as the NWS's
/// alerts do. Nothing is asked that reports would not ask.
@Suite struct DoctorCompanionTests {
    /// The warnings services and Open-Meteo of RegionalAlertsCommandTests, and the air quality.
    static func server(air: FixtureServer.Response = .fixture("weather/air-quality/oslo.json"),
                       dwd: FixtureServer.Response? = nil) throws -> FixtureServer {
        try RegionalAlertsCommandTests.server { target in
            if target.hasPrefix("/v1/air-quality") { return air }
            if target.hasPrefix("/geoserver/"), let dwd { return dwd }
            return nil
        }
    }

    func doctor(_ server: FixtureServer, at point: (Double, Double), air: String = "") async throws -> (status: Int32, checks: [String]) {
        let runner = try InProcessCommand()
        try runner.writeConfig(RegionalAlertsCommandTests.config(server, at: point)
                               + "\n[air_quality]\nbase_url = \"\(server.baseURL)\"\n" + air)
        let result = try await runner.run(["doctor"], environment: ["COLUMNS": "400"],
                                          assembly: .test(.test(clock: RegionalAlertsCommandTests.clock)))
        return (result.status, DoctorCommandTests.checks(result.stdout))
    }

    @Test func norwayAsksMETsWarningsAndTheAirQuality() async throws {
        let server = try Self.server()
        let (status, checks) = try await doctor(server, at: RegionalAlertsCommandTests.bergen)
        #expect(status == 0, "\(checks)")
        let alerts = try #require(checks.first { $0.hasPrefix("alerts-metno") }, "\(checks)")
        #expect(alerts.contains("OK") && alerts.contains("MET Norway answered for 60.3913°N, 5.3221°E:")
                && alerts.contains("warnings in force there"), "\(alerts)")
        let air = try #require(checks.first { $0.hasPrefix("air-quality") }, "\(checks)")
        #expect(air.contains("OK") && air.contains("Open-Meteo's Air Quality API answered for 60.3913°N, 5.3221°E: European AQI"), "\(air)")
        #expect(server.requests.contains { $0.hasPrefix("/weatherapi/metalerts/2.0/current.json") && $0.contains("lat=60.39") })
        #expect(!server.requests.contains { $0.hasPrefix("/geoserver/") || $0.hasPrefix("/api/v1/warnings") }, "only Norway's source")
    }

    @Test func aFailingWarningsSourceFailsAndSaysHowToStopAsking() async throws {
        let server = try Self.server(dwd: .json(503, #"{"error":"busy"}"#))
        let (status, checks) = try await doctor(server, at: RegionalAlertsCommandTests.munich)
        #expect(status == 1, "\(checks)")
        let alerts = try #require(checks.first { $0.hasPrefix("alerts-dwd") }, "\(checks)")
        #expect(alerts.contains("FAIL") && alerts.contains("The DWD warnings request failed:")
                && alerts.contains("check [alerts.dwd] base_url, or set [alerts] dwd = false to stop asking"), "\(alerts)")
    }

    @Test func aFailingAirQualityIsAWarning() async throws {
        let server = try Self.server(air: .fixture("weather/air-quality/error-400.json", status: 400))
        let (status, checks) = try await doctor(server, at: RegionalAlertsCommandTests.hamburg)
        #expect(status == 0, "a warning is not a failure: \(checks)")
        let air = try #require(checks.first { $0.hasPrefix("air-quality") }, "\(checks)")
        #expect(air.contains("WARN") && air.contains("The air quality request failed: the service answered HTTP 400.")
                && air.contains("set [air_quality] enabled = false to stop asking"), "\(air)")
        #expect(checks.contains { $0.hasPrefix("alerts-dwd") && $0.contains("OK") && $0.contains("no warnings in force there") },
                "\(checks)")
    }

    @Test func nothingIsAskedThatReportsWouldNotAsk() async throws {
        let server = try Self.server()
        let (_, us) = try await doctor(server, at: RegionalAlertsCommandTests.tampa, air: "enabled = false\n")
        #expect(!us.contains { $0.hasPrefix("alerts-") || $0.hasPrefix("air-quality") }, "\(us)")
        #expect(!server.requests.contains { $0.hasPrefix("/v1/air-quality") || RegionalAlertsCommandTests.isAlertsRequest($0) && !$0.hasPrefix("/alerts/") },
                "\(server.requests)")
    }
}
