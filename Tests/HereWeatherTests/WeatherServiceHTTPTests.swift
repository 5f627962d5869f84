import Foundation
import Testing
@testable import HereWeatherCore
import HereWeatherHTTP

/// Each weather provider's real implementation, over the real HTTP client, against a local
/// server serving recorded bodies and error answers.
@Suite struct WeatherServiceHTTPTests {
    let tampa = Coordinate(latitude: 27.950_612, longitude: -82.457_178)

    func query(_ units: Units = .metric, seconds: Int = 30) -> WeatherQuery {
        WeatherQuery(coordinate: tampa, units: units, deadline: .now + .seconds(seconds))
    }

    func openMeteo(_ server: FixtureServer) -> OpenMeteoWeatherProvider {
        OpenMeteoWeatherProvider(baseURL: server.baseURL, http: CurlHTTPClient(clock: ContinuousClock()), clock: ContinuousClock())
    }

    func openWeatherMap(_ server: FixtureServer, key: String? = "placeholder-key-not-a-real-one-00") -> OpenWeatherMapWeatherProvider {
        OpenWeatherMapWeatherProvider(baseURL: server.baseURL, apiKey: key, http: CurlHTTPClient(clock: ContinuousClock()), clock: ContinuousClock())
    }

    // MARK: Open-Meteo

    @Test func openMeteoFetchesAndDecodes() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": .fixture("weather/open-meteo/tampa-metric.json")])
        let report = try await openMeteo(server).report(for: query())
        #expect(report.provider == .openMeteo)
        #expect(report.current.temperature == 26.8)
        #expect(report.utcOffset == -18000)
        #expect(report.hourly.count == 12)
        #expect(report.daily.count == 7)

        let target = try #require(server.requests.first)
        let items = try #require(URLComponents(string: target)?.queryItems)
        let parameters = Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        // No more precision than the weather needs: two decimals.
        #expect(parameters["latitude"] == "27.95")
        #expect(parameters["longitude"] == "-82.46")
        #expect(parameters["timezone"] == "auto")
        #expect(parameters["wind_speed_unit"] == "ms")
        #expect(parameters["current"]?.contains("weather_code") == true)
        #expect(parameters["hourly"]?.contains("precipitation_probability") == true)
        #expect(parameters["daily"]?.contains("sunrise") == true)
    }

    @Test func openMeteoAsksForImperialUnits() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": .fixture("weather/open-meteo/denver-imperial.json")])
        let report = try await openMeteo(server).report(for: query(.imperial))
        #expect(report.units == .imperial)
        let target = try #require(server.requests.first)
        #expect(target.contains("temperature_unit=fahrenheit"))
        #expect(target.contains("wind_speed_unit=mph"))
        #expect(target.contains("precipitation_unit=inch"))
    }

    @Test func openMeteoBadRequestCarriesTheServiceReason() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": .fixture("weather/open-meteo/error-400.json", status: 400)])
        do {
            _ = try await openMeteo(server).report(for: query())
            Issue.record("expected an error")
        } catch let error as WeatherError {
            #expect(error.exitStatus == .serviceUnavailable)
            #expect(error.message.contains("HTTP 400"))
            #expect(error.message.contains("Latitude must be in range"))
        }
    }

    @Test(arguments: [500, 502, 503])
    func serverErrorsAreServiceUnavailable(status: Int) async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": .json(status, "oops")])
        do {
            _ = try await openMeteo(server).report(for: query())
            Issue.record("expected an error")
        } catch let error as WeatherError {
            #expect(error.exitStatus == .serviceUnavailable)
            #expect(error.message.contains("HTTP \(status)"))
            #expect(error.message.contains("try again"))
        }
    }

    @Test func rateLimitKeepsRetryAfter() async throws {
        let server = try FixtureServer(routes: [
            "/v1/forecast": .fixture("weather/openweathermap/error-429.json", status: 429, headers: [("Retry-After", "120")]),
        ])
        await #expect(throws: WeatherError.self) { try await openMeteo(server).report(for: query()) }
        do {
            _ = try await openMeteo(server).report(for: query())
        } catch let error as WeatherError {
            guard case .service(_, .rateLimited(let retryAfter)) = error else { Issue.record("not rate limited: \(error)"); return }
            #expect(retryAfter == "120")
            #expect(error.exitStatus == .serviceUnavailable)
        }
    }

    @Test func htmlWithStatus200IsNotWeather() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": .fixture("weather/misc/captive-portal.html")])
        do {
            _ = try await openMeteo(server).report(for: query())
            Issue.record("expected an error")
        } catch let error as WeatherError {
            guard case .service(_, .undecodable) = error else { Issue.record("wrong error: \(error)"); return }
            #expect(error.message.contains("web page"))
            #expect(error.exitStatus == .serviceUnavailable)
        }
    }

    @Test func hungServerFailsByTheDeadline() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": .hang])
        defer { server.stop() }
        do {
            _ = try await openMeteo(server).report(for: query(seconds: 1))
            Issue.record("expected an error")
        } catch let error as WeatherError {
            guard case .service(_, .unreachable(.timedOut)) = error else { Issue.record("wrong error: \(error)"); return }
            #expect(error.exitStatus == .serviceUnavailable)
        }
    }

    @Test func notFoundIsAServiceFailure() async throws {
        let server = try FixtureServer(routes: [:])
        do {
            _ = try await openMeteo(server).report(for: query())
            Issue.record("expected an error")
        } catch let error as WeatherError {
            #expect(error.message.contains("HTTP 404"))
        }
    }

    // MARK: OpenWeatherMap

    @Test func openWeatherMapFetchesCurrentAndForecast() async throws {
        let server = try FixtureServer(routes: [
            "/data/2.5/weather": .fixture("weather/openweathermap/weather-tampa-metric.json"),
            "/data/2.5/forecast": .fixture("weather/openweathermap/forecast-tampa-metric.json"),
        ])
        let report = try await openWeatherMap(server).report(for: query())
        #expect(report.provider == .openWeatherMap)
        #expect(report.placeName == "Tampa")
        #expect(report.hourlyStep == 10800)
        #expect(report.hourly.count == 4)
        #expect(!report.daily.isEmpty)

        let targets = server.requests.sorted()
        #expect(targets.count == 2)
        for target in targets {
            #expect(target.contains("lat=27.95&lon=-82.46"))
            #expect(target.contains("units=metric"))
            #expect(target.contains("appid=placeholder-key-not-a-real-one-00"))
        }
        #expect(targets[0].hasPrefix("/data/2.5/forecast?"))
        #expect(targets[1].hasPrefix("/data/2.5/weather?"))
    }

    @Test(arguments: [Units.metric, .imperial, .standard])
    func openWeatherMapSendsTheUnits(units: Units) async throws {
        let server = try FixtureServer(routes: [
            "/data/2.5/weather": .fixture("weather/openweathermap/weather-tampa-metric.json"),
            "/data/2.5/forecast": .fixture("weather/openweathermap/forecast-tampa-metric.json"),
        ])
        _ = try await openWeatherMap(server).report(for: query(units))
        #expect(server.requests.allSatisfy { $0.contains("units=\(units.rawValue)") })
    }

    @Test func rejectedKeyIsAConfigurationErrorWithoutTheKey() async throws {
        let key = "feedfacefeedfacefeedfacefeedface"
        let server = try FixtureServer(routes: [
            "/data/2.5/weather": .fixture("weather/openweathermap/error-401.json", status: 401),
            "/data/2.5/forecast": .fixture("weather/openweathermap/error-401.json", status: 401),
        ])
        do {
            _ = try await openWeatherMap(server, key: key).report(for: query())
            Issue.record("expected an error")
        } catch let error as WeatherError {
            guard case .service(_, .keyRejected) = error else { Issue.record("wrong error: \(error)"); return }
            #expect(error.exitStatus == .configuration)
            #expect(!error.message.contains(key))
            #expect(error.message.contains("OPENWEATHERMAP_API_KEY"))
        }
    }

    @Test func missingKeyNeverTouchesTheNetwork() async throws {
        let server = try FixtureServer(routes: [:])
        for key in [nil, ""] as [String?] {
            do {
                _ = try await openWeatherMap(server, key: key).report(for: query())
                Issue.record("expected an error")
            } catch let error as WeatherError {
                guard case .service(_, .missingKey) = error else { Issue.record("wrong error: \(error)"); return }
                #expect(error.exitStatus == .configuration)
                #expect(error.message.contains("api_key"))
                #expect(error.message.contains("OPENWEATHERMAP_API_KEY"))
            }
        }
        #expect(server.requests.isEmpty)
    }

    @Test func codInTheBodyIsAnErrorEvenWithStatus200() async throws {
        let server = try FixtureServer(routes: [
            "/data/2.5/weather": .fixture("weather/openweathermap/error-404.json"),
            "/data/2.5/forecast": .fixture("weather/openweathermap/forecast-tampa-metric.json"),
        ])
        do {
            _ = try await openWeatherMap(server).report(for: query())
            Issue.record("expected an error")
        } catch let error as WeatherError {
            #expect(error.message.contains("404"))
            #expect(error.message.contains("city not found"))
        }
    }

    @Test func aServiceMessageQuotingTheKeyIsRedacted() async throws {
        let key = "abcdefabcdefabcdefabcdefabcdef12"
        let server = try FixtureServer(routes: [
            "/data/2.5/weather": .json(400, #"{"cod":"400","message":"bad appid \#(key)"}"#),
            "/data/2.5/forecast": .json(400, #"{"cod":"400","message":"bad appid \#(key)"}"#),
        ])
        do {
            _ = try await openWeatherMap(server, key: key).report(for: query())
            Issue.record("expected an error")
        } catch let error as WeatherError {
            #expect(!error.message.contains(key))
            #expect(error.message.contains("[redacted]"))
        }
    }
}
