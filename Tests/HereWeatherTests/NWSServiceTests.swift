import Foundation
import Synchronization
import Testing
@testable import HereWeatherCore
import HereWeatherHTTP
#if canImport(Glibc)
import Glibc
#endif

/// The US National Weather Service through the real HTTP client, against a local server
/// serving the constructed bodies of Fixtures/weather/nws: the points flow, the remembered
/// points, current conditions from an observation or the forecast hour, the daily view from
/// 12-hour periods, alerts, and the error paths (outside the US, a 503 retried once).
@Suite struct NWSServiceTests {
    static let tampa = Coordinate(latitude: 27.950_612, longitude: -82.457_179)
    static let contact = "ops@example.org"
    /// 19:53 UTC: the observation (18:53 UTC) is an hour old.
    static let anHourAfterTheObservation = Date(timeIntervalSince1970: 1_795_719_180 + 3600)

    /// A server like api.weather.gov for the Tampa grid; `override` answers first when it
    /// returns a response (errors, a missing observation).
    static func server(_ override: @escaping @Sendable (FixtureServer.Request) -> FixtureServer.Response? = { _ in nil })
        throws -> FixtureServer {
        try FixtureServer.inspecting { request in
            if let answer = override(request) { return answer }
            let path = String(request.target.split(separator: "?", maxSplits: 1).first ?? "")
            let files = ["/points/27.95,-82.46": "points-tampa.json", "/points/27.9506,-82.4572": "points-tampa.json",
                         "/gridpoints/TBW/71,98/forecast": "forecast-tampa.json",
                         "/gridpoints/TBW/71,98/forecast/hourly": "forecast-hourly-tampa.json",
                         "/gridpoints/TBW/71,98/stations": "stations-tampa.json",
                         "/stations/KTPA/observations/latest": "observation-latest-ktpa.json",
                         "/alerts/active": "alerts-tampa.json"]
            guard let file = files[path] else { return .notFound }
            return .fixture("weather/nws/" + file, headers: [("Content-Type", "application/geo+json")])
        }
    }

    static func provider(_ server: FixtureServer, contact: String? = contact, decimals: Int = 2,
                         memory: NWSPointsMemory? = nil, now: Date = anHourAfterTheObservation) -> NWSWeatherProvider {
        NWSWeatherProvider(baseURL: server.baseURL, contact: contact, http: CurlHTTPClient(), coordinateDecimals: decimals,
                           memory: memory, pause: { _ in }, clock: TestClock(date: now))
    }

    func query(_ units: Units = .metric) -> WeatherQuery {
        WeatherQuery(coordinate: Self.tampa, units: units, deadline: .now + .seconds(120))
    }

    @Test func followsThePointsAnswerAndDecodesEveryView() async throws {
        let server = try Self.server()
        let answer = try await Self.provider(server).fetch(query())
        let paths = server.receivedRequests.map { String($0.target.split(separator: "?").first ?? "") }
        #expect(paths.first == "/points/27.95,-82.46")
        #expect(Set(paths) == ["/points/27.95,-82.46", "/gridpoints/TBW/71,98/forecast", "/gridpoints/TBW/71,98/forecast/hourly",
                               "/gridpoints/TBW/71,98/stations", "/stations/KTPA/observations/latest", "/alerts/active"])
        #expect(server.receivedRequests.allSatisfy {
            $0.headers["user-agent"] == "here-weather/\(HereWeatherVersion.current) (ops@example.org)"
        })
        #expect(server.receivedRequests.contains { $0.target == "/alerts/active?point=27.95,-82.46" })

        let report = answer.report
        #expect(report.provider == .nws)
        #expect(report.placeName == "Tampa")
        #expect(report.utcOffset == -5 * 3600)
        // The observation: 25.6 °C, 14.76 km/h from 40°, 1016.5 hPa at sea level, heat index 25.9 °C.
        #expect(report.currentBasis == .observation(station: "KTPA"))
        #expect(report.current.temperature == 25.6)
        #expect(report.current.feelsLike == 25.9)
        #expect(abs((report.current.windSpeed ?? 0) - 4.1) < 0.001)
        #expect(report.current.windDirection == 40)
        #expect(report.current.windGust == nil, "null in the observation")
        #expect(report.current.pressure == 1016.5)
        #expect(report.current.humidity == 53.7)
        #expect(report.current.visibility == 16090)
        #expect(report.current.precipitation == nil)
        #expect(report.current.condition.group == .partlyCloudy)
        #expect(report.current.description == "Partly Cloudy")
        #expect(report.current.isDay == true)
        // The hourly view: every hour from the current one, 12 shown; °F converted, "N mph", compass points.
        #expect(report.hourly.count == 48)
        #expect(report.shown(at: Self.anHourAfterTheObservation).hourly.count == 12)
        let first = try #require(report.hourly.first)
        #expect(LocalTime.iso8601(first.time, utcOffset: report.utcOffset) == "2026-11-26T14:00:00-05:00")
        #expect(abs((first.temperature ?? 0) - (80 - 32) * 5 / 9) < 0.001)
        #expect(abs((first.windSpeed ?? 0) - 5 * 0.44704) < 0.001)
        #expect(first.windDirection == 45, "NE")
        #expect(first.precipitationProbability == 10)
        // The daily view: the day's high from its daytime period, its low from the night after.
        #expect(report.daily.map(\.date) == ["2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29", "2026-11-30",
                                             "2026-12-01", "2026-12-02"])
        let friday = report.daily[1]
        #expect(abs((friday.temperatureMax ?? 0) - (80 - 32) * 5 / 9) < 0.001)
        #expect(abs((friday.temperatureMin ?? 0) - (58 - 32) * 5 / 9) < 0.001)
        #expect(friday.condition.group == .thunderstorm)
        #expect(friday.description == "Showers And Thunderstorms Likely")
        #expect(friday.precipitationProbability == 60)
        #expect(abs((friday.windSpeedMax ?? 0) - 10 * 0.44704) < 0.001, "the top of \"5 to 10 mph\"")
        #expect(report.current.temperatureMax == report.daily[0].temperatureMax)
        // The alerts: the Flood Warning; the test message is not shown.
        #expect(report.alerts.map(\.title) == ["Flood Warning"])
        let flood = try #require(report.alerts.first)
        #expect(flood.severity == "Severe")
        #expect(flood.source == "NWS Tampa Bay Ruskin FL")
        #expect(flood.headline?.hasPrefix("Flood Warning issued November 26") == true)
        #expect(flood.instruction?.hasPrefix("Turn around, don't drown") == true)
        #expect(flood.end.map { LocalTime.iso8601($0, utcOffset: -18000) } == "2026-11-28T14:00:00-05:00", "ends, not expires")
        #expect(flood.start.map { LocalTime.iso8601($0, utcOffset: -18000) } == "2026-11-26T09:12:00-05:00")
        // The recording rebuilds the same report.
        let again = try Self.provider(server).report(fromRecording: answer.recording, units: .metric)
        #expect(again.current.temperature == 25.6)
        #expect(again.currentBasis == .observation(station: "KTPA"))
        #expect(again.alerts.map(\.title) == ["Flood Warning"])
    }

    @Test func anOldObservationGivesWayToTheForecastHour() async throws {
        let server = try Self.server()
        let later = Self.anHourAfterTheObservation.addingTimeInterval(3600 + 60)  // 2 h 1 min after it
        let report = try await Self.provider(server, now: later).report(for: query())
        #expect(report.currentBasis == .forecast)
        // 20:54 UTC is 15:54 EST: the 15:00 hour, not the first one (14:00).
        #expect(abs((report.current.temperature ?? 0) - (80 - 32) * 5 / 9) < 0.001, "the 15:00 hour")
        #expect(LocalTime.iso8601(report.current.time, utcOffset: report.utcOffset) == "2026-11-26T15:00:00-05:00")
        #expect(report.current.description == "Sunny")
        #expect(report.current.humidity == 60)
    }

    /// The 2 h rule on the run's clock (`RunSystem.clock` through `ProviderFactory`), not the
    /// wall clock: an observation a second under 2 h old is the current conditions; at 2 h
    /// and a second over, this hour's forecast is.
    @Test(arguments: [(7199.0, true), (7200.0, false), (7201.0, false)])
    func theTwoHourRuleReadsTheRunsClock(age: Double, observed: Bool) async throws {
        let server = try Self.server()
        let observation = Self.anHourAfterTheObservation.addingTimeInterval(-3600)
        var config = Configuration()
        config.weather.nws.baseURL = server.baseURL
        config.weather.nws.contact = Self.contact
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("here-weather-nws-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        let system = RunSystem.test(clock: TestClock(date: observation.addingTimeInterval(age)))
        let provider = ProviderFactory.weatherProvider(.nws, config: config, environment: ["HOME": home], system: system)
        let report = try await provider.report(for: query())
        #expect(report.currentBasis == (observed ? .observation(station: "KTPA") : .forecast), "\(age) s old")
    }

    @Test func anObservationWithoutATemperatureOrAStationGivesWayToo() async throws {
        let noTemperature = String(decoding: Fixtures.data("weather/nws/observation-latest-ktpa.json"), as: UTF8.self)
            .replacing(#""value": 25.6"#, with: #""value": null"#)
        let server = try Self.server { request in
            request.target.hasPrefix("/stations/KTPA/") ? .json(200, noTemperature) : nil
        }
        #expect(try await Self.provider(server).report(for: query()).currentBasis == .forecast)
        let noStations = try Self.server { request in
            request.target.hasSuffix("/stations") ? .json(500, "{}") : nil
        }
        let report = try await Self.provider(noStations).report(for: query())
        #expect(report.currentBasis == .forecast)
        #expect(report.alerts.count == 1, "the rest of the report stands")
    }

    @Test func unitsAreConvertedFromWhatEachBodySays() async throws {
        let server = try Self.server()
        let report = try await Self.provider(server).report(for: query(.imperial))
        #expect(abs((report.current.temperature ?? 0) - 78.08) < 0.001, "25.6 °C")
        #expect(abs((report.hourly[0].temperature ?? 0) - 80) < 0.001)
        #expect(abs((report.hourly[0].windSpeed ?? 0) - 5) < 0.001)
        #expect(abs((report.current.windSpeed ?? 0) - 14.76 / 1.609_344) < 0.01)
    }

    @Test(arguments: [(2, "/points/27.95,-82.46"), (4, "/points/27.9506,-82.4572"), (6, "/points/27.9506,-82.4572")])
    func coordinatesHaveAtMostFourDecimals(decimals: Int, expected: String) async throws {
        let server = try Self.server()
        _ = try await Self.provider(server, decimals: decimals).report(for: query())
        #expect(server.requests.first == expected)
        #expect(server.requests.contains { $0.hasPrefix("/alerts/active?point=" + expected.dropFirst("/points/".count)) })
    }

    @Test func thePointsAnswerIsRememberedPerRoundedPoint() async throws {
        let server = try Self.server()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nws-points-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let memory = NWSPointsMemory(directory: folder)
        _ = try await Self.provider(server, memory: memory).report(for: query())
        let stored = try #require(FileManager.default.contents(atPath: memory.path(for: Coordinate(latitude: 27.95, longitude: -82.46))))
        #expect(stored == Fixtures.data("weather/nws/points-tampa.json"))
        let mode = try FileManager.default.attributesOfItem(atPath: memory.path(for: Coordinate(latitude: 27.95, longitude: -82.46)))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let before = server.requests.count
        _ = try await Self.provider(server, memory: memory).report(for: query())
        let second = server.requests.dropFirst(before)
        #expect(!second.contains { $0.hasPrefix("/points/") }, "\(second)")
        #expect(second.contains("/gridpoints/TBW/71,98/forecast"))
    }

    @Test func aPointsAnswerWhoseForecastsFailIsNotRemembered() async throws {
        let server = try Self.server { request in
            request.target.hasPrefix("/gridpoints/TBW/71,98/forecast") ? .json(404, #"{"title":"Not Found"}"#) : nil
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nws-points-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let memory = NWSPointsMemory(directory: folder)
        await #expect(throws: WeatherError.self) { try await Self.provider(server, memory: memory).report(for: query()) }
        #expect(!FileManager.default.fileExists(atPath: memory.path(for: Coordinate(latitude: 27.95, longitude: -82.46))))
    }

    @Test func aPointsAnswerWhoseForecastsAreNotForecastsIsNotRemembered() async throws {
        let server = try Self.server { request in
            request.target.hasPrefix("/gridpoints/TBW/71,98/forecast") ? .json(200, #"{"properties":{"periods":"none"}}"#) : nil
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nws-points-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let memory = NWSPointsMemory(directory: folder)
        await #expect(throws: WeatherError.self) { try await Self.provider(server, memory: memory).report(for: query()) }
        #expect(!FileManager.default.fileExists(atPath: memory.path(for: Coordinate(latitude: 27.95, longitude: -82.46))))
    }

    @Test func aRememberedGridThatIsGoneIsAskedAgain() async throws {
        let moved = Fixtures.data("weather/nws/points-tampa.json")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nws-points-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let memory = NWSPointsMemory(directory: folder)
        let point = Coordinate(latitude: 27.95, longitude: -82.46)
        memory.store(Data(String(decoding: moved, as: UTF8.self).replacing("TBW/71,98", with: "TBW/1,1").utf8), for: point)
        let server = try Self.server()
        let report = try await Self.provider(server, memory: memory).report(for: query())
        #expect(report.hourly.count == 48)
        #expect(server.requests.contains("/gridpoints/TBW/1,1/forecast"))
        #expect(server.requests.contains("/points/27.95,-82.46"))
        #expect(FileManager.default.contents(atPath: memory.path(for: point)) == moved, "the new answer replaces the old")
    }

    @Test func aDamagedMemoryIsNoMemory() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nws-points-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let memory = NWSPointsMemory(directory: folder)
        let point = Coordinate(latitude: 27.95, longitude: -82.46)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for damage in ["", "{\"properties\":{}}", "<html>", String(repeating: "x", count: 300_000)] {
            try damage.write(toFile: memory.path(for: point), atomically: true, encoding: .utf8)
            #expect(memory.load(point) == nil)
        }
        // A FIFO planted there reads as nothing, without waiting for a writer.
        try FileManager.default.removeItem(atPath: memory.path(for: point))
        #expect(mkfifo(memory.path(for: point), 0o600) == 0)
        #expect(memory.load(point) == nil)
        // A directory where the file should be: the run still works, and asks the points.
        try FileManager.default.removeItem(atPath: memory.path(for: point))
        try FileManager.default.createDirectory(atPath: memory.path(for: point), withIntermediateDirectories: true)
        let server = try Self.server()
        #expect(try await Self.provider(server, memory: memory).report(for: query()).hourly.count == 48)
    }

    @Test func urlsInTheAnswerAreFollowedOnlyOnTheConfiguredHost() async throws {
        let points = String(decoding: Fixtures.data("weather/nws/points-tampa.json"), as: UTF8.self)
            .replacing("https://api.weather.gov/gridpoints", with: "http://elsewhere.example:9/gridpoints")
        let server = try Self.server { request in request.target.hasPrefix("/points/") ? .json(200, points) : nil }
        let report = try await Self.provider(server).report(for: query())
        #expect(report.hourly.count == 48)
        #expect(server.requests.contains("/gridpoints/TBW/71,98/forecast/hourly"))
        let exchange = NWSExchange(baseURL: "https://mirror.example.org/nws/", userAgent: "", http: CurlHTTPClient(), pause: { _ in })
        #expect(exchange.onBaseURL("https://api.weather.gov/gridpoints/TBW/71,98/forecast")
            == "https://mirror.example.org/nws/gridpoints/TBW/71,98/forecast")
        #expect(exchange.onBaseURL("https://api.weather.gov") == nil)
        #expect(exchange.onBaseURL("gridpoints/x") == nil)
        #expect(exchange.onBaseURL("https://x/a b") == nil)
    }

    // MARK: Errors

    @Test func aPointOutsideTheUSSaysSoAndNamesTheOtherProviders() async throws {
        let server = try Self.server { request in
            request.target.hasPrefix("/points/") ? .fixture("weather/nws/problem-404-invalid-point.json", status: 404) : nil
        }
        let london = WeatherQuery(coordinate: Coordinate(latitude: 51.5074, longitude: -0.1278), units: .metric,
                                  deadline: .now + .seconds(120))
        do {
            _ = try await Self.provider(server).report(for: london)
            Issue.record("expected an error")
        } catch let error as WeatherError {
            #expect(error.message == "NWS covers only the United States and its territories, and this location is outside it. Use another provider here: --provider open-meteo, openweathermap, metno or pirateweather (open-meteo needs no key), or set [weather] provider in the config.")
            #expect(error.exitStatus == .configuration)
            #expect(!error.allowsStaleFallback)
        }
        #expect(server.requests == ["/points/51.51,-0.13"], "no retry, nothing more")
    }

    @Test func anExpiredGridIsAskedAgainOnceThenSaidInOneLine() async throws {
        let server = try Self.server { request in
            request.target.hasPrefix("/gridpoints/TBW/71,98/forecast/hourly")
                ? .fixture("weather/nws/problem-503-grid-expired.json", status: 503) : nil
        }
        do {
            _ = try await Self.provider(server).report(for: query())
            Issue.record("expected an error")
        } catch let error as WeatherError {
            #expect(error.message == "NWS answered HTTP 503: Forecast Grid Expired: The requested forecast grid was issued 2026-11-19T08:04:33+00:00 and has expired. The service is having trouble; try again in a few minutes.")
            #expect(!error.message.contains("\n"))
            #expect(error.exitStatus == .serviceUnavailable)
            #expect(error.allowsStaleFallback, "a cached report may stand in")
        }
        #expect(server.requests.filter { $0 == "/gridpoints/TBW/71,98/forecast/hourly" }.count == 2)
    }

    @Test func aServerErrorThatPassesIsRetriedOnceAfterAPause() async throws {
        let failures = Mutex(1)
        let server = try Self.server { request in
            guard request.target == "/gridpoints/TBW/71,98/forecast" else { return nil }
            let fail = failures.withLock { count in
                defer { count -= 1 }
                return count > 0
            }
            return fail ? .fixture("weather/nws/problem-500-unexpected.json", status: 500) : nil
        }
        let pauses = Mutex<[Duration]>([])
        let provider = NWSWeatherProvider(baseURL: server.baseURL, contact: Self.contact, http: CurlHTTPClient(),
                                          pause: { duration in pauses.withLock { $0.append(duration) } },
                                          clock: TestClock(date: Self.anHourAfterTheObservation))
        let report = try await provider.report(for: query())
        #expect(report.daily.count == 7)
        #expect(server.requests.filter { $0 == "/gridpoints/TBW/71,98/forecast" }.count == 2)
        #expect(pauses.withLock { $0 } == [.seconds(1)])
    }

    @Test func noRetryWhenTheDeadlineLeavesNoTime() async throws {
        let server = try Self.server { request in
            request.target.hasPrefix("/points/") ? .fixture("weather/nws/problem-500-unexpected.json", status: 500) : nil
        }
        let pauses = Mutex<[Duration]>([])
        let provider = NWSWeatherProvider(baseURL: server.baseURL, contact: Self.contact, http: CurlHTTPClient(),
                                          pause: { duration in pauses.withLock { $0.append(duration) } })
        let short = WeatherQuery(coordinate: Self.tampa, units: .metric, deadline: .now + .milliseconds(900))
        await #expect(throws: WeatherError.self) { try await provider.report(for: short) }
        #expect(pauses.withLock { $0 }.allSatisfy { $0 < .milliseconds(300) }, "at most a third of the time left")
    }

    @Test func aRefusedUserAgentNamesTheNWSContactKey() async throws {
        let server = try Self.server { _ in .json(403, #"{"title":"Forbidden","status":403}"#) }
        do {
            _ = try await Self.provider(server).report(for: query())
            Issue.record("expected an error")
        } catch let error as WeatherError {
            #expect(error.message.contains("[weather.nws] contact"))
            #expect(error.exitStatus == .configuration)
        }
    }

    @Test func aPlainHTTPBaseURLToAnotherHostIsRefused() async throws {
        let provider = NWSWeatherProvider(baseURL: "http://nws.example.org", contact: Self.contact, http: CurlHTTPClient())
        #expect(throws: WeatherError.self) { try provider.checkConfigured() }
    }
}
