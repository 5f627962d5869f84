import Foundation
import Testing

/// The CoreLocation flow end to end with the built binary: permissions gate the sources,
/// the IP source answers through a local server, and nothing leaves the machine unpermitted.
@Suite struct LocationFlowTests {
    func ipConfig(_ server: FixtureServer, permission: String? = nil, extra: String = "") -> String {
        """
        version = 1
        [location]
        sources = ["ip"]
        \(extra)
        [location.ip]
        \(permission.map { "permission = \"\($0)\"" } ?? "")
        services = ["ipinfo", "ipwhois"]
        [location.ip.ipinfo]
        base_url = "\(server.baseURL)/ipinfo"
        [location.ip.ipwhois]
        base_url = "\(server.baseURL)/ipwhois"
        """
    }

    func ipServer() throws -> FixtureServer {
        try FixtureServer(routes: [
            "/ipinfo/json": .fixture("ip/ipinfo/success.json"),
            "/ipwhois/": .fixture("ip/ipwhois/success.json"),
        ])
    }

    @Test func aPermittedIPLookupAnswersWithItsProvenance() async throws {
        let server = try ipServer()
        let runner = try InProcessCommand()
        try runner.writeConfig(ipConfig(server, permission: "allow"))
        let result = try await runner.run(["where", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let location = try #require(result.json?["location"] as? [String: Any])
        #expect(location["source"] as? String == "ip")
        #expect(location["service"] as? String == "ipinfo.io")
        #expect(location["accuracy_m"] as? Double == 25_000)
        #expect(location["meets_accuracy"] as? Bool == false, "an IP fix never pretends to meet 3km")
        #expect(server.requests == ["/ipinfo/json"])
        let text = try await runner.run(["where", "--accuracy", "any"])
        let accuracy = text.stdout.split(separator: "\n").first { $0.hasPrefix("Accuracy:") } ?? ""
        #expect(accuracy.contains("25000 m (assumed: city level)"), "no HDOP for an IP fix: \(accuracy)")
        // At the default 3 km, the report says what the user needs to know (city level), not
        // the rule it missed (issue 15, item 11).
        let byDefault = try await runner.run(["where"])
        #expect(byDefault.status == 0, "\(byDefault.stderr)")
        #expect(byDefault.stdout.contains("city level"), "\(byDefault.stdout)")
        #expect(!byDefault.stdout.contains("does not meet the desired accuracy"), "\(byDefault.stdout)")
        let report = try await runner.run(["--weather-replay", Fixtures.url("weather/open-meteo/tampa-metric.json").path])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("≈ city"), "\(report.stdout)")
        #expect(!report.stdout.contains("less accurate than asked"), "\(report.stdout)")
    }

    @Test func anUndecidedIPLookupWithoutATerminalSendsNothing() async throws {
        let server = try ipServer()
        let runner = try InProcessCommand()
        try runner.writeConfig(ipConfig(server))
        let result = try await runner.run(["where"])
        #expect(result.status == 77)
        #expect(result.stderr.contains("here-weather permissions allow ip"))
        #expect(server.requests.isEmpty, "no request to a third party without permission")
    }

    @Test func aDeniedSourceSendsNothingAndSaysHowToAllowIt() async throws {
        let server = try ipServer()
        let runner = try InProcessCommand()
        try runner.writeConfig(ipConfig(server, permission: "deny"))
        let result = try await runner.run(["where", "--json"])
        #expect(result.status == 77)
        #expect((result.json?["error"] as? [String: Any])?["code"] as? String == "not_permitted")
        #expect(server.requests.isEmpty)
    }

    @Test func theMasterSwitchRefusesAutomaticSourcesButNotExplicitInput() async throws {
        let server = try ipServer()
        let runner = try InProcessCommand()
        try runner.writeConfig(ipConfig(server, permission: "allow", extra: "enabled = false"))
        let refused = try await runner.run(["where"])
        #expect(refused.status == 77)
        #expect(refused.stderr.contains("enabled = true"))
        #expect(server.requests.isEmpty)
        let explicit = try await runner.run(["where", "--lat", "27.95", "--lon", "-82.46"])
        #expect(explicit.status == 0, "\(explicit.stderr)")
        let replay = try await runner.run(["where", "--replay", Fixtures.url("nmea/hdop-only.nmea").path])
        #expect(replay.status == 0, "\(replay.stderr)")
    }

    @Test func aRememberedGrantWorksAndTheLastLocationIsReused() async throws {
        let server = try ipServer()
        let runner = try InProcessCommand()
        try runner.writeConfig(ipConfig(server))
        #expect(try await runner.run(["permissions", "allow", "ip"]).status == 0)
        let first = try await runner.run(["where", "--json", "--accuracy", "any"])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try await runner.run(["where", "--json", "--accuracy", "any"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(server.requests.count == 1, "the second run answered from the remembered location")
        #expect((second.json?["location"] as? [String: Any])?["service"] as? String == "ipinfo.io")
    }

    @Test func failoverToTheNextService() async throws {
        let server = try FixtureServer(routes: [
            "/ipinfo/json": .fixture("ip/ipinfo/rate-limited-429.json", status: 429),
            "/ipwhois/": .fixture("ip/ipwhois/success.json"),
        ])
        let runner = try InProcessCommand()
        try runner.writeConfig(ipConfig(server, permission: "allow"))
        let result = try await runner.run(["where", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect((result.json?["location"] as? [String: Any])?["service"] as? String == "ipwho.is")
        #expect(server.requests == ["/ipinfo/json", "/ipwhois/"])
    }
}

/// The permission prompt end to end: the built binary on a pseudo-terminal.
@Suite struct PromptEndToEndTests {
    @Test func answeringYesOnATerminalGrantsAndRemembers() async throws {
        let server = try FixtureServer(routes: ["/ipinfo/json": .fixture("ip/ipinfo/success.json")])
        let runner = try CommandRunner()
        try runner.writeConfig("""
            version = 1
            [location]
            sources = ["ip"]
            [location.ip]
            services = ["ipinfo"]
            [location.ip.ipinfo]
            base_url = "\(server.baseURL)/ipinfo"
            """)
        let run = try TerminalCommandRun(runner, ["where", "--json", "--accuracy", "any"])
        let shown = try await run.waitFor("[Y/n/o]: ")
        #expect(shown.contains("here-weather would like to use your location from:"))
        #expect(server.requests.isEmpty, "nothing is sent before the answer")
        run.type("y\n")
        let (status, output) = try await run.finish()
        #expect(status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        #expect((json?["location"] as? [String: Any])?["source"] as? String == "ip")
        #expect(server.requests == ["/ipinfo/json"])

        // Remembered: a later run without a terminal is allowed, and `permissions` says why.
        let shownLater = try await runner.run(["permissions"])
        #expect(shownLater.stdout.contains("ip"))
        #expect(shownLater.stdout.contains("allow"))
        let later = try await runner.run(["where", "--json", "--accuracy", "any", "--max-age", "off"])
        #expect(later.status == 0, "\(later.stderr)")
    }
}
