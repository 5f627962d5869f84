import Foundation
import Testing
@testable import HereWeatherCore
import HereWeatherHTTP

/// Coordinate precision sent to services, `--verbose` redaction, and the remembered last location.
@Suite struct PrivacyAndMemoryTests {
    // MARK: Privacy

    @Test func coordinateDecimalsLimitWhatServicesAreSent() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": .fixture("weather/open-meteo/tampa-metric.json")])
        let provider = OpenMeteoWeatherProvider(baseURL: server.baseURL, http: CurlHTTPClient(clock: ContinuousClock()), coordinateDecimals: 1, clock: ContinuousClock())
        _ = try await provider.report(for: WeatherQuery(coordinate: Coordinate(latitude: 27.950612, longitude: -82.457178),
                                                        units: .metric, deadline: .now + .seconds(5)))
        #expect(server.requests.first?.contains("latitude=28&longitude=-82.5") == true, "\(server.requests)")
    }

    @Test func verboseRedactsKeysInQueriesAndAnywhereElse() {
        let client = LoggingHTTPClient(base: CurlHTTPClient(clock: ContinuousClock()), secrets: ["s3cr3t-token"]) { _ in }
        let shown = client.redact("https://api.openweathermap.org/data/2.5/weather?lat=1&lon=2&appid=abcdef123&units=metric")
        #expect(shown == "https://api.openweathermap.org/data/2.5/weather?lat=1&lon=2&appid=[redacted]&units=metric")
        #expect(client.redact("https://ipinfo.io/json?token=s3cr3t-token") == "https://ipinfo.io/json?token=[redacted]")
        #expect(!client.redact("https://x.example/s3cr3t-token/json").contains("s3cr3t-token"))
    }

    @Test func verboseShowsEachRequestAsSentWithoutTheKey() async throws {
        let key = "0badc0de0badc0de0badc0de0badc0de"
        let server = try FixtureServer(routes: [
            "/data/2.5/weather": .fixture("weather/openweathermap/weather-tampa-metric.json"),
            "/data/2.5/forecast": .fixture("weather/openweathermap/forecast-tampa-metric.json"),
        ])
        let runner = try InProcessCommand()
        try runner.writeConfig("""
            version = 1
            [weather]
            provider = "openweathermap"
            [weather.openweathermap]
            base_url = "\(server.baseURL)"
            api_key = "\(key)"
            """)
        let result = try await runner.run(["--lat", "27.950612", "--lon", "-82.457178", "--verbose"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("GET \(server.baseURL)/data/2.5/weather?lat=27.95&lon=-82.46&units=metric&appid=[redacted]"))
        #expect(result.stderr.contains("-> HTTP 200"))
        #expect(!result.stderr.contains(key) && !result.stdout.contains(key))
    }

    // MARK: Last good location

    func store() -> LastLocationStore {
        LastLocationStore(path: FileManager.default.temporaryDirectory
            .appendingPathComponent("last-\(UUID().uuidString)/last-location.json").path)
    }

    func gpsFix(age: TimeInterval, accuracy: Double = 8) -> Location {
        Location(coordinate: Coordinate(latitude: 27.95, longitude: -82.46), horizontalAccuracy: accuracy,
                 timestamp: Date().addingTimeInterval(-age), source: .gpsd, altitude: 12, mode: 3)
    }

    /// A source that must not be asked.
    struct MustNotRun: LocationProvider {
        var source: LocationSource { .gpsd }
        func requestLocation(_ request: LocationRequest) async throws -> Location {
            throw LocationError.gpsdNotRunning(address: "asked anyway")
        }
    }

    @Test func savesAndLoadsEveryField() throws {
        let store = store()
        var fix = gpsFix(age: 3)
        fix.name = "Tampa"
        fix.service = nil
        store.save(fix)
        let loaded = try #require(store.load())
        #expect(loaded.coordinate == fix.coordinate)
        #expect(loaded.horizontalAccuracy == 8)
        #expect(abs(loaded.timestamp.timeIntervalSince(fix.timestamp)) < 0.001)
        #expect(loaded.source == .gpsd)
        #expect(loaded.altitude == 12)
        #expect(loaded.mode == 3)
        #expect(loaded.name == "Tampa")
    }

    @Test func aCorruptFileIsNoMemory() throws {
        let store = store()
        store.save(gpsFix(age: 1))
        try "{not json".write(toFile: store.path, atomically: true, encoding: .utf8)
        #expect(store.load() == nil)
    }

    @Test func aFreshAccurateMemoryAnswersWithoutAskingTheSource() async throws {
        let store = store()
        store.save(gpsFix(age: 30))
        let provider = RememberingLocationProvider(base: MustNotRun(), store: store, sources: [.gpsd],
                                                   authorizer: AllowAllAuthorizer(), clock: ContinuousClock())
        let fix = try await provider.requestLocation(LocationRequest(maxAge: .seconds(300), start: .now))
        #expect(fix.source == .gpsd)
    }

    struct MemoryCase: Sendable, CustomTestStringConvertible {
        let why: String
        let age: Double
        let accuracy: DesiredAccuracy
        let sources: Set<LocationSource>
        var testDescription: String { why }
    }

    @Test(arguments: [
        MemoryCase(why: "too old", age: 400, accuracy: .threeKilometres, sources: [.gpsd]),
        MemoryCase(why: "not accurate enough", age: 30, accuracy: .within(metres: 5), sources: [.gpsd]),
        MemoryCase(why: "best always asks", age: 30, accuracy: .best, sources: [.gpsd]),
        MemoryCase(why: "source not in this run", age: 30, accuracy: .threeKilometres, sources: [.ip]),
    ])
    func memoryIsNotUsedWhen(_ memoryCase: MemoryCase) async throws {
        let store = store()
        store.save(gpsFix(age: memoryCase.age))
        let asked = Location(coordinate: Coordinate(latitude: 40.0, longitude: -105.0), horizontalAccuracy: 3,
                             timestamp: Date(), source: .gpsd)
        let provider = RememberingLocationProvider(base: Answers(fix: asked), store: store, sources: memoryCase.sources,
                                                   authorizer: AllowAllAuthorizer(), clock: ContinuousClock())
        let fix = try await provider.requestLocation(LocationRequest(desiredAccuracy: memoryCase.accuracy, maxAge: .seconds(300), start: .now))
        #expect(fix.coordinate == asked.coordinate, "\(memoryCase.why): the source was asked")
    }

    /// A source that answers with `fix`.
    struct Answers: LocationProvider {
        let fix: Location
        var source: LocationSource { .gpsd }
        func requestLocation(_ request: LocationRequest) async throws -> Location { fix }
    }

    @Test(arguments: [DesiredAccuracy.within(metres: 5), .best])
    func whenEverySourceFailsARememberedFixWithinMaxAgeStandsIn(accuracy: DesiredAccuracy) async throws {
        let store = store()
        store.save(gpsFix(age: 30))
        let provider = RememberingLocationProvider(base: MustNotRun(), store: store, sources: [.gpsd],
                                                   authorizer: AllowAllAuthorizer(), clock: ContinuousClock())
        let fix = try await provider.requestLocation(LocationRequest(desiredAccuracy: accuracy, maxAge: .seconds(300), start: .now))
        #expect(fix.coordinate == Coordinate(latitude: 27.95, longitude: -82.46))
        #expect(!fix.meetsDesiredAccuracy, "marked as the best to be had, not as meeting \(accuracy)")
    }

    @Test(arguments: [
        MemoryCase(why: "too old", age: 400, accuracy: .threeKilometres, sources: [.gpsd]),
        MemoryCase(why: "source not in this run", age: 30, accuracy: .within(metres: 5), sources: [.ip]),
    ])
    func noFallbackToMemoryWhen(_ memoryCase: MemoryCase) async throws {
        let store = store()
        store.save(gpsFix(age: memoryCase.age))
        let provider = RememberingLocationProvider(base: MustNotRun(), store: store, sources: memoryCase.sources,
                                                   authorizer: AllowAllAuthorizer(), clock: ContinuousClock())
        await #expect(throws: LocationError.self, "\(memoryCase.why)") {
            try await provider.requestLocation(LocationRequest(desiredAccuracy: memoryCase.accuracy, maxAge: .seconds(300), start: .now))
        }
    }

    @Test func noFallbackToMemoryWithMaxAgeOffOrWhenTheSourceIsRefused() async throws {
        let store = store()
        store.save(gpsFix(age: 30))
        let offProvider = RememberingLocationProvider(base: MustNotRun(), store: store, sources: [.gpsd],
                                                      authorizer: AllowAllAuthorizer(), clock: ContinuousClock())
        await #expect(throws: LocationError.self) {
            try await offProvider.requestLocation(LocationRequest(desiredAccuracy: .within(metres: 5), maxAge: nil, start: .now))
        }
        struct Refuses: LocationAuthorizer {
            func authorize(_ sources: [LocationSource]) async -> [PermissionError?] { sources.map { _ in .needsDecision(sources) } }
        }
        let refused = RememberingLocationProvider(base: MustNotRun(), store: store, sources: [.gpsd], authorizer: Refuses(), clock: ContinuousClock())
        await #expect(throws: LocationError.self) {
            try await refused.requestLocation(LocationRequest(desiredAccuracy: .within(metres: 5), maxAge: .seconds(300), start: .now))
        }
    }

    @Test func aNewFixIsRemembered() async throws {
        let store = store()
        let fresh = gpsFix(age: 0, accuracy: 4)
        let provider = RememberingLocationProvider(base: Answers(fix: fresh), store: store, sources: [.gpsd],
                                                   authorizer: AllowAllAuthorizer(), clock: ContinuousClock())
        _ = try await provider.requestLocation(LocationRequest(start: .now))
        #expect(store.load()?.horizontalAccuracy == 4)
    }

    @Test func sourceFlagRestrictsTheChain() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("""
            version = 1
            [location]
            sources = ["gpsd", "fixed"]
            [location.gpsd]
            permission = "allow"
            host = "127.0.0.1"
            port = 1
            [location.fixed]
            latitude = 27.9506
            longitude = -82.4572
            """)
        let result = try await runner.run(["where", "--json", "--source", "fixed"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect((result.json?["location"] as? [String: Any])?["source"] as? String == "fixed")
        let gpsdOnly = try await runner.run(["where", "--source", "gpsd"], assembly: .gpsdOnly)
        #expect(gpsdOnly.status == 75)
        #expect(gpsdOnly.stderr.contains("gpsd is not running on 127.0.0.1:1"))
    }
}
