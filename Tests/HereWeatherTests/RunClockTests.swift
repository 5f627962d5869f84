import Foundation
import Synchronization
import Testing
@testable import HereWeatherCore
import HereWeatherHTTP
import HereWeatherWiFi

/// Every part keeps time on the run's clock (issue 32): a deadline is read on the clock it is
/// an instant of, and a transport gets the real time it leaves (`TransportDeadline`). A test
/// clock that stood still for an hour while real time went on tells the two apart: on it, the
/// deadlines below are still ahead; on the real clock, long past.
@Suite struct RunClockTests {
    static let standingStill = Duration.seconds(3600)

    @Test func aTransferGetsTheTimeTheDeadlineLeavesOnTheRunsClock() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": .fixture("weather/open-meteo/tampa-metric.json")])
        let clock = TestClock(behind: Self.standingStill)
        let response = try await CurlHTTPClient(clock: clock)
            .get(HTTPRequest(url: server.baseURL + "/v1/forecast", deadline: clock.deadline(after: .seconds(60))))
        #expect(response.status == 200)
    }

    /// The Wi-Fi source asks the service when its deadline leaves time on the run's clock
    /// (it compared the deadline with the real clock: "no time left", nothing sent).
    @Test func theWiFiSourceReadsTheTimeLeftOnTheRunsClock() async throws {
        let service = try await NetworkManagerService.started(fixture: "home.json")
        defer { service.stop() }
        let server = try WiFiLocationProviderTests.geolocateServer()
        let clock = TestClock(behind: Self.standingStill)
        let provider = WiFiLocationProvider(settings: WiFiSettings(baseURL: server.baseURL + "/v1/geolocate", key: nil),
                                            scanner: NetworkManagerScanner(address: service.address, clock: clock,
                                                                           presenceBound: WiFiLocationProviderTests.presenceBound),
                                            http: CurlHTTPClient(clock: clock), memory: nil, clock: clock)
        let fix = try await provider.requestLocation(WiFiLocationProviderTests.request(on: clock))
        #expect(fix.source == .wifi)
        #expect(server.receivedRequests.count == 1)
        #expect(fix.timestamp == clock.date)
    }

    /// The NWS's one retry of a server error waits only when the deadline leaves time for
    /// it: on the run's clock (it read the real clock, and never retried here).
    @Test func theNWSRetryReadsTheTimeLeftOnTheRunsClock() async throws {
        let answered = Mutex(0)
        let server = try NWSServiceTests.server { request in
            guard request.target.hasPrefix("/points/") else { return nil }
            let first = answered.withLock { count -> Bool in
                count += 1
                return count == 1
            }
            return first ? .fixture("weather/nws/problem-500-unexpected.json", status: 500) : nil
        }
        let clock = TestClock(behind: Self.standingStill)
        let exchange = NWSExchange(baseURL: server.baseURL, userAgent: "here-weather-test", http: CurlHTTPClient(clock: clock),
                                   clock: clock, pause: { _ in })
        let response = try await exchange.get(server.baseURL + "/points/27.95,-82.46", deadline: clock.deadline(after: .seconds(60)))
        #expect(response.status == 200)
        #expect(answered.withLock { $0 } == 2)
    }

    /// A fixed location (and `--lat/--lon`) is dated at the run's now.
    @Test func aFixedLocationIsDatedOnTheRunsClock() async throws {
        let clock = TestClock(date: Date(timeIntervalSince1970: 1_700_000_000))
        let place = FixedPlace(coordinate: Coordinate(latitude: 27.95, longitude: -82.46))
        let fix = try await FixedLocationProvider(place: place, configPath: "/c.toml", clock: clock)
            .requestLocation(LocationRequest(start: clock.now))
        #expect(fix.timestamp == clock.date)
    }

    /// The text report counts a fix's age to the run's now (it read the machine's clock).
    @Test func theTextReportCountsAgesToTheRunsNow() throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let fix = Location(coordinate: Coordinate(latitude: 27.95, longitude: -82.46), horizontalAccuracy: 8,
                           timestamp: now.addingTimeInterval(-180), source: .gpsd, mode: 3)
        let report = try OpenMeteoWeatherProvider(baseURL: "https://api.open-meteo.com", http: UnusedHTTPClient(), clock: TestClock())
            .report(fromRecording: Fixtures.data("weather/open-meteo/tampa-metric.json"), units: .metric)
        let text = TextReport(location: fix, report: report, style: TerminalStyle(colour: false, glyphs: false), now: now).render()
        #expect(text.contains("GPS ±8 m, 3 min ago"), "\(text)")
    }
}
