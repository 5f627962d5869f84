import Foundation
import Synchronization
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore

/// No `[location] sources`: the zero-config chain (gpsd, GeoClue, Wi-Fi, IP, then the fixed
/// location), end to end with the built binary, a real gpsd and an IP service on loopback.
/// The config files here only say where gpsd and the IP service are.
@Suite struct ZeroConfigTests {
    /// No system bus: GeoClue and Wi-Fi positioning are not present, whatever the machine runs.
    static let environment = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/here-weather-test-bus"]

    static func config(gpsdPort: UInt16, ip server: FixtureServer) -> String {
        """
        version = 1
        [location.gpsd]
        host = "127.0.0.1"
        port = \(gpsdPort)
        [location.ip]
        services = ["ipinfo"]
        [location.ip.ipinfo]
        base_url = "\(server.baseURL)/ipinfo"
        """
    }

    func ipServer() throws -> FixtureServer {
        try FixtureServer(routes: ["/ipinfo/json": .fixture("ip/ipinfo/success.json")])
    }

    @Test func theFirstRunOnATerminalAsksOnceAboutEveryPresentSourceAndRemembers() async throws {
        let harness = try await GPSDHarness.started()
        defer { harness.stop() }
        let server = try ipServer()
        let runner = try CommandRunner()
        try runner.writeConfig(Self.config(gpsdPort: harness.port, ip: server))
        harness.feed(Fixtures.url("nmea/simulated.nmea"))
        let arguments = ["where", "--json", "--timeout", "30", "--max-age", "off"]
        let run = try TerminalCommandRun(runner, arguments, environment: Self.environment)
        let shown = try await run.waitFor("[Y/n/o]: ")
        #expect(shown.components(separatedBy: "would like to use your location").count == 2, "one prompt")
        #expect(shown.contains("  gpsd (GPS receiver): nothing leaves this machine\r\n"))
        #expect(shown.contains("  IP lookup: sends your IP address to 127.0.0.1\r\n"))
        #expect(!shown.contains("GeoClue") && !shown.contains("Wi-Fi"), "absent sources are not asked about")
        #expect(server.requests.isEmpty, "nothing is sent before the answer")
        run.type("y\n")
        let (status, output) = try await run.finish()
        #expect(status == 0)
        let location = try #require((try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])?["location"] as? [String: Any])
        #expect(location["source"] as? String == "gpsd", "the GPS fix meets 3 km; the IP guess does not")

        // Remembered: the next run, without a terminal, asks nothing and uses both sources.
        #expect(PermissionStore(path: runner.home.path + "/.local/state/here-weather/permissions.toml").load().decisions
                == [.gpsd: .allow, .ip: .allow])
        let second = try await runner.run(["where", "--json", "--timeout", "3", "--max-age", "off"],
                                          environment: Self.environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.isEmpty, "no prompt, no refusal")
        let source = (second.json?["location"] as? [String: Any])?["source"] as? String
        #expect(source == "gpsd" || source == "ip", "\(second.stdout)")
    }

    @Test func withoutATerminalItExits77WithTheCommandAndSendsNothing() async throws {
        let harness = try await GPSDHarness.started(device: false)
        defer { harness.stop() }
        let server = try ipServer()
        let runner = try InProcessCommand(queued: false)
        try runner.writeConfig(Self.config(gpsdPort: harness.port, ip: server))
        let result = try await runner.run(["where"], environment: Self.environment, assembly: .gpsdOnly)
        #expect(result.status == 77)
        #expect(result.stderr.contains("Run `here-weather permissions allow gpsd ip` (or `deny`) once."), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line")
        #expect(server.requests.isEmpty, "no request to a third party without permission")
    }

    @Test func gpsdNotRunningIsNotAskedAbout() async throws {
        let nothing = try ClosedPort()   // bound, not listening: connections are refused
        let server = try ipServer()
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config(gpsdPort: nothing.port, ip: server))
        let result = try await runner.run(["where"], environment: Self.environment, assembly: .gpsdOnly)
        #expect(result.status == 77)
        #expect(result.stderr.contains("Run `here-weather permissions allow ip` (or `deny`) once."), "\(result.stderr)")
        #expect(!result.stderr.contains("gpsd"), "an absent source is skipped silently")
    }

    @Test func withAFixedLocationAndNoTerminalTheFixedLocationAnswers() async throws {
        let nothing = try ClosedPort()
        let server = try ipServer()
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config(gpsdPort: nothing.port, ip: server)
                               + "\n[location.fixed]\nlatitude = 27.95\nlongitude = -82.46\naccuracy = 100\n")
        let result = try await runner.run(["where", "--json"], environment: Self.environment, assembly: .gpsdOnly)
        #expect(result.status == 0, "\(result.stderr)")
        #expect((result.json?["location"] as? [String: Any])?["source"] as? String == "fixed")
        #expect(server.requests.isEmpty, "IP lookup is not permitted yet")
    }

    @Test func timeAtThePromptIsNotTakenFromTheTimeout() async throws {
        let nothing = try ClosedPort()
        let server = try ipServer()
        let runner = try CommandRunner()
        try runner.writeConfig(Self.config(gpsdPort: nothing.port, ip: server))
        let run = try TerminalCommandRun(runner, ["where", "--json", "--timeout", "4", "--accuracy", "any"],
                                         environment: Self.environment)
        _ = try await run.waitFor("[Y/n/o]: ")
        // The user reads, then answers: longer than the whole timeout, which leaves the IP
        // lookup 4 s once the sources start (ample on a loaded machine).
        try await Task.sleep(for: .seconds(5))
        run.type("y\n")
        let (status, output) = try await run.finish()
        #expect(status == 0, "the 4 s timeout starts when the sources start")
        #expect(output.contains("\"source\":\"ip\""), "\(output)")
        #expect(server.requests == ["/ipinfo/json"])
    }

    @Test func theFirstQualifyingFixEndsTheRequestWhicheverSourceGaveIt() async throws {
        // gpsd runs, but its receiver never fixes (indoors): the fixed location, lower in
        // priority, qualifies at once and ends the request. On a test clock that never moves,
        // the 10 s deadline never comes: the run can only end because the fix ended it (this
        // replaces a bound of 5 s of real time against the 10 s deadline).
        let clock = TestClock()
        let gpsd = NeverFixingGPSD(clock: clock)
        let runner = try InProcessCommand(queued: false)
        try runner.writeConfig("""
            version = 1
            [location]
            sources = ["gpsd", "fixed"]
            timeout = 10
            [location.gpsd]
            permission = "allow"
            [location.fixed]
            latitude = 27.95
            longitude = -82.46
            accuracy = 100
            """)
        let system = RunSystem.test(gpsd: .standIn { _ in gpsd }, clock: clock)
        let result = try await runner.run(["where", "--json"], killAfter: .seconds(60), assembly: .test(system))
        #expect(!result.killed, "ended without its deadline")
        #expect(result.status == 0, "\(result.stderr)")
        #expect((result.json?["location"] as? [String: Any])?["source"] as? String == "fixed")
        #expect(gpsd.log.withLock { $0 }.isEmpty, "the fixed place answered at once: gpsd was never started")
    }
}

/// A gpsd whose receiver never fixes: it waits on `clock` for the request's deadline and
/// records that it started and how it ended.
final class NeverFixingGPSD: LocationSourceProvider {
    let clock: TestClock
    let log = Mutex<[String]>([])

    init(clock: TestClock) {
        self.clock = clock
    }

    var source: LocationSource { .gpsd }

    func requestLocation(_ request: LocationRequest) async throws -> Location {
        log.withLock { $0.append("started") }
        do {
            try await clock.sleep(until: request.deadline, tolerance: nil)
        } catch {
            log.withLock { $0.append("cancelled") }
            throw error
        }
        throw LocationError.gpsdSilent(address: "127.0.0.1:2947", seconds: request.timeoutSeconds)
    }
}
