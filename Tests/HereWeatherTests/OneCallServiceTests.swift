import Foundation
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore
import HereWeatherHTTP

/// OpenWeatherMap One Call 3.0 (`api = "onecall"`) through the real HTTP client, against a
/// local server: the request, hourly steps, daily, alerts, and the 401 of a key without the plan.
@Suite struct OneCallServiceTests {
    let tampa = Coordinate(latitude: 27.950_612, longitude: -82.457_178)
    static let key = "CANARYoc0123456789abcdef01234567"
    static let path = "/data/3.0/onecall"

    func query(_ units: Units = .metric) -> WeatherQuery {
        WeatherQuery(coordinate: tampa, units: units, deadline: .now + .seconds(30))
    }

    func provider(_ server: FixtureServer) -> any WeatherProvider {
        var config = Configuration()
        config.weather.openWeatherMap.baseURL = server.baseURL
        config.weather.openWeatherMap.api = .onecall
        return Run.test(config, environment: [Configuration.openWeatherMapKeyVariable: Self.key], system: .test())
            .weatherProvider(.openWeatherMap)
    }

    @Test func fetchesOneCallWithAlerts() async throws {
        let server = try FixtureServer(routes: [Self.path: .fixture("weather/openweathermap/onecall-tampa-metric.json")])
        let report = try await provider(server).report(for: query())
        let target = try #require(server.requests.first)
        #expect(server.requests.count == 1, "one request instead of the classic two")
        #expect(target == Self.path + "?lat=27.95&lon=-82.46&units=metric&exclude=minutely&appid=\(Self.key)")

        #expect(report.provider == .openWeatherMap)
        #expect(report.utcOffset == -18000)
        #expect(report.current.temperature == 26.43)
        #expect(report.current.condition.group == .partlyCloudy)
        #expect(report.current.isDay == true)
        #expect(report.current.windGust == 7.2)
        #expect(report.hourlyStep == 3600)
        #expect(report.hourly.count == 12)
        #expect(report.daily.count == 7)
        #expect(report.daily.first?.date == "2026-11-22")
        let rainy = try #require(report.daily.first { $0.date == "2026-11-25" })
        #expect(rainy.condition.group == .rain)
        #expect(rainy.precipitation == 7.1)
        #expect(rainy.precipitationProbability == 86)

        #expect(report.alerts.map(\.title) == ["Small Craft Advisory", "Rip Current Statement"])
        let alert = try #require(report.alerts.first)
        #expect(alert.source == "NWS Tampa Bay Ruskin FL")
        #expect(alert.severity == nil)
        #expect(alert.start == Date(timeIntervalSince1970: 1_795_358_940))
        #expect(alert.end == Date(timeIntervalSince1970: 1_795_424_400))
    }

    @Test func imperialConvertsOnlyThePrecipitation() async throws {
        let server = try FixtureServer(routes: [Self.path: .fixture("weather/openweathermap/onecall-tampa-metric.json")])
        let report = try await provider(server).report(for: query(.imperial))
        #expect(server.requests.first?.contains("units=imperial") == true)
        let rainy = try #require(report.daily.first { $0.date == "2026-11-25" })
        #expect(abs((rainy.precipitation ?? 0) - 7.1 / 25.4) < 0.0001, "One Call sends mm whatever the units")
    }

    @Test func aKeyWithoutThePlanSuggestsTheClassicAPI() async throws {
        let server = try FixtureServer(routes: [Self.path: .fixture("weather/openweathermap/error-401-onecall.json", status: 401)])
        do {
            _ = try await provider(server).report(for: query())
            Issue.record("expected an error")
        } catch let error as WeatherError {
            guard case .planLacksProduct = error else { Issue.record("wrong error: \(error)"); return }
            #expect(error.exitStatus == .configuration)
            #expect(error.message.contains("One Call API 3.0"))
            #expect(error.message.contains("api = \"classic\""))
            #expect(!error.message.contains(Self.key))
        }
    }

    @Test func classicRecordingsStillReadAfterSwitching() throws {
        let provider = OneCallWeatherProvider(baseURL: "https://api.openweathermap.org", apiKey: Self.key, http: CurlHTTPClient(clock: ContinuousClock()), clock: ContinuousClock())
        let classic = try provider.report(fromRecording: Fixtures.data("weather/openweathermap/weather-tampa-metric.json"),
                                          units: .metric)
        #expect(classic.placeName == "Tampa")
        let oneCall = try provider.report(fromRecording: Fixtures.data("weather/openweathermap/onecall-tampa-metric.json"),
                                          units: .metric)
        #expect(oneCall.alerts.count == 2)
    }

    @Test func classicRemainsTheDefault() throws {
        let provider = Run.test(system: .test()).weatherProvider(.openWeatherMap)
        #expect(provider is OpenWeatherMapWeatherProvider)
    }
}
