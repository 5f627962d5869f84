import Foundation
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore
import HereWeatherHTTP

/// The Dark Sky format provider (Pirate Weather) through the real HTTP client, against a
/// local server: the key in the path (and never anywhere else), units, icons, alerts and
/// the service's error shapes.
@Suite struct PirateWeatherServiceTests {
    let tampa = Coordinate(latitude: 27.950_612, longitude: -82.457_178)
    /// A canary: if this text shows up in any message or log line, the key leaked.
    static let canary = "CANARYpw7f3e9a1c5b2d8e4f6a0b9c7d"
    static let forecastPath = "/forecast/\(canary)/27.95,-82.46"

    func query(_ units: Units = .metric) -> WeatherQuery {
        WeatherQuery(coordinate: tampa, units: units, deadline: .now + .seconds(30))
    }

    func provider(_ server: FixtureServer, key: String? = canary, http: any HTTPClient = CurlHTTPClient(clock: ContinuousClock()))
        -> PirateWeatherWeatherProvider {
        PirateWeatherWeatherProvider(baseURL: server.baseURL, apiKey: key, http: http, clock: ContinuousClock())
    }

    func expectNoKey(_ error: WeatherError, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!error.message.contains(Self.canary), sourceLocation: sourceLocation)
        #expect(!"\(error)".contains(Self.canary), sourceLocation: sourceLocation)
    }

    @Test func fetchesCurrentHourlyDailyAndAlerts() async throws {
        let server = try FixtureServer(routes: [Self.forecastPath: .fixture("weather/pirateweather/tampa-si.json")])
        let report = try await provider(server).report(for: query())
        let target = try #require(server.requests.first)
        #expect(target == Self.forecastPath + "?units=si", "the minutely block (the nowcast) is asked for")

        #expect(report.provider == .pirateWeather)
        #expect(report.utcOffset == -18000)
        #expect(report.current.temperature == 27.32)
        #expect(report.current.feelsLike == 25.82)
        #expect(report.current.humidity == 86)
        #expect(report.current.cloudCover == 10)
        #expect(report.current.windSpeed == 4.61)
        #expect(report.current.windDirection == 30)
        #expect(report.current.visibility == 10_000)
        #expect(report.current.condition.group == .clear)
        #expect(report.current.isDay == true)
        #expect(report.current.description == "Clear")
        #expect(report.current.temperatureMax == 27.4)
        #expect(report.current.sunrise == Date(timeIntervalSince1970: 1_795_348_560))
        #expect(report.hourly.count == 12)
        #expect(report.daily.count == 7)
        #expect(report.daily.first?.date == "2026-11-22")
        let rainy = try #require(report.daily.first { $0.date == "2026-11-25" })
        #expect(rainy.condition.group == .rain)
        #expect(rainy.precipitationProbability == 85)
        #expect(abs((rainy.precipitation ?? 0) - 7.2) < 0.001, "precipAccumulation is in cm with units=si")

        #expect(report.alerts.count == 2)
        let alert = try #require(report.alerts.first)
        // The title is the NWS headline: its event is the alert's title, its issuer the source.
        #expect(alert.title == "Small Craft Advisory")
        #expect(alert.source == "NWS Tampa Bay Ruskin FL")
        #expect(alert.headline == "Small Craft Advisory issued November 22 at 9:49AM EST until November 23 at 4:00AM EST by NWS Tampa Bay Ruskin FL")
        #expect(report.alerts.last?.title == "Rip Current Statement")
        #expect(alert.severity == "Minor")
        #expect(alert.start == Date(timeIntervalSince1970: 1_795_358_940))
        #expect(alert.end == Date(timeIntervalSince1970: 1_795_424_400))
        #expect(alert.description?.contains("WHERE...Tampa Bay waters") == true)
        #expect(alert.uri?.hasPrefix("https://alerts.weather.gov/") == true)
    }

    @Test func imperialAsksForUSUnitsAndAbsentAlertsAreNone() async throws {
        let server = try FixtureServer(routes: ["/forecast/\(Self.canary)/27.95,-82.46": .fixture("weather/pirateweather/denver-us.json")])
        let report = try await provider(server).report(for: query(.imperial))
        #expect(server.requests.first?.contains("units=us") == true)
        #expect(report.units == .imperial)
        #expect(report.current.condition.group == .snow)
        #expect(report.current.precipitation?.snow ?? 0 > 0)
        #expect(report.alerts.isEmpty)
        let body = try JSONSerialization.jsonObject(with: Fixtures.data("weather/pirateweather/denver-us.json")) as? [String: Any]
        let currently = try #require(body?["currently"] as? [String: Any])
        #expect(report.current.temperature == currently["temperature"] as? Double, "°F as sent")
        let miles = try #require(currently["visibility"] as? Double)
        #expect(abs((report.current.visibility ?? 0) - miles * 1609.344) < 0.01)
    }

    @Test func standardUnitsAreConvertedFromSI() async throws {
        let server = try FixtureServer(routes: [Self.forecastPath: .fixture("weather/pirateweather/tampa-si.json")])
        let report = try await provider(server).report(for: query(.standard))
        #expect(server.requests.first?.contains("units=si") == true)
        #expect(abs((report.current.temperature ?? 0) - 300.47) < 0.001)
    }

    @Test func rejectedKeyIsAConfigurationErrorWithoutTheKey() async throws {
        let server = try FixtureServer(routes: [Self.forecastPath: .fixture("weather/pirateweather/error-401.txt", status: 401)])
        do {
            _ = try await provider(server).report(for: query())
            Issue.record("expected an error")
        } catch let error as WeatherError {
            guard case .service(_, .keyRejected) = error else { Issue.record("wrong error: \(error)"); return }
            #expect(error.exitStatus == .configuration)
            #expect(error.message.contains("PIRATEWEATHER_API_KEY"))
            expectNoKey(error)
        }
    }

    @Test func badLocationCarriesTheServiceDetail() async throws {
        let server = try FixtureServer(routes: [Self.forecastPath: .fixture("weather/pirateweather/error-400.json", status: 400)])
        do {
            _ = try await provider(server).report(for: query())
            Issue.record("expected an error")
        } catch let error as WeatherError {
            #expect(error.message.contains("HTTP 400"))
            #expect(error.message.contains("Invalid Location Specification"))
            expectNoKey(error)
        }
    }

    @Test func unknownRouteAndQuota() async throws {
        let server = try FixtureServer(routes: [:])
        do {
            _ = try await provider(server).report(for: query())
            Issue.record("expected an error")
        } catch let error as WeatherError {
            #expect(error.message.contains("HTTP 404"))
            expectNoKey(error)
        }
        let limited = try FixtureServer(routes: [Self.forecastPath: .fixture("weather/pirateweather/error-429.txt", status: 429)])
        do {
            _ = try await provider(limited).report(for: query())
            Issue.record("expected an error")
        } catch let error as WeatherError {
            guard case .service(_, .rateLimited) = error else { Issue.record("wrong error: \(error)"); return }
            expectNoKey(error)
        }
    }

    @Test func aServiceMessageQuotingTheKeyIsRedacted() async throws {
        let server = try FixtureServer(routes: [Self.forecastPath: .json(400, #"{"detail":"bad key \#(Self.canary)"}"#)])
        do {
            _ = try await provider(server).report(for: query())
            Issue.record("expected an error")
        } catch let error as WeatherError {
            expectNoKey(error)
            #expect(error.message.contains("[redacted]"))
        }
    }

    @Test func unreachableServiceErrorsNameTheHostOnly() async throws {
        let closed = try ClosedPort()  // held to the end: no other test's server can take the port
        defer { withExtendedLifetime(closed) {} }
        do {
            _ = try await PirateWeatherWeatherProvider(baseURL: closed.baseURL, apiKey: Self.canary, http: CurlHTTPClient(clock: ContinuousClock()), clock: ContinuousClock())
                .report(for: query())
            Issue.record("expected an error")
        } catch let error as WeatherError {
            guard case .service(_, .unreachable) = error else { Issue.record("wrong error: \(error)"); return }
            expectNoKey(error)
        }
    }

    @Test func verboseLogRedactsTheKeyInThePath() async throws {
        let server = try FixtureServer(routes: [Self.forecastPath: .fixture("weather/pirateweather/tampa-si.json")])
        var config = Configuration()
        config.weather.pirateWeather.baseURL = server.baseURL
        let environment = [Configuration.pirateWeatherKeyVariable: Self.canary]
        let lines = LogLines()
        let http = LoggingHTTPClient(base: CurlHTTPClient(clock: ContinuousClock()), secrets: config.secrets(environment: environment)) {
            lines.append($0)
        }
        let provider = Run.test(config, environment: environment, system: .test(http: http)).weatherProvider(.pirateWeather)
        _ = try await provider.report(for: query())
        #expect(server.requests.first?.contains(Self.canary) == true, "the key was sent")
        let log = lines.all.joined(separator: "\n")
        #expect(log.contains("GET \(server.baseURL)/forecast/[redacted]/27.95,-82.46?units=si"))
        #expect(!log.contains(Self.canary))
    }

    @Test func missingKeyNeverTouchesTheNetwork() async throws {
        let server = try FixtureServer(routes: [:])
        for key in [nil, ""] as [String?] {
            let provider = provider(server, key: key)
            #expect(throws: WeatherError.self) { try provider.checkConfigured() }
            await #expect(throws: WeatherError.self) { try await provider.report(for: query()) }
        }
        #expect(server.requests.isEmpty)
    }

    @Test func plainHTTPToARemoteHostIsRefusedBeforeAnyRequest() throws {
        let http = CurlHTTPClient(clock: ContinuousClock())
        let remote: [any WeatherProvider] = [
            PirateWeatherWeatherProvider(baseURL: "http://api.pirateweather.net", apiKey: Self.canary, http: http, clock: ContinuousClock()),
            OneCallWeatherProvider(baseURL: "http://api.openweathermap.org", apiKey: Self.canary, http: http, clock: ContinuousClock()),
            MetNorwayWeatherProvider(baseURL: "http://api.met.no", contact: "you@example.org", http: http, clock: ContinuousClock()),
        ]
        for provider in remote {
            do {
                try provider.checkConfigured()
                Issue.record("\(provider.kind) accepted plain http")
            } catch let error as WeatherError {
                guard case .service(_, .insecureBaseURL) = error else { Issue.record("wrong error: \(error)"); continue }
                #expect(error.exitStatus == .configuration)
                #expect(error.message.contains("https://"))
                #expect(error.message.contains("\(provider.kind.rawValue).base_url"))
            }
        }
        for base in ["https://api.pirateweather.net", "http://127.0.0.1:8080", "http://localhost:9"] {
            try PirateWeatherWeatherProvider(baseURL: base, apiKey: Self.canary, http: http, clock: ContinuousClock()).checkConfigured()
        }
    }

    @Test(arguments: [
        ("clear-day", Condition.clear, true as Bool?), ("clear-night", .clear, false), ("rain", .rain, nil),
        ("snow", .snow, nil), ("sleet", .sleet, nil), ("wind", .windy, nil), ("fog", .fog, nil),
        ("cloudy", .overcast, nil), ("partly-cloudy-day", .partlyCloudy, true), ("partly-cloudy-night", .partlyCloudy, false),
        ("thunderstorm", .thunderstorm, nil), ("hail", .hail, nil), ("mostly-clear-night", .mainlyClear, false),
        ("mostly-cloudy-day", .mostlyCloudy, true), ("drizzle", .drizzle, nil), ("smoke", .smoke, nil), ("tornado", .unknown, nil),
    ])
    func icons(icon: String, condition: Condition, isDay: Bool?) {
        let described = DarkSkyIcon.describe(icon)
        #expect(described.condition == condition)
        #expect(described.isDay == isDay)
    }
}

/// Lines logged from concurrent code, collected for a test.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) {
        lock.lock(); lines.append(line); lock.unlock()
    }

    var all: [String] {
        lock.lock(); defer { lock.unlock() }
        return lines
    }
}
