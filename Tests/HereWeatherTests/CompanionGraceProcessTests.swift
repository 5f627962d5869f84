import Foundation
import Testing
@testable import HereWeatherCore

/// The release binary, as a status bar runs it (`--waybar`), with a companion that never
/// answers: the NWS alerts beside Open-Meteo at a US point, MeteoAlarm's warnings beside it in
/// Gospić (issue 34), MET Norway's radar nowcast in Oslo, and the air quality beside Open-Meteo.
/// The process prints the report once the grace after the weather is over
/// (`CompanionGrace`), long before the weather's 20 s deadline, and exits: the dropped
/// request holds nothing (its task group is the release build's, which the debug build can hide).
@Suite struct CompanionGraceProcessTests {
    enum Case: String, CaseIterable, Sendable {
        case alerts
        case europeanAlerts
        case nowcast
        case airQuality = "air quality"
    }

    @Test(arguments: Case.allCases)
    func aCompanionThatNeverAnswersCostsTheGraceNotTheDeadline(_ companion: Case) async throws {
        let server = try FixtureServer { target in
            if target.hasPrefix("/alerts/") || target.hasPrefix("/weatherapi/nowcast/") || target.hasPrefix("/api/v1/warnings/")
                || target.hasPrefix("/v1/air-quality") {
                return .hang
            }
            if target.hasPrefix("/v1/forecast") { return .fixture("weather/open-meteo/tampa-metric.json") }
            if target.hasPrefix("/weatherapi/locationforecast/") { return .fixture("weather/metno/oslo-compact.json") }
            return .notFound
        }
        let weather: String
        switch companion {
        case .alerts:
            weather = ProviderSetup.fixedLocation + """

                [weather]
                timeout = 20
                [weather.open-meteo]
                base_url = "\(server.baseURL)"
                [weather.nws]
                base_url = "\(server.baseURL)"
                """
        case .europeanAlerts:
            weather = ProviderSetup.fixedLocation.replacing("27.9506", with: "44.5461").replacing("-82.4572", with: "15.3747") + """

                [weather]
                timeout = 20
                [weather.open-meteo]
                base_url = "\(server.baseURL)"
                [alerts.meteoalarm]
                base_url = "\(server.baseURL)"
                """
        case .nowcast:
            weather = ProviderSetup.fixedLocation.replacing("27.9506", with: "59.9139").replacing("-82.4572", with: "10.7522") + """

                [weather]
                provider = "metno"
                timeout = 20
                [weather.metno]
                contact = "you@example.org"
                base_url = "\(server.baseURL)"
                """
        case .airQuality:
            weather = ProviderSetup.fixedLocation + """

                [weather]
                timeout = 20
                [weather.open-meteo]
                base_url = "\(server.baseURL)"
                [air_quality]
                base_url = "\(server.baseURL)"
                """
        }
        let runner = try CommandRunner()
        try runner.writeConfig(weather)
        let result = try await runner.run(["--waybar", "--verbose"], killAfter: .seconds(60))
        #expect(!result.killed)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.elapsed < .seconds(15), "ended with the grace (1.5 s), not at the 20 s deadline")
        #expect(result.json?["text"] is String, "\(result.stdout)")
        let name = companion == .europeanAlerts ? "alerts" : companion.rawValue
        let pronoun = companion == .alerts || companion == .europeanAlerts ? "them" : "it"
        #expect(result.stderr.contains("\(name): no answer within 1.5 s of the weather; shown without \(pronoun)"),
                "\(result.stderr)")
        let asked: [Case: String] = [.alerts: "/alerts/", .europeanAlerts: "/api/v1/warnings/feeds-croatia",
                                     .nowcast: "/weatherapi/nowcast/", .airQuality: "/v1/air-quality"]
        #expect(server.requests.contains { $0.hasPrefix(asked[companion] ?? "?") })
    }
}
