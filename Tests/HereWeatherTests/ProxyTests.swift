import Foundation
import Testing
import HereWeatherCore

/// Proxies (issue 25 item 7): libcurl's proxy variables are honoured, but a loopback service
/// is always reached directly. Before, `ALL_PROXY` sent a loopback base URL's requests, API
/// key included, in clear text to the proxy. The proxy here is a stand-in server that records
/// what it was asked and serves the forecast for a remote name.
@Suite struct ProxyTests {
    @Test(arguments: [
        (["ALL_PROXY": "PROXY"], "LOCAL", false),
        (["http_proxy": "PROXY"], "http://localhost:PORT", false),
        (["ALL_PROXY": "PROXY", "NO_PROXY": "example.org"], "LOCAL", false),
        (["all_proxy": "PROXY", "no_proxy": "*"], "LOCAL", false),
        // A remote name still goes through the proxy (it alone can reach it here).
        (["ALL_PROXY": "PROXY"], "http://weather.example", true),
        (["http_proxy": "PROXY", "NO_PROXY": "example.org,localhost"], "http://weather.example", true),
    ])
    func aLoopbackServiceIsNeverProxied(environment: [String: String], baseURL: String, proxied: Bool) async throws {
        let forecast = FixtureServer.Response.fixture("weather/open-meteo/tampa-metric.json")
        let weather = try FixtureServer(routes: ["/v1/forecast": forecast])
        defer { weather.stop() }
        let proxy = try FixtureServer.inspecting { request in
            request.target.hasPrefix("http://weather.example/v1/forecast") ? forecast : .json(502, #"{"error":"proxied"}"#)
        }
        defer { proxy.stop() }
        let base = baseURL.replacing("LOCAL", with: weather.baseURL).replacing("PORT", with: String(weather.port))
        let runner = try CommandRunner()
        defer { try? FileManager.default.removeItem(at: runner.home) }
        try runner.writeConfig(ProviderSetup.fixedLocation + """

            [weather]
            timeout = 5
            [weather.open-meteo]
            base_url = "\(base)"
            allow_plain_http = true
            """)
        let variables = environment.mapValues { $0.replacing("PROXY", with: proxy.baseURL) }
        let result = try await runner.run(["--no-cache", "--json"], environment: variables, killAfter: .seconds(30))
        #expect(result.status == 0, "\(variables) \(base): \(result.stderr)")
        #expect(proxy.receivedRequests.count == (proxied ? 1 : 0), "\(variables) \(base): \(proxy.receivedRequests.map(\.target))")
        #expect(weather.receivedRequests.count == (proxied ? 0 : 1), "\(variables) \(base)")
    }
}
