import Foundation
import Testing
@testable import HereWeatherCore
import HereWeatherHTTP

/// One classifier for every web service (issue 14): a weather service, a geocoder and an IP
/// service given the same answer read the same words from it and end the same way when
/// cancelled. Real providers, the real HTTP client, a real local server.
@Suite struct ServiceAnswerTests {
    static let secret = "s3cretTOKENabc123"

    /// ipinfo-style words (`error.title` and `error.message`), over two lines, with the token.
    static let body = #"{"error": {"title": "Maintenance", "message": "back at 10:00\n(UTC) for s3cretTOKENabc123."}}"#
    static let words = "Maintenance: back at 10:00 (UTC) for [redacted]"

    @Test func everyKindOfServiceQuotesTheSameWordsFromAnErrorBody() async throws {
        let server = try FixtureServer { _ in .json(503, Self.body) }
        defer { server.stop() }
        let http = CurlHTTPClient(clock: ContinuousClock())

        let weather = PirateWeatherWeatherProvider(baseURL: server.baseURL, apiKey: Self.secret, http: http, clock: ContinuousClock())
        let query = WeatherQuery(coordinate: Coordinate(latitude: 27.95, longitude: -82.46), units: .metric,
                                 deadline: .now + .seconds(30))
        do {
            _ = try await weather.fetch(query)
            Issue.record("expected the service's failure")
        } catch WeatherError.service(let service, .serviceFailed(let status, let detail)) {
            #expect(service == .pirateWeather && status == 503 && detail == Self.words)
        }

        let geocoder = OpenWeatherMapGeocoder(baseURL: server.baseURL, apiKey: Self.secret, http: http)
        await #expect(throws: GeocodingError.service(.openWeatherMap, .serviceFailed(status: 503, detail: Self.words))) {
            _ = try await geocoder.search(try #require(CityQuery("Tampa")), deadline: .now + .seconds(30))
        }

        let ip = IPLocationProvider(settings: Self.ipSettings(.ipinfo, baseURL: server.baseURL, token: Self.secret), http: http, clock: ContinuousClock())
        await #expect(throws: LocationError.ipLookupFailed(reasons: ["ipinfo.io: server error (HTTP 503): " + Self.words])) {
            _ = try await ip.requestLocation(LocationRequest(desiredAccuracy: .threeKilometres, timeout: .seconds(30), start: .now))
        }
    }

    /// A request cancelled in flight is cancellation for each of them, not "cannot reach".
    @Test func aCancelledRequestIsCancellationForEveryKindOfService() async throws {
        let server = try FixtureServer { _ in .hang }
        defer { server.stop() }
        let http = CurlHTTPClient(clock: ContinuousClock())
        let deadline = ContinuousClock.now + .seconds(60)
        let settings = Self.ipSettings(.ipwhois, baseURL: server.baseURL)
        let requests: [@Sendable () async throws -> Void] = [
            { _ = try await OpenMeteoWeatherProvider(baseURL: server.baseURL, http: http, clock: ContinuousClock())
                .fetch(WeatherQuery(coordinate: Coordinate(latitude: 1, longitude: 2), units: .metric, deadline: deadline)) },
            { _ = try await OpenMeteoGeocoder(baseURL: server.baseURL, http: http)
                .search(CityQuery("Tampa")!, deadline: deadline) },
            { _ = try await IPLocationProvider(settings: settings, http: http, clock: ContinuousClock())
                .requestLocation(LocationRequest(desiredAccuracy: .threeKilometres, timeout: .seconds(60), start: .now)) },
        ]
        for (index, request) in requests.enumerated() {
            let task = Task { try await request() }
            while server.requests.count <= index { try await Task.sleep(for: .milliseconds(20)) }
            task.cancel()
            await #expect(throws: CancellationError.self, "request \(index)") { try await task.value }
        }
    }

    static func ipSettings(_ service: IPService, baseURL: String, token: String? = nil) -> IPSettings {
        var settings = IPSettings()
        settings.services = [service]
        settings.settings[service] = IPServiceSettings(service, baseURL: baseURL, token: token)
        return settings
    }
}
