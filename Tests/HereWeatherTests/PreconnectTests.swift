import Foundation
import Synchronization
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore
@testable import HereWeatherHTTP

/// Issue 22 item 2: the weather host's connection is made while the location is asked for,
/// and the weather request is sent on it. In-process runs against the TLS fixture server,
/// which counts the TCP connections it accepts.
struct PreconnectTests {
    /// A gpsd that gives its fix only once the weather server has accepted `connections`
    /// connections (or after 20 s without them): the run's preconnect must come first.
    final class GPSDAfterAcceptance: LocationSourceProvider, @unchecked Sendable {
        let server: TLSFixtureServer
        let connections: Int
        private let accepted = Mutex<Int>(0)
        var source: LocationSource { .gpsd }

        init(server: TLSFixtureServer, connections: Int) {
            self.server = server
            self.connections = connections
        }

        /// Connections the server had accepted when the fix was given.
        var acceptedBeforeTheFix: Int { accepted.withLock { $0 } }

        func requestLocation(_ request: LocationRequest) async throws -> Location {
            for _ in 0..<connections where try await server.nextAcceptance(within: .seconds(20)) {
                accepted.withLock { $0 += 1 }
            }
            return Location(coordinate: Coordinate(latitude: 27.9506, longitude: -82.4572), horizontalAccuracy: 8,
                            timestamp: Date(), source: .gpsd, mode: 3)
        }
    }

    static let tampa = "version = 1\n[location]\nsources = [\"fixed\"]\n[location.fixed]\nlatitude = 27.9506\nlongitude = -82.4572\n"
    static let gpsd = "version = 1\n[location]\nsources = [\"gpsd\"]\n[location.gpsd]\npermission = \"allow\"\n"
    static let trusted = ["SSL_CERT_FILE": TLSFixtureServer.certificate]

    /// The run's system: libcurl trusting the fixture server, and `gpsd`.
    static func system(gpsd: GPSDAfterAcceptance) -> SystemAssembly {
        .test(.test(http: CurlHTTPClient(trust: CertificateTrust(bundle: TLSFixtureServer.certificate), clock: ContinuousClock()), gpsd: .standIn { _ in gpsd }))
    }

    @Test func oneConnectionServesThePreconnectAndTheRequest() async throws {
        let server = try await TLSFixtureServer.started(routes: ["/v1/forecast": "weather/open-meteo/tampa-metric.json"],
                                                        announcing: true)
        defer { server.stop() }
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.gpsd + "[weather.open-meteo]\nbase_url = \"\(server.baseURL)\"\n")
        let gpsd = GPSDAfterAcceptance(server: server, connections: 1)
        let result = try await runner.run(["--json"], killAfter: .seconds(90), assembly: Self.system(gpsd: gpsd))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(gpsd.acceptedBeforeTheFix == 1, "the weather host was connected to while the location was asked for")
        let stats = try await server.stats()
        #expect(stats.requests == 1)
        #expect(stats.connections == 1, "the request was sent on the preconnected socket, not on a second connection")
    }

    /// OpenWeatherMap's two URLs: two connections made ahead, both requests still side by side.
    @Test func openWeatherMapsTwoRequestsTakeTwoPreconnectedSockets() async throws {
        let server = try await TLSFixtureServer.started(routes: ["/data/2.5/weather": "weather/openweathermap/weather-tampa-metric.json",
                                                                 "/data/2.5/forecast": "weather/openweathermap/forecast-tampa-metric.json"],
                                                        announcing: true)
        defer { server.stop() }
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.gpsd + "[weather]\nprovider = \"openweathermap\"\n[weather.openweathermap]\n"
                               + "base_url = \"\(server.baseURL)\"\napi_key = \"preconnect-test-key\"\n")
        let gpsd = GPSDAfterAcceptance(server: server, connections: 2)
        let result = try await runner.run(["--json"], killAfter: .seconds(90), assembly: Self.system(gpsd: gpsd))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(gpsd.acceptedBeforeTheFix == 2)
        let stats = try await server.stats()
        #expect(stats.requests == 2)
        #expect(stats.connections == 2)
    }

    /// libcurl trusting the fixture server, with every preconnect it is asked for counted.
    final class CountingHTTPClient: HTTPClient {
        let base = CurlHTTPClient(trust: CertificateTrust(bundle: TLSFixtureServer.certificate), clock: ContinuousClock())
        private let asked = Mutex<(preconnects: Int, requests: Int)>((0, 0))
        var counts: (preconnects: Int, requests: Int) { asked.withLock { $0 } }

        func get(_ request: HTTPRequest) async throws -> HTTPResponse {
            asked.withLock { $0.requests += 1 }
            return try await base.get(request)
        }

        func preconnect(to url: String, connections: Int, until deadline: ContinuousClock.Instant) {
            asked.withLock { $0.preconnects += connections }
            base.preconnect(to: url, connections: connections, until: deadline)
        }
    }

    /// The server's connection count is no witness here: libcurl may drop an idle pooled
    /// connection when other tests crowd the process's one multi handle. The client's count is.
    @Test func aCacheHitMakesNoConnection() async throws {
        let server = try await TLSFixtureServer.started(routes: ["/v1/forecast": "weather/open-meteo/tampa-metric.json"])
        defer { server.stop() }
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.tampa + "[weather.open-meteo]\nbase_url = \"\(server.baseURL)\"\n")
        let http = CountingHTTPClient()
        let first = try await runner.run(["--json"], killAfter: .seconds(90), assembly: .test(.test(http: http)))
        #expect(first.status == 0, "\(first.stderr)")
        #expect(http.counts == (1, 1), "the first run connected ahead and asked")
        let second = try await runner.run(["--json"], killAfter: .seconds(90), assembly: .test(.test(http: http)))
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("\"cached\":true"), "\(second.stdout)")
        #expect(http.counts == (1, 1), "no preconnect and no request for a run the cache answered")
        #expect(try await server.stats().requests == 1)
    }

    /// A preconnect that fails (nothing listens) is silent: the run's status and message are
    /// those of a run without one (a client that does not preconnect).
    @Test func aPreconnectToADeadPortLeavesTheRunAsItWas() async throws {
        let closed = try ClosedPort()  // held for the test: no parallel test's server can take it
        let port = Int(closed.port)
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.tampa + "[weather.open-meteo]\nbase_url = \"https://127.0.0.1:\(port)\"\n")
        let withPreconnect = try await runner.run([], environment: Self.trusted, killAfter: .seconds(90))
        let without = try await runner.run([], killAfter: .seconds(90), assembly: .test(.test(http: PassingRecordingHTTPClient())))
        #expect(withPreconnect.status == 69, "\(withPreconnect.stderr)")
        #expect(withPreconnect.status == without.status)
        #expect(withPreconnect.stderr == without.stderr)
        #expect(withPreconnect.stderr.contains("connection refused by 127.0.0.1:\(port)"), "\(withPreconnect.stderr)")
        withExtendedLifetime(closed) {}
    }

    @Test func theOriginIsTheHostAndPort() {
        #expect(CurlOrigin("https://api.open-meteo.com/v1/forecast?latitude=1") == CurlOrigin("https://API.open-meteo.com:443"))
        #expect(CurlOrigin("http://example.com")?.port == 80)
        #expect(CurlOrigin("https://user:secret@127.0.0.1:8443/x")?.port == 8443)
        #expect(CurlOrigin("https://user:secret@127.0.0.1:8443/x")?.connectionURL == "http://127.0.0.1:8443/")
        #expect(CurlOrigin("https://[::1]:9000/")?.connectionURL == "http://[::1]:9000/")
        #expect(CurlOrigin("https://[::1]/")?.port == 443)
        #expect(CurlOrigin("https://example.com:0/") == nil)
        #expect(CurlOrigin("https://example.com:99999/") == nil)
        #expect(CurlOrigin("https://example.com:x/") == nil)
        #expect(CurlOrigin("ftp://example.com/") == nil)
        #expect(CurlOrigin("https:///path") == nil)
    }

    @Test func aCacheFileNameGivesItsKey() {
        let key = WeatherCacheKey(provider: .openMeteo, coordinate: Coordinate(latitude: 27.9506, longitude: -82.4572),
                                  units: .metric, coordinateDecimals: 2)
        #expect(WeatherCacheKey(fileName: key.name + ".weather") == key)
        #expect(WeatherCacheKey(fileName: key.name + ".lock") == nil)
        #expect(WeatherCacheKey(fileName: "nws-points_27.95_-82.46.json") == nil)
        #expect(WeatherCacheKey(fileName: "open-meteo_27.95_-82.46_kelvins.weather") == nil)
        #expect(WeatherCacheKey(fileName: "open-meteo_north_-82.46_metric.weather") == nil)
    }
}
