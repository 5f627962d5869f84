import Foundation
import Synchronization
import Testing
@testable import HereWeatherCore
import HereWeatherHTTP

/// The nowcast from each service through the real HTTP client, against a local server serving
/// the constructed bodies in Fixtures/weather: Open-Meteo's `minutely_15`, Pirate Weather's
/// `minutely`, MET Norway's radar nowcast (its area, its coverage states, its failures, its
/// recording), and the cache keeping it, read at fixed times.
@Suite struct NowcastServiceTests {
    let tampa = Coordinate(latitude: 27.950_612, longitude: -82.457_178)
    let oslo = Coordinate(latitude: 59.913_868, longitude: 10.752_245)
    /// 2026-11-22 19:15:00 UTC (14:15 in Tampa), the Tampa bodies' time.
    static let tampaNow = Date(timeIntervalSince1970: 1_795_374_900)
    static let forecastPath = "/weatherapi/locationforecast/2.0/complete?"
    static let nowcastPath = "/weatherapi/nowcast/2.0/complete?"

    /// A query whose deadline no test here is about: the longest run the suite allows. (With
    /// 30 s, the nowcast's task, started beside the forecast's, was sometimes given a thread
    /// only after the deadline at the start of a full run at load 15-20, and sent nothing.)
    func query(_ coordinate: Coordinate, _ units: Units = .metric) -> WeatherQuery {
        WeatherQuery(coordinate: coordinate, units: units, deadline: .now + TestLimits.longestRun)
    }

    func minutes(_ date: Date?, after start: Date) -> Double? { date.map { $0.timeIntervalSince(start) / 60 } }

    // MARK: Open-Meteo

    @Test func openMeteoAsksForFifteenMinuteStepsAndReadsRainInThirtyMinutes() async throws {
        let server = try FixtureServer { $0.hasPrefix("/v1/forecast?") ? .fixture("weather/open-meteo/tampa-rain-in-30-min.json") : .notFound }
        let report = try await OpenMeteoWeatherProvider(baseURL: server.baseURL, http: CurlHTTPClient(clock: ContinuousClock()), clock: ContinuousClock()).report(for: query(tampa))
        let target = try #require(server.requests.first)
        let items = try #require(URLComponents(string: target)?.queryItems)
        #expect(items.first { $0.name == "minutely_15" }?.value == "precipitation,rain,snowfall,weather_code")
        #expect(items.first { $0.name == "forecast_minutely_15" }?.value == "9")
        #expect(items.first { $0.name == "timezone" }?.value == "auto")

        let nowcast = try #require(report.nowcast)
        #expect(nowcast.source == .openMeteo)
        #expect(nowcast.stepSeconds == 900)
        #expect(nowcast.steps.count == 9)
        #expect(nowcast.issued == Self.tampaNow)
        // The value at 14:15 local is the quarter-hour before it.
        #expect(nowcast.steps.first?.start == Self.tampaNow.addingTimeInterval(-900))
        #expect(nowcast.steps[3].intensity == 0.4, "0.10 mm in 15 minutes")
        #expect(nowcast.steps[3].kind == .rain)

        let outlook = try #require(report.nowcastOutlook(at: Self.tampaNow))
        #expect(minutes(outlook.startsAt, after: Self.tampaNow) == 30)
        #expect(minutes(outlook.endsAt, after: Self.tampaNow) == 75)
        #expect(outlook.peak == 1.4)
        #expect(outlook.kind == .rain)
        #expect(outlook.horizonSeconds == 7200)
    }

    @Test func openMeteoDryHorizon() async throws {
        let server = try FixtureServer { _ in .fixture("weather/open-meteo/tampa-dry-nowcast.json") }
        let report = try await OpenMeteoWeatherProvider(baseURL: server.baseURL, http: CurlHTTPClient(clock: ContinuousClock()), clock: ContinuousClock()).report(for: query(tampa))
        let outlook = try #require(report.nowcastOutlook(at: Self.tampaNow))
        #expect(outlook.isDry)
        #expect(outlook.horizonSeconds == 7200)
    }

    @Test func openMeteoBodiesWithoutTheBlockHaveNoNowcast() throws {
        let report = try OpenMeteoWeatherProvider(baseURL: "https://api.open-meteo.com", http: UnusedHTTPClient(), clock: ContinuousClock())
            .report(fromRecording: Fixtures.data("weather/open-meteo/tampa-metric.json"), units: .metric)
        #expect(report.nowcast == nil)
    }

    @Test func openMeteoInchesAndSnowAreRead() throws {
        let body = try JSONValue.parse(Data("""
        {"minutely_15_units":{"time":"iso8601","precipitation":"inch","rain":"inch","snowfall":"inch","weather_code":"wmo code"},
         "minutely_15":{"time":["2026-11-22T10:30","2026-11-22T10:45"],"precipitation":[0.010,null],"rain":[0,0],
                        "snowfall":[0.049,0],"weather_code":[71,"x"]}}
        """.utf8))
        let nowcast = try #require(OpenMeteoMinutelyDecoder.decode(body, utcOffset: -25200, issued: Self.tampaNow))
        #expect(approx(nowcast.steps[0].intensity, 0.010 * 25.4 * 4))
        #expect(nowcast.steps[0].kind == .snow)
        #expect(nowcast.steps[1].intensity == nil, "null is no value, not 0")
        #expect(OpenMeteoMinutelyDecoder.kind(rain: 1, snowfall: 1, code: nil) == .mixed)
        #expect(OpenMeteoMinutelyDecoder.kind(rain: 0, snowfall: 0, code: 63) == .rain)
        #expect(OpenMeteoMinutelyDecoder.kind(rain: nil, snowfall: nil, code: 1e300) == nil)
    }

    // MARK: Pirate Weather

    @Test func pirateWeatherKeepsTheMinutelyBlockAndReadsRainInThirtyMinutes() async throws {
        let server = try FixtureServer { _ in .fixture("weather/pirateweather/tampa-rain-in-30-min.json") }
        let provider = PirateWeatherWeatherProvider(baseURL: server.baseURL, apiKey: "key", http: CurlHTTPClient(clock: ContinuousClock()), clock: ContinuousClock())
        let report = try await provider.report(for: query(tampa))
        #expect(server.requests.first?.contains("exclude") == false)
        let nowcast = try #require(report.nowcast)
        #expect(nowcast.source == .pirateWeather)
        #expect(nowcast.stepSeconds == 60)
        #expect(nowcast.steps.count == 61)
        #expect(nowcast.steps[30].probability == 80)
        #expect(nowcast.steps[0].kind == nil, "precipType none")
        let issued = Date(timeIntervalSince1970: 1_795_374_904)
        #expect(nowcast.issued == issued)
        let outlook = try #require(report.nowcastOutlook(at: issued))
        #expect(outlook.startsAt == Self.tampaNow.addingTimeInterval(1800))
        #expect(outlook.endsAt == Self.tampaNow.addingTimeInterval(55 * 60))
        #expect(outlook.peak == 1.4)
        #expect(outlook.kind == .rain)
    }

    @Test func pirateWeatherUSUnitsAreInchesPerHour() throws {
        let body = try JSONValue.parse(Data("""
        {"minutely":{"data":[{"time":1795374900,"precipIntensity":0.05,"precipProbability":0.5,"precipType":"sleet"},
                             {"time":"junk"},{"time":1795374960,"precipIntensity":"x"}]}}
        """.utf8))
        let nowcast = try #require(DarkSkyMinutelyDecoder.decode(body, unitsSent: "us", issued: Self.tampaNow))
        #expect(nowcast.steps.count == 2, "a point without a time is skipped")
        #expect(approx(nowcast.steps[0].intensity, 1.27))
        #expect(nowcast.steps[0].kind == .mixed)
        #expect(nowcast.steps[1].intensity == nil)
    }

    // MARK: MET Norway

    /// A server like MET's with Locationforecast and the nowcast `nowcast` (a fixture name,
    /// or a status to fail with).
    static func metServer(nowcast: String?, status: Int = 200) throws -> FixtureServer {
        try FixtureServer.inspecting { request in
            if request.target.hasPrefix(forecastPath) {
                return .fixture("weather/metno/oslo-compact.json", headers: MetNorwayServiceTests.freshness)
            }
            guard request.target.hasPrefix(nowcastPath), let nowcast else { return .notFound }
            guard status == 200 else { return .json(status, #"{"error":"down"}"#) }
            return .fixture("weather/metno/\(nowcast).json",
                            headers: [("Date", "Sun, 22 Nov 2026 10:05:00 GMT"), ("Expires", "Sun, 22 Nov 2026 10:10:00 GMT")])
        }
    }

    /// The provider, its companion grace on a clock that stands still: these tests are about
    /// what the nowcast's answer makes of the report, so the nowcast is always waited for (up
    /// to the query's deadline); a 1.5 s grace in real time can pass at load 15-20 before the
    /// nowcast's task gets a thread. The grace itself: `aHangingNowcastIsDroppedOnceTheGraceIsOver` below.
    func metno(_ server: FixtureServer, decimals: Int = 4) -> MetNorwayWeatherProvider {
        MetNorwayWeatherProvider(baseURL: server.baseURL, contact: MetNorwayServiceTests.contact, http: CurlHTTPClient(clock: ContinuousClock()),
                                 coordinateDecimals: decimals, clock: ContinuousClock(), grace: CompanionGrace(clock: TestClock()))
    }

    @Test func metNorwayAsksTheNowcastInsideItsAreaWithTheSameIdentification() async throws {
        let server = try Self.metServer(nowcast: "nowcast-oslo-rain-in-30-min")
        let answer = try await metno(server, decimals: 6).fetch(query(oslo))
        let request = try #require(server.receivedRequests.first { $0.target.hasPrefix(Self.nowcastPath) })
        #expect(request.target == Self.nowcastPath + "lat=59.9139&lon=10.7522", "at most 4 decimals")
        #expect(request.headers["user-agent"] == MetNorwayServiceTests.userAgent)
        #expect(answer.serviceMaxAge == 300, "the nowcast's Expires (5 min) is the shorter")
        #expect(answer.lastModified == MetNorwayServiceTests.lastModified, "Locationforecast's, for If-Modified-Since")

        let nowcast = try #require(answer.report.nowcast)
        #expect(nowcast.source == .metNorway)
        #expect(nowcast.stepSeconds == 300)
        let issued = Date(timeIntervalSince1970: 1_795_341_875)  // 2026-11-22T10:04:35Z
        #expect(nowcast.issued == issued)
        let outlook = try #require(answer.report.nowcastOutlook(at: issued))
        let tenThirtyFive = Date(timeIntervalSince1970: 1_795_343_700)
        #expect(outlook.startsAt == tenThirtyFive)
        #expect(outlook.endsAt == tenThirtyFive.addingTimeInterval(45 * 60))
        #expect(outlook.peak == 1.4)
        #expect(outlook.kind == nil, "the radar does not say rain or snow")

        // The recording holds both bodies, and gives the same report back.
        let replayed = try metno(server).report(fromRecording: answer.recording, units: .metric)
        #expect(replayed.nowcast == nowcast)
        #expect(replayed.current.temperature == answer.report.current.temperature)
    }

    @Test(arguments: ["nowcast-no-coverage", "nowcast-temporarily-unavailable"])
    func noRadarCoverageIsNoNowcastNotAnError(_ fixture: String) async throws {
        let server = try Self.metServer(nowcast: fixture)
        let answer = try await metno(server).fetch(query(oslo))
        #expect(server.requests.contains { $0.hasPrefix(Self.nowcastPath) })
        #expect(answer.report.nowcast == nil)
        #expect(answer.report.current.temperature == 2.9)
        #expect(answer.recording == Fixtures.data("weather/metno/oslo-compact.json"), "the forecast body alone")
        #expect(answer.serviceMaxAge == 1800)
    }

    @Test(arguments: [500, 403, 404])
    func aFailingNowcastLeavesTheReport(_ status: Int) async throws {
        let server = try Self.metServer(nowcast: "nowcast-oslo-dry", status: status)
        let answer = try await metno(server).fetch(query(oslo))
        #expect(answer.report.nowcast == nil)
        #expect(answer.report.current.temperature == 2.9)
    }

    /// A nowcast that never answers costs the grace after Locationforecast, on the run's clock,
    /// not the weather's deadline: the report comes without it, the request is cancelled (the
    /// fetch ends long before the 60 s deadline its transfer was given) and the note says why.
    @Test func aHangingNowcastIsDroppedOnceTheGraceIsOver() async throws {
        let server = try FixtureServer.inspecting { request in
            request.target.hasPrefix(Self.forecastPath) ? .fixture("weather/metno/oslo-compact.json") : .hang
        }
        let clock = TestClock()
        let notes = Mutex<[String]>([])
        let provider = MetNorwayWeatherProvider(baseURL: server.baseURL, contact: MetNorwayServiceTests.contact,
                                                http: CurlHTTPClient(clock: ContinuousClock()), clock: ContinuousClock(),
                                                grace: CompanionGrace(clock: clock) { note in
                                                    notes.withLock { $0.append(note) }
                                                })
        let started = ContinuousClock.now
        let query = WeatherQuery(coordinate: oslo, units: .metric, deadline: .now + .seconds(60))
        let fetch = Task { try await provider.fetch(query) }
        #expect(await clock.waitForSleepers(1), "the forecast has answered and the grace runs")
        #expect(server.requests.contains { $0.hasPrefix(Self.nowcastPath) })
        clock.advance(by: CompanionGrace.length)
        let answer = try await fetch.value
        #expect(ContinuousClock.now - started < .seconds(60), "ended with the grace, not at the deadline")
        #expect(answer.report.nowcast == nil)
        #expect(answer.report.current.temperature == 2.9)
        #expect(answer.recording == Fixtures.data("weather/metno/oslo-compact.json"), "stored as after a failed nowcast")
        #expect(notes.withLock { $0 } == ["nowcast: no answer within 1.5 s of the weather; shown without it"])
    }

    @Test func outsideTheAreaNoNowcastIsAsked() async throws {
        let server = try Self.metServer(nowcast: "nowcast-oslo-rain-in-30-min")
        let answer = try await metno(server).fetch(query(tampa))
        #expect(server.requests.count == 1)
        #expect(server.requests.allSatisfy { $0.hasPrefix(Self.forecastPath) })
        #expect(answer.report.nowcast == nil)
    }

    @Test func theAreaIsTheNordicRadarBox() {
        let inside = [(59.91, 10.75), (55.68, 12.57), (60.17, 24.94), (59.33, 18.07), (69.65, 18.96), (55.1, 14.9),
                      (71.1, 25.8), (58.0, 7.0)]
        let outside = [(52.52, 13.4), (27.95, -82.46), (78.22, 15.65), (64.15, -21.94), (54.4, 10.0), (60.0, 32.0),
                       (-59.91, 10.75)]
        for (latitude, longitude) in inside {
            #expect(MetNorwayNowcast.covers(Coordinate(latitude: latitude, longitude: longitude)), "\(latitude), \(longitude)")
        }
        for (latitude, longitude) in outside {
            #expect(!MetNorwayNowcast.covers(Coordinate(latitude: latitude, longitude: longitude)), "\(latitude), \(longitude)")
        }
    }

    @Test func aNotModifiedForecastGetsTheNewNowcast() async throws {
        let server = try FixtureServer.inspecting { request in
            if request.target.hasPrefix(Self.forecastPath) {
                return FixtureServer.Response(status: 304, headers: [("Last-Modified", MetNorwayServiceTests.lastModified)], body: [])
            }
            return .fixture("weather/metno/nowcast-oslo-dry.json")
        }
        let stored = StoredWeather(recording: Fixtures.data("weather/metno/oslo-compact-with-nowcast.json"),
                                   lastModified: MetNorwayServiceTests.lastModified)
        let answer = try await metno(server).fetch(query(oslo), revalidating: stored)
        #expect(answer.notModified)
        let issued = Date(timeIntervalSince1970: 1_795_341_875)
        #expect(try #require(answer.report.nowcastOutlook(at: issued)).isDry, "the new nowcast, not the stored rain")
        let again = try metno(server).report(fromRecording: answer.recording, units: .metric)
        #expect(again.current.temperature == 2.9)
        #expect(again.hourly.count == answer.report.hourly.count)
        #expect(try #require(again.nowcastOutlook(at: issued)).isDry)
    }

    /// MET's terms: repeat requests carry If-Modified-Since, the nowcast's as Locationforecast's.
    /// A 304 for the nowcast keeps the stored one (and its Last-Modified, for the next time).
    @Test func theNowcastIsAskedConditionallyAndA304KeepsIt() async throws {
        let nowcastModified = "Sun, 22 Nov 2026 10:04:40 GMT"
        let server = try FixtureServer.inspecting { request in
            let notModified = FixtureServer.Response(status: 304, headers: [("Date", "Sun, 22 Nov 2026 10:00:00 GMT"),
                                                                         ("Expires", "Sun, 22 Nov 2026 10:15:00 GMT")], body: [])
            if request.target.hasPrefix(Self.forecastPath) {
                return request.headers["if-modified-since"] == MetNorwayServiceTests.lastModified
                    ? notModified : .fixture("weather/metno/oslo-compact.json", headers: MetNorwayServiceTests.freshness)
            }
            if request.headers["if-modified-since"] == nowcastModified { return notModified }
            return .fixture("weather/metno/nowcast-oslo-rain-in-30-min.json",
                            headers: [("Date", "Sun, 22 Nov 2026 10:05:00 GMT"), ("Expires", "Sun, 22 Nov 2026 10:10:00 GMT"),
                                      ("Last-Modified", nowcastModified)])
        }
        let first = try await metno(server).fetch(query(oslo))
        let nowcast = try #require(first.report.nowcast)
        #expect(server.receivedRequests.allSatisfy { $0.headers["if-modified-since"] == nil }, "a first request is plain")

        let stored = StoredWeather(recording: first.recording, lastModified: try #require(first.lastModified))
        let again = try await metno(server).fetch(query(oslo), revalidating: stored)
        let asked = try #require(server.receivedRequests.last { $0.target.hasPrefix(Self.nowcastPath) })
        #expect(asked.headers["if-modified-since"] == nowcastModified)
        #expect(again.notModified)
        #expect(again.report.nowcast == nowcast, "the stored nowcast, confirmed")
        #expect(again.serviceMaxAge == 900, "the new Expires")
        // The recording keeps the nowcast and its Last-Modified for the next request.
        #expect(try metno(server).report(fromRecording: again.recording, units: .metric).nowcast == nowcast)
        #expect(MetNorwayNowcast.stored(in: again.recording)?.lastModified == nowcastModified)
    }

    @Test func aPlainLocationforecastRecordingStillReads() throws {
        let report = try MetNorwayWeatherProvider(baseURL: "https://api.met.no", contact: "a@b.c", http: UnusedHTTPClient(), clock: ContinuousClock())
            .report(fromRecording: Fixtures.data("weather/metno/oslo-compact.json"), units: .metric)
        #expect(report.nowcast == nil)
        #expect(report.current.temperature == 2.9)
    }

    // MARK: The cache

    @Test func theCacheKeepsTheNowcastAndStopsShowingItAfterFifteenMinutes() async throws {
        let server = try FixtureServer { _ in .fixture("weather/open-meteo/tampa-rain-in-30-min.json") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("here-weather-nowcast-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = TestClock()
        let caching = CachingWeatherProvider(base: OpenMeteoWeatherProvider(baseURL: server.baseURL, http: CurlHTTPClient(clock: ContinuousClock()), clock: ContinuousClock()),
                                             cache: WeatherCache(directory: directory, clock: clock),
                                             ttl: 3600, staleLimit: 21_600, coordinateDecimals: 2)
        _ = try await caching.fetch(query(tampa))
        clock.advance(600)
        let tenMinutes = try await caching.fetch(query(tampa)).report
        #expect(server.requests.count == 1, "from the cache")
        #expect(tenMinutes.freshness.cached)
        #expect(tenMinutes.nowcast != nil, "kept with the report")
        // Read ten minutes after the data's time: the rain is 20 minutes away.
        let later = Self.tampaNow.addingTimeInterval(600)
        let outlook = try #require(tenMinutes.nowcastOutlook(at: later))
        #expect(minutes(outlook.startsAt, after: later) == 20)

        clock.advance(360)  // 16 minutes after the fetch.
        let old = try await caching.fetch(query(tampa)).report
        #expect(server.requests.count == 1)
        #expect(old.nowcast != nil)
        #expect(!old.nowcastIsCurrent)
        #expect(old.nowcastOutlook(at: Self.tampaNow.addingTimeInterval(960)) == nil)
        let rendered = JSONReport.render(location: Location(coordinate: tampa, timestamp: Self.tampaNow, source: .fixed),
                                         report: old, now: Self.tampaNow.addingTimeInterval(960))
        let problems = try await JSONSchemaCheck.problems([rendered], as: "report")
        #expect(problems.isEmpty, "\(problems)")
        let json = try #require(JSONSerialization.jsonObject(with: Data(rendered.utf8)) as? [String: Any])
        let nowcast = try #require((json["weather"] as? [String: Any])?["nowcast"] as? [String: Any])
        #expect(nowcast["current"] as? Bool == false)
        #expect(nowcast["precipitation_starts"] is NSNull)
        #expect(nowcast["precipitation_now"] is NSNull)
    }
}
