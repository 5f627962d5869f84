import Foundation
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore
import HereWeatherHTTP

/// MET Norway's Locationforecast 2.0 compact through the real HTTP client, against a local
/// server serving constructed bodies: identification, coordinate precision, conditional
/// requests through the cache, unit conversion, symbols and the daily forecast.
@Suite struct MetNorwayServiceTests {
    let oslo = Coordinate(latitude: 59.913_868, longitude: 10.752_245)
    static let path = "/weatherapi/locationforecast/2.0/complete"
    static let contact = "you@example.org"
    static let userAgent = "here-weather/\(HereWeatherVersion.current) you@example.org"
    static let lastModified = "Sun, 22 Nov 2026 09:41:17 GMT"
    /// 30 minutes of freshness, as MET's Expires typically gives.
    static let freshness = [("Date", "Sun, 22 Nov 2026 10:00:00 GMT"), ("Expires", "Sun, 22 Nov 2026 10:30:00 GMT"),
                            ("Last-Modified", lastModified)]

    func query(_ units: Units = .metric) -> WeatherQuery {
        WeatherQuery(coordinate: oslo, units: units, deadline: .now + .seconds(30))
    }

    /// The Locationforecast requests (Oslo is in the radar nowcast's area, which is asked too:
    /// `NowcastServiceTests`).
    static func forecastRequests(_ server: FixtureServer) -> [FixtureServer.Request] {
        server.receivedRequests.filter { $0.target.hasPrefix(path + "?") }
    }

    func provider(_ server: FixtureServer, contact: String? = contact, decimals: Int = 2) -> MetNorwayWeatherProvider {
        MetNorwayWeatherProvider(baseURL: server.baseURL, contact: contact, http: CurlHTTPClient(clock: ContinuousClock()),
                                 coordinateDecimals: decimals, clock: ContinuousClock())
    }

    /// A server like MET's: 403 without an identifying User-Agent, 304 for a matching
    /// If-Modified-Since, the forecast otherwise.
    static func metServer() throws -> FixtureServer {
        try FixtureServer.inspecting { request in
            guard request.target.hasPrefix(path + "?") else { return .notFound }
            guard let agent = request.headers["user-agent"], agent.contains("@") || agent.contains("http") else {
                return .fixture("weather/metno/error-403.html", status: 403)
            }
            if request.headers["if-modified-since"] == lastModified {
                return FixtureServer.Response(status: 304, headers: [("Date", "Sun, 22 Nov 2026 11:00:00 GMT"),
                                                                     ("Expires", "Sun, 22 Nov 2026 11:45:00 GMT"),
                                                                     ("Last-Modified", lastModified)], body: [])
            }
            return .fixture("weather/metno/oslo-compact.json", headers: freshness)
        }
    }

    @Test func fetchesWithAnIdentifyingUserAgentAndDecodes() async throws {
        let server = try Self.metServer()
        let answer = try await provider(server).fetch(query())
        let request = try #require(Self.forecastRequests(server).first)
        #expect(request.headers["user-agent"] == Self.userAgent)
        #expect(request.target == Self.path + "?lat=59.91&lon=10.75")
        #expect(request.headers["if-modified-since"] == nil)
        #expect(answer.lastModified == Self.lastModified)
        #expect(answer.serviceMaxAge == 1800)

        let report = answer.report
        #expect(report.provider == .metNorway)
        #expect(report.placeName == nil, "the compact product has no place names")
        #expect(report.utcOffset == 3600, "10.75° E is an hour ahead of UTC")
        #expect(report.current.temperature == 2.9)
        #expect(report.current.humidity == 87.4)
        #expect(report.current.windSpeed == 2.5)
        #expect(report.current.windDirection == 200)
        #expect(report.current.condition.group == .rain)
        #expect(report.current.description == "Light rain showers")
        #expect(report.current.isDay == true)
        #expect(report.current.precipitation == Precipitation(total: 0.3, periodSeconds: 3600))
        #expect(report.hourly.count == 12)
        #expect(report.hourlyStep == 3600)
        #expect(report.hourly[6].condition.group == .thunderstorm, "lightssleetshowersandthunder_day (MET's spelling)")
        #expect(report.hourly[6].description == "Light sleet showers and thunder")
        #expect(report.daily.count == 7)
        #expect(report.daily.first?.date == "2026-11-22")
        #expect(report.current.temperatureMin == report.daily.first?.temperatureMin)
        #expect(report.current.temperatureMax == report.daily.first?.temperatureMax)
        #expect(report.alerts.isEmpty)
    }

    @Test func dailyForecastIsDerivedFromTheHourlyAndSixHourlySeries() async throws {
        let server = try Self.metServer()
        let report = try await provider(server).report(for: query())
        let body = try JSONSerialization.jsonObject(with: Fixtures.data("weather/metno/oslo-compact.json")) as? [String: Any]
        let series = try #require((body?["properties"] as? [String: Any])?["timeseries"] as? [[String: Any]])
        // Reference: every instant temperature on 2026-11-23 local time (UTC+1).
        var temperatures: [Double] = []
        for step in series {
            let time = try #require(step["time"] as? String)
            let local = try #require(MetNorwayDecoder.parseTime(time)).addingTimeInterval(3600)
            guard LocalTime(local, utcOffset: 0).dateString == "2026-11-23" else { continue }
            let details = ((step["data"] as? [String: Any])?["instant"] as? [String: Any])?["details"] as? [String: Any]
            temperatures.append(try #require(details?["air_temperature"] as? Double))
        }
        let day = try #require(report.daily.first { $0.date == "2026-11-23" })
        #expect(day.temperatureMin == temperatures.min())
        #expect(day.temperatureMax == temperatures.max())
        #expect(day.condition.group == .clear || day.condition.group == .partlyCloudy)
        // The snow day: its 1-hour amounts summed.
        let snowDay = try #require(report.daily.first { $0.date == "2026-11-24" })
        #expect(snowDay.condition.group == .snow)
        #expect((snowDay.precipitation ?? 0) > 5)
        // Days in the 6-hourly part still have values.
        let late = try #require(report.daily.last)
        #expect(late.temperatureMax != nil)
        #expect(late.date == "2026-11-28")
    }

    @Test func unitsAreConvertedSinceTheAPIHasNoUnitsParameter() async throws {
        let server = try Self.metServer()
        let report = try await provider(server).report(for: query(.imperial))
        #expect(server.requests.allSatisfy { !$0.contains("units") })
        #expect(abs((report.current.temperature ?? 0) - 37.22) < 0.001)
        #expect(abs((report.current.windSpeed ?? 0) - 5.592) < 0.001)
        #expect(abs((report.current.precipitation?.total ?? 0) - 0.3 / 25.4) < 0.0001)
        let kelvin = try await provider(server).report(for: query(.standard))
        #expect(abs((kelvin.current.temperature ?? 0) - 276.05) < 0.001)
    }

    @Test(arguments: [(2, "lat=59.91&lon=10.75"), (4, "lat=59.9139&lon=10.7522")])
    func coordinatesHaveAtMostFourDecimals(decimals: Int, expected: String) async throws {
        let server = try Self.metServer()
        _ = try await provider(server, decimals: decimals).report(for: query())
        #expect(server.requests.first?.hasSuffix(expected) == true)
        // Even were more allowed, MET gets no more than 4.
        let precise = MetNorwayWeatherProvider(baseURL: "https://api.met.no", contact: Self.contact,
                                               http: CurlHTTPClient(clock: ContinuousClock()), coordinateDecimals: 6, clock: ContinuousClock())
        #expect(precise.requestURL(for: oslo).hasSuffix("lat=59.9139&lon=10.7522"))
    }

    @Test func forbiddenIsExplainedAsIdentification() async throws {
        // The server refuses what MET refuses: a request without an identifying User-Agent.
        let server = try Self.metServer()
        let anonymous = try await CurlHTTPClient(clock: ContinuousClock()).get(HTTPRequest(
            url: server.baseURL + Self.path + "?lat=59.91&lon=10.75", headers: [("User-Agent", "")],
            deadline: .now + .seconds(30)))
        #expect(anonymous.status == 403)

        let refusing = try FixtureServer(routes: [Self.path: .fixture("weather/metno/error-403.html", status: 403)])
        do {
            _ = try await provider(refusing).report(for: query())
            Issue.record("expected an error")
        } catch let error as WeatherError {
            guard case .identificationRefused = error else { Issue.record("wrong error: \(error)"); return }
            #expect(error.exitStatus == .configuration)
            #expect(error.message.contains("HTTP 403"))
            #expect(error.message.contains(Self.userAgent))
            #expect(error.message.contains("[weather.metno] contact"))
            #expect(!error.allowsStaleFallback)
        }
    }

    @Test func badRequestAndServerErrors() async throws {
        let server = try FixtureServer(routes: [Self.path: .fixture("weather/metno/error-400.html", status: 400)])
        do {
            _ = try await provider(server).report(for: query())
            Issue.record("expected an error")
        } catch let error as WeatherError {
            #expect(error.message.contains("HTTP 400"))
            #expect(error.exitStatus == .serviceUnavailable)
        }
        let failing = try FixtureServer(routes: [Self.path: .json(503, "<html>busy</html>")])
        do {
            _ = try await provider(failing).report(for: query())
            Issue.record("expected an error")
        } catch let error as WeatherError {
            #expect(error.message.contains("HTTP 503"))
            #expect(error.allowsStaleFallback)
        }
    }

    // MARK: Conditional requests through the cache

    @Test func aStaleEntryIsRevalidatedAndA304RefreshesIt() async throws {
        let server = try Self.metServer()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("here-weather-metno-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = TestClock()
        let cache = WeatherCache(directory: directory, clock: clock)
        let caching = CachingWeatherProvider(base: provider(server), cache: cache, ttl: 600, staleLimit: 21_600,
                                             coordinateDecimals: 2)
        let key = WeatherCacheKey(provider: .metNorway, coordinate: oslo, units: .metric, coordinateDecimals: 2)

        let first = try await caching.fetch(query())
        #expect(!first.notModified)
        let stored = try cache.load(key)
        #expect(stored.lastModified == Self.lastModified, "the cache keeps Last-Modified")
        #expect(stored.serviceMaxAge == 1800)

        clock.advance(1800)  // Expired (Expires was 30 minutes).
        let second = try await caching.fetch(query())
        #expect(Self.forecastRequests(server).count == 2)
        #expect(Self.forecastRequests(server)[1].headers["if-modified-since"] == Self.lastModified)
        #expect(second.notModified)
        #expect(second.report.current.temperature == first.report.current.temperature)
        #expect(second.report.freshness == Freshness(), "the service confirmed it current")
        let refreshed = try cache.load(key)
        #expect(refreshed.fetchedAt == clock.date, "the 304 made the entry fresh again")
        #expect(refreshed.serviceMaxAge == 2700, "with the new Expires")
        #expect(refreshed.recording == stored.recording, "without downloading it again")

        clock.advance(2000)  // Within the new 45 minutes: no request at all.
        let third = try await caching.fetch(query())
        #expect(Self.forecastRequests(server).count == 2)
        #expect(third.report.freshness.cached)
    }

    @Test func cityNamesAreLookedUpWithOpenMeteoForServicesWithoutGeocoding() {
        for kind in [WeatherProviderKind.metNorway, .pirateWeather] {
            let geocoder = Run.test(system: .test()).geocoder(kind)
            #expect(geocoder is OpenMeteoGeocoder)
        }
    }

    // MARK: Symbols

    @Test(arguments: [
        ("clearsky_day", Condition.clear, "Clear sky", true as Bool?),
        ("fair_night", .mainlyClear, "Fair", false),
        ("partlycloudy_polartwilight", .partlyCloudy, "Partly cloudy", false),
        ("cloudy", .overcast, "Cloudy", nil),
        ("fog", .fog, "Fog", nil),
        ("heavyrain", .heavyRain, "Heavy rain", nil),
        ("lightrainshowers_day", .lightRainShowers, "Light rain showers", true),
        ("sleet", .sleet, "Sleet", nil),
        ("lightsnow", .lightSnow, "Light snow", nil),
        ("heavysnowshowers_night", .heavySnowShowers, "Heavy snow showers", false),
        ("rainandthunder", .rainAndThunder, "Rain and thunder", nil),
        ("lightssnowshowersandthunder_day", .lightSnowShowersAndThunder, "Light snow showers and thunder", true),
        ("heavysleetshowersandthunder_night", .heavySleetShowersAndThunder, "Heavy sleet showers and thunder", false),
        ("somethingnew", .unknown, "Somethingnew", nil),
    ])
    func symbolCodes(code: String, condition: Condition, words: String, isDay: Bool?) {
        let described = MetNorwaySymbol.describe(code)
        #expect(described.condition == condition)
        #expect(described.words == words)
        #expect(described.isDay == isDay)
    }
}
