import Foundation
import Testing
@testable import HereWeatherCore
import HereWeatherHTTP

/// No redirect is followed off the configured host for a weather, alerts or geocoding
/// request: one to the same scheme, host and port is followed once; any other is an error
/// naming where it pointed, and nothing reaches that address. `--verbose` shows each request.
@Suite struct ServiceRedirectTests {
    static func moved(to location: String, status: Int = 302) -> FixtureServer.Response {
        FixtureServer.Response(status: status, headers: [("Location", location)], body: [])
    }

    static let tampa = ["--lat", "27.95", "--lon", "-82.46"]

    func openMeteo(_ baseURL: String) -> String {
        "version = 1\n[weather.open-meteo]\nbase_url = \"\(baseURL)\"\n[alerts]\nnws = false\n"
    }

    @Test func aWeatherRedirectToAnotherHostIsAnErrorAndNothingIsSentThere() async throws {
        let elsewhere = try FixtureServer(routes: ["/v1/forecast": .fixture("weather/open-meteo/tampa-metric.json")])
        let server = try FixtureServer { target in
            Self.moved(to: elsewhere.baseURL + target)
        }
        let runner = try InProcessCommand()
        try runner.writeConfig(openMeteo(server.baseURL))
        let result = try await runner.run(Self.tampa + ["--no-stale"])
        #expect(result.status == 69, "\(result.stderr)")
        let port = URL(string: elsewhere.baseURL)?.port ?? 0
        #expect(result.stderr.contains("redirected the request to http://127.0.0.1:\(port) (HTTP 302), which is not followed"),
                "\(result.stderr)")
        #expect(!result.stderr.contains("lat=27.95"), "the target's query is not quoted in the error line")
        #expect(elsewhere.requests.isEmpty, "\(elsewhere.requests)")
        #expect(server.requests.count == 1)
    }

    @Test func aRedirectOnTheSameHostIsFollowedOnceAndShown() async throws {
        let server = try FixtureServer { target in
            if target.hasPrefix("/old/v1/forecast") { return Self.moved(to: "/v1/forecast?" + (target.split(separator: "?").last ?? "")) }
            if target.hasPrefix("/v1/forecast") { return .fixture("weather/open-meteo/tampa-metric.json") }
            return .notFound
        }
        let runner = try InProcessCommand()
        try runner.writeConfig(openMeteo(server.baseURL + "/old"))
        let result = try await runner.run(Self.tampa + ["--verbose", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests.map { String($0.split(separator: "?").first ?? "") } == ["/old/v1/forecast", "/v1/forecast"])
        #expect(result.stderr.contains("GET \(server.baseURL)/old/v1/forecast?"), "\(result.stderr)")
        #expect(result.stderr.contains("GET \(server.baseURL)/v1/forecast?"), "the followed request, as sent: \(result.stderr)")
    }

    @Test func aSecondRedirectIsNotFollowed() async throws {
        let server = try FixtureServer { target in
            if target.hasPrefix("/a/") { return Self.moved(to: "/b" + target.dropFirst(2), status: 301) }
            if target.hasPrefix("/b/") { return Self.moved(to: "/c" + target.dropFirst(2), status: 307) }
            return .fixture("weather/open-meteo/tampa-metric.json")
        }
        let runner = try InProcessCommand()
        try runner.writeConfig(openMeteo(server.baseURL + "/a"))
        let result = try await runner.run(Self.tampa + ["--no-stale"])
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("redirected the request to \(server.baseURL) (HTTP 307), which is not followed"),
                "\(result.stderr)")
        #expect(!server.requests.contains { $0.hasPrefix("/c/") }, "\(server.requests)")
    }

    @Test func aGeocodingRedirectToAnotherHostIsAnError() async throws {
        let elsewhere = try FixtureServer(routes: ["/v1/search": .fixture("geocoding/open-meteo/melbourne.json")])
        let server = try FixtureServer { target in Self.moved(to: elsewhere.baseURL + target, status: 308) }
        let geocoder = OpenMeteoGeocoder(baseURL: server.baseURL, http: CurlHTTPClient())
        let provider = CitySearchLocationProvider(query: try #require(CityQuery("Melbourne")), geocoder: geocoder)
        do {
            _ = try await provider.requestLocation(LocationRequest(desiredAccuracy: .threeKilometres, timeout: .seconds(30),
                                                                   maxAge: .seconds(300)))
            Issue.record("the redirect was followed")
        } catch let error as GeocodingError {
            #expect(error.message.contains("redirected the request to \(elsewhere.baseURL) (HTTP 308)"), "\(error.message)")
        }
        #expect(elsewhere.requests.isEmpty)
    }

    @Test func anAlertsRedirectToAnotherHostCostsOnlyTheAlerts() async throws {
        let elsewhere = try FixtureServer(routes: ["/alerts/active": .fixture("weather/nws/alerts-tampa.json")])
        let server = try FixtureServer { target in
            if target.hasPrefix("/alerts/") { return Self.moved(to: elsewhere.baseURL + target) }
            return .fixture("weather/open-meteo/tampa-metric.json")
        }
        let fetcher = NWSAlertsFetcher(baseURL: server.baseURL, contact: nil, http: CurlHTTPClient())
        let body = try await fetcher.body(for: Coordinate(latitude: 27.95, longitude: -82.46), deadline: .now + .seconds(30))
        #expect(body == nil)
        #expect(elsewhere.requests.isEmpty)
        #expect(server.requests.count == 1)
    }

    @Test(arguments: [
        ("/v1/x?a=1", "https://api.example.org/v1/forecast?q", "https://api.example.org/v1/x?a=1"),
        ("x", "https://api.example.org/v1/forecast?q", "https://api.example.org/v1/x"),
        ("//other.example/y", "https://api.example.org/v1/forecast", "https://other.example/y"),
        ("HTTPS://API.example.org:443/z", "https://api.example.org/v1", "HTTPS://API.example.org:443/z"),
    ])
    func locationsResolveAgainstTheRequest(location: String, url: String, expected: String) {
        #expect(SameOriginRedirects.target(location, from: url) == expected)
    }

    @Test func theOriginIsSchemeHostAndPort() {
        typealias Origin = SameOriginRedirects.Origin
        #expect(Origin("https://API.example.org:443/z") == Origin("https://api.example.org/v1"))
        #expect(Origin("http://api.example.org/z") != Origin("https://api.example.org/z"))
        #expect(Origin("https://api.example.org:8443/z") != Origin("https://api.example.org/z"))
        #expect(Origin("https://user@evil.example/z") != Origin("https://api.example.org/z"))
        #expect(Origin("http://[::1]:8080/") == Origin("http://[::1]:8080/x"))
        #expect(SameOriginRedirects.shown(SameOriginRedirects.target("https://evil.example:444/k?appid=SECRET", from: "https://a"),
                                          location: "") == "https://evil.example:444")
    }
}
