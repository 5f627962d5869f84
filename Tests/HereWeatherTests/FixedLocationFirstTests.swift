import Foundation
import Testing
@testable import HereWeatherCore

/// Zero config with a fixed location, through the release binary: a fixed location without a
/// stated accuracy, or within the desired one, is the answer before anything is asked or
/// started; a coarser one is the fallback after the live sources. A running gpsd (present,
/// so it would be asked about) and an IP service on loopback that must see no request.
@Suite struct FixedLocationFirstTests {
    /// No system bus: GeoClue and Wi-Fi positioning are not present, whatever the machine runs.
    static let environment = ZeroConfigTests.environment

    /// ZeroConfigTests' gpsd and IP lookup, with a fixed place of `fixedAccuracy` metres.
    static func config(gpsdPort: UInt16, ip server: FixtureServer, fixedAccuracy: Int?) -> String {
        ZeroConfigTests.config(gpsdPort: gpsdPort, ip: server) + """

        [location.fixed]
        latitude = 27.95
        longitude = -82.46
        \(fixedAccuracy.map { "accuracy = \($0)" } ?? "")
        """
    }

    static func ipServer() throws -> FixtureServer {
        try FixtureServer(routes: ["/ipinfo/json": .fixture("ip/ipinfo/success.json")])
    }

    /// nil: no stated accuracy; 100 m: within the default 3 km.
    @Test(arguments: [nil, 100] as [Int?])
    func onATerminalNothingIsAskedAndNothingIsSent(fixedAccuracy: Int?) async throws {
        let harness = try await GPSDHarness.started()
        defer { harness.stop() }
        let server = try Self.ipServer()
        let runner = try CommandRunner()
        try runner.writeConfig(Self.config(gpsdPort: harness.port, ip: server, fixedAccuracy: fixedAccuracy))
        harness.feed(Fixtures.url("nmea/simulated.nmea"))
        let run = try TerminalCommandRun(runner, ["where", "--json", "--timeout", "20"], environment: Self.environment)
        // Should a prompt show, this answer ends it (and the test fails) rather than hanging.
        run.type("n\n")
        let (status, output) = try await run.finish()
        let shown = run.shownWithoutWaiting()
        #expect(status == 0, "\(shown)")
        #expect(!shown.contains("would like to use your location") && !shown.contains("[Y/n/o]"), "asked: \(shown)")
        let location = try #require((try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])?["location"] as? [String: Any])
        #expect(location["source"] as? String == "fixed")
        #expect(location["meets_accuracy"] as? Bool == true)
        #expect(server.requests.isEmpty, "the IP service was contacted: \(server.requests)")
        #expect(!FileManager.default.fileExists(atPath: runner.home.path + "/.local/state/here-weather/permissions.toml"),
                "no decision was asked for or remembered")
    }

    @Test func aCoarserFixedLocationIsTheFallbackAndWithoutATerminalUndecidedSourcesAreSkippedWithOneWarning() async throws {
        let harness = try await GPSDHarness.started()
        defer { harness.stop() }
        let server = try Self.ipServer()
        let runner = try CommandRunner()
        try runner.writeConfig(Self.config(gpsdPort: harness.port, ip: server, fixedAccuracy: 50_000))
        let result = try await runner.run(["where", "--json", "--timeout", "5"], environment: Self.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let location = try #require(result.json?["location"] as? [String: Any])
        #expect(location["source"] as? String == "fixed")
        #expect(location["meets_accuracy"] as? Bool == false, "50 km does not meet 3 km: the fallback")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one warning line: \(result.stderr)")
        #expect(result.stderr.contains("Skipped gpsd (GPS receiver) and IP lookup: they need your permission"), "\(result.stderr)")
        #expect(result.stderr.contains("`here-weather permissions allow gpsd ip`"), "\(result.stderr)")
        #expect(server.requests.isEmpty, "IP lookup is not permitted yet")
    }

    @Test func aCoarserFixedLocationOnATerminalStillAsksAboutTheLiveSourcesFirst() async throws {
        let nothing = try ClosedPort()   // gpsd not running: absent
        let server = try Self.ipServer()
        let runner = try CommandRunner()
        try runner.writeConfig(Self.config(gpsdPort: nothing.port, ip: server, fixedAccuracy: 50_000))
        let run = try TerminalCommandRun(runner, ["where", "--json", "--timeout", "10"], environment: Self.environment)
        let shown = try await run.waitFor("[Y/n/o]: ")
        #expect(shown.contains("IP lookup"))
        run.type("y\n")
        let (status, output) = try await run.finish()
        #expect(status == 0)
        #expect(output.contains("\"source\":\"ip\""), "the IP guess (city-level) beats 50 km: \(output)")
        #expect(server.requests == ["/ipinfo/json"])
    }
}
