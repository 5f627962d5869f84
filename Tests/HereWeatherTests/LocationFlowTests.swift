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

    @Test func aPermittedIPLookupAnswersWithItsProvenance() throws {
        let server = try ipServer()
        let runner = try CommandRunner()
        try runner.writeConfig(ipConfig(server, permission: "allow"))
        let result = try runner.run(["where", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let location = try #require(result.json?["location"] as? [String: Any])
        #expect(location["source"] as? String == "ip")
        #expect(location["service"] as? String == "ipinfo.io")
        #expect(location["accuracy_m"] as? Double == 25_000)
        #expect(location["meets_accuracy"] as? Bool == false, "an IP fix never pretends to meet 3km")
        #expect(server.requests == ["/ipinfo/json"])
    }

    @Test func anUndecidedIPLookupWithoutATerminalSendsNothing() throws {
        let server = try ipServer()
        let runner = try CommandRunner()
        try runner.writeConfig(ipConfig(server))
        let result = try runner.run(["where"])
        #expect(result.status == 77)
        #expect(result.stderr.contains("here-weather permissions allow ip"))
        #expect(server.requests.isEmpty, "no request to a third party without permission")
    }

    @Test func aDeniedSourceSendsNothingAndSaysHowToAllowIt() throws {
        let server = try ipServer()
        let runner = try CommandRunner()
        try runner.writeConfig(ipConfig(server, permission: "deny"))
        let result = try runner.run(["where", "--json"])
        #expect(result.status == 77)
        #expect((result.json?["error"] as? [String: Any])?["code"] as? String == "not_permitted")
        #expect(server.requests.isEmpty)
    }

    @Test func theMasterSwitchRefusesAutomaticSourcesButNotExplicitInput() throws {
        let server = try ipServer()
        let runner = try CommandRunner()
        try runner.writeConfig(ipConfig(server, permission: "allow", extra: "enabled = false"))
        let refused = try runner.run(["where"])
        #expect(refused.status == 77)
        #expect(refused.stderr.contains("enabled = true"))
        #expect(server.requests.isEmpty)
        let explicit = try runner.run(["where", "--lat", "27.95", "--lon", "-82.46"])
        #expect(explicit.status == 0, "\(explicit.stderr)")
        let replay = try runner.run(["where", "--replay", Fixtures.url("nmea/hdop-only.nmea").path])
        #expect(replay.status == 0, "\(replay.stderr)")
    }

    @Test func aRememberedGrantWorksAndTheLastLocationIsReused() throws {
        let server = try ipServer()
        let runner = try CommandRunner()
        try runner.writeConfig(ipConfig(server))
        #expect(try runner.run(["permissions", "allow", "ip"]).status == 0)
        let first = try runner.run(["where", "--json", "--accuracy", "any"])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try runner.run(["where", "--json", "--accuracy", "any"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(server.requests.count == 1, "the second run answered from the remembered location")
        #expect((second.json?["location"] as? [String: Any])?["service"] as? String == "ipinfo.io")
    }

    @Test func failoverToTheNextService() throws {
        let server = try FixtureServer(routes: [
            "/ipinfo/json": .fixture("ip/ipinfo/rate-limited-429.json", status: 429),
            "/ipwhois/": .fixture("ip/ipwhois/success.json"),
        ])
        let runner = try CommandRunner()
        try runner.writeConfig(ipConfig(server, permission: "allow"))
        let result = try runner.run(["where", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect((result.json?["location"] as? [String: Any])?["service"] as? String == "ipwho.is")
        #expect(server.requests == ["/ipinfo/json", "/ipwhois/"])
    }
}
