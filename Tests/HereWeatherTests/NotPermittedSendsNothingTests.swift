import Foundation
import Testing

/// Nothing leaves the machine for a source that is not permitted: a local server stands in
/// for the IP service and must see no request, whichever command runs. (`LocationFlowTests`
/// covers `where` with a denied, an undecided and a switched-off source.)
@Suite struct NotPermittedSendsNothingTests {
    enum Refusal: String, Sendable, CaseIterable {
        case restrictedByPolicy = "restricted by the system policy"
        case switchedOffByPolicy = "switched off by the system policy"
        case denied = "denied in the config"
        case undecided = "undecided, no terminal"
        case switchedOff = "switched off in the config"
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let refusal: Refusal
        let command: [String]
        var testDescription: String { "\(refusal.rawValue): here-weather \(command.joined(separator: " "))" }
    }

    static let cases: [Case] =
        [Refusal.restrictedByPolicy, .switchedOffByPolicy].flatMap { refusal in
            [[], ["where"], ["doctor"]].map { Case(refusal: refusal, command: $0) }
        }
        + [Refusal.denied, .undecided, .switchedOff].flatMap { refusal in
            [[], ["doctor"], ["--source", "ip"]].map { Case(refusal: refusal, command: $0) }
        }

    @Test(arguments: cases)
    func theIPServiceSeesNoRequest(_ refused: Case) async throws {
        let server = try FixtureServer(routes: [
            "/ipinfo/json": .fixture("ip/ipinfo/success.json"),
            "/v1/forecast": .fixture("weather/open-meteo/tampa-metric.json"),
        ])
        let runner = try InProcessCommand()
        let permission = refused.refusal == .denied ? "permission = \"deny\"" : refused.refusal == .undecided ? "" : "permission = \"allow\""
        try runner.writeConfig("""
            version = 1
            [location]
            sources = ["ip"]
            \(refused.refusal == .switchedOff ? "enabled = false" : "")
            [location.ip]
            \(permission)
            services = ["ipinfo"]
            [location.ip.ipinfo]
            base_url = "\(server.baseURL)/ipinfo"
            [weather.open-meteo]
            base_url = "\(server.baseURL)"
            """)
        let policy = runner.home.appendingPathComponent("policy.toml").path
        switch refused.refusal {
        case .restrictedByPolicy: try "[location.ip]\npermission = \"restricted\"\n".write(toFile: policy, atomically: true, encoding: .utf8)
        case .switchedOffByPolicy: try "[location]\nenabled = false\n".write(toFile: policy, atomically: true, encoding: .utf8)
        default: break
        }
        let result = try await runner.run(refused.command, environment: ["HERE_WEATHER_SYSTEM_POLICY": policy], asRoot: true)
        if refused.command.first == "doctor" {
            #expect(result.stdout.contains { _ in true }, "doctor reported")
        } else {
            #expect(result.status == 77, "\(result.stderr)")
        }
        #expect(!server.requests.contains { $0.hasPrefix("/ipinfo") }, "the IP service saw \(server.requests)")
    }
}
