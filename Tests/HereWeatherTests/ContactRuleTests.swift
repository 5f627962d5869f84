import Foundation
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore

/// The services whose terms require a contact (MET Norway, the NWS) share one rule
/// (`ContactRule`): without a contact, or with a blank one, nothing is sent to anyone, and the
/// one line says where to set it.
@Suite struct ContactRuleTests {
    @Test(arguments: [WeatherProviderKind.metNorway, .nws], [nil, "", "  "] as [String?])
    func withoutAContactNothingIsSent(kind: WeatherProviderKind, contact: String?) async throws {
        let server = try FixtureServer { _ in .notFound }
        var config = Configuration()
        config.weather.metNorway.baseURL = server.baseURL
        config.weather.metNorway.contact = contact
        config.weather.nws.baseURL = server.baseURL
        config.weather.nws.contact = contact
        let provider = Run.test(config, environment: ["HOME": "/nonexistent"], system: .test()).weatherProvider(kind)
        #expect(throws: WeatherError.self) { try provider.checkConfigured() }
        do {
            _ = try await provider.report(for: WeatherQuery(coordinate: Coordinate(latitude: 27.95, longitude: -82.46),
                                                            units: .metric, deadline: .now + .seconds(30)))
            Issue.record("expected an error")
        } catch let error as WeatherError {
            guard case .missingContact = error else { Issue.record("wrong error: \(error)"); return }
            #expect(error.exitStatus == .configuration)
            let key = kind == .nws ? ConfigKey.nwsContact : ConfigKey.metNorwayContact
            #expect(error.message.contains("\(key)"), "\(error.message)")
            #expect(error.message.contains("contact = \"you@example.org\""))
        }
        #expect(server.requests.isEmpty)
    }
}
