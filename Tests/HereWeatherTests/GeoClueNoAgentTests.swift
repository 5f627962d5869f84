import Foundation
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore
@testable import HereWeatherDBus

/// Zero config with GeoClue present but no agent, and IP allowed (issue 22 item 5): the first
/// run learns, the next ones skip GeoClue and answer from IP, until the situation may have
/// changed. The chain's shape and the command in-process; the real D-Bus path once, through
/// the binary and the GeoClue stand-in in its no-agent modes.
@Suite struct GeoClueNoAgentTests {
    typealias ScriptedGeoClue = GeoClueAgentMemoryTests.ScriptedGeoClue

    static func allowGeoClueAndIP(home: URL) throws {
        try PermissionStore(path: home.path + "/.local/state/here-weather/permissions.toml").save([.geoclue: .allow, .ip: .allow])
    }

    static func statePath(home: URL) -> String {
        home.path + "/.local/state/here-weather/geoclue-no-agent.json"
    }

    /// Only the zero-config chain skips a GeoClue remembered without an agent: not with
    /// `--source geoclue`, nor with sources written in the file, nor with `[location.geoclue]
    /// permission` written there.
    @Test func onlyTheZeroConfigChainSkips() async throws {
        let clock = TestClock()
        let memory = try GeoClueAgentMemoryTests.memory()
        let state = URL(fileURLWithPath: memory.path).deletingLastPathComponent().deletingLastPathComponent().path
        let environment = ["XDG_SESSION_ID": "7", "XDG_STATE_HOME": state]
        let now = GeoClueAgentSituation.current(date: clock.date, environment: environment)
        memory.save(GeoClueAgentMemory.Remembered(reason: .getClientUnanswered, since: clock.date, bootID: now.bootID,
                                                  session: now.session, busNames: [":1.1", ":1.7"]))
        let geoClue = ScriptedGeoClue(.failure(.noAgent(seconds: 10)))
        let system = RunSystem.test(geoClue: .standIn { geoClue }, clock: clock)
        let zero = Configuration()
        var configured = Configuration()
        configured.location.sources = [.geoclue, .ip]
        var permitted = Configuration()
        permitted.location.permissions[.geoclue] = .allow
        let cases: [(Configuration, [LocationSource]?, Bool)] = [
            (zero, nil, true), (zero, [.geoclue], false), (configured, nil, false), (permitted, nil, false),
        ]
        for (config, only, skipped) in cases {
            let run = Run.test(config, environment: environment, system: system)
            #expect(run.storage.geoClueAgent.path == memory.path)
            let provider = run.locationProvider(override: nil, only: only, authorizer: AllowAllAuthorizer(), geocodingProvider: nil)
            let remembering = try #require(provider as? RememberingLocationProvider)
            let chain = try #require(remembering.base as? LocationSourceChain)
            let gate = try #require(chain.providers.first { $0.source == .geoclue } as? GeoClueAgentGate)
            #expect(gate.skips == skipped, "\(String(describing: only)) \(config.location.isZeroConfig)")
            #expect(await GeoClueAgentMemoryTests.reaches(gate, geoClue) == !skipped)
        }
    }

    /// Through the command: the first run learns (GeoClue asked once), the second skips GeoClue,
    /// says so with `--verbose`, and answers from IP; `--source geoclue` still asks it.
    @Test func theCommandLearnsThenSkipsAndSaysWhy() async throws {
        let server = try FixtureServer(routes: ["/ipinfo/json": .fixture("ip/ipinfo/success.json")])
        let nothing = try ClosedPort()
        let runner = try InProcessCommand()
        try runner.writeConfig(ZeroConfigTests.config(gpsdPort: nothing.port, ip: server))
        try Self.allowGeoClueAndIP(home: runner.home)
        let geoClue = ScriptedGeoClue(.failure(.noAgent(seconds: 10)))
        let assembly = SystemAssembly.test(RunSystem.test(gpsd: .absent, geoClue: .standIn { geoClue }, wifiScanner: .absent))
        let environment = ["XDG_SESSION_ID": "7"]

        let first = try await runner.run(["where", "--json"], environment: environment, killAfter: .seconds(60), assembly: assembly)
        #expect(first.status == 0, "\(first.stderr)")
        #expect((first.json?["location"] as? [String: Any])?["source"] as? String == "ip")
        #expect(geoClue.requests.load(ordering: .relaxed) == 1)
        #expect(FileManager.default.fileExists(atPath: Self.statePath(home: runner.home)))

        let second = try await runner.run(["where", "--json", "--verbose"], environment: environment, killAfter: .seconds(60),
                                          assembly: assembly)
        #expect(second.status == 0, "\(second.stderr)")
        #expect((second.json?["location"] as? [String: Any])?["source"] as? String == "ip")
        #expect(geoClue.requests.load(ordering: .relaxed) == 1, "GeoClue was not asked")
        #expect(second.stderr.contains("GeoClue skipped: it had no agent for your user in an earlier run"), "\(second.stderr)")
        #expect(second.stderr.contains(Self.statePath(home: runner.home)), "\(second.stderr)")

        let another = try await runner.run(["where", "--json"], environment: ["XDG_SESSION_ID": "8"], killAfter: .seconds(60),
                                           assembly: assembly)
        #expect(another.status == 0, "\(another.stderr)")
        #expect(geoClue.requests.load(ordering: .relaxed) == 2, "a new login: GeoClue asked again")

        let explicit = try await runner.run(["where", "--source", "geoclue"], environment: environment, killAfter: .seconds(60),
                                            assembly: assembly)
        #expect(explicit.status == ExitStatus.noLocation.rawValue, "\(explicit.stderr)")
        #expect(geoClue.requests.load(ordering: .relaxed) == 3, "--source geoclue is always asked")
        #expect(explicit.stderr.contains("agent"), "\(explicit.stderr)")

        // When every source fails, GeoClue's line says it was not asked, why, and the fix.
        try PermissionStore(path: runner.home.path + "/.local/state/here-weather/permissions.toml")
            .save([.geoclue: .allow, .ip: .deny])
        let failed = try await runner.run(["where"], environment: environment, killAfter: .seconds(60), assembly: assembly)
        #expect(failed.status != 0)
        #expect(geoClue.requests.load(ordering: .relaxed) == 3, "skipped")
        #expect(failed.stderr.contains("GeoClue was not asked: it had no agent for your user in an earlier run"), "\(failed.stderr)")
        #expect(failed.stderr.contains("demos/agent"), "\(failed.stderr)")
    }

    /// `doctor` asks GeoClue whatever is remembered, and names the remembered state and the fix.
    @Test func doctorNamesTheRememberedStateAndTheFix() async throws {
        let server = try FixtureServer(routes: ["/ipinfo/json": .fixture("ip/ipinfo/success.json")])
        let nothing = try ClosedPort()
        let runner = try InProcessCommand()
        // The weather and NWS alerts checks (the IP fix is in the US) ask a closed port on this
        // machine, never the real services.
        try runner.writeConfig(ZeroConfigTests.config(gpsdPort: nothing.port, ip: server)
                               + "\n[weather.open-meteo]\nbase_url = \"\(nothing.baseURL)\"\n"
                               + "[weather.nws]\nbase_url = \"\(nothing.baseURL)\"\n")
        try Self.allowGeoClueAndIP(home: runner.home)
        let geoClue = ScriptedGeoClue(.failure(.notAllowed(reason: "'here-weather' disallowed, no agent for UID 1000")))
        let assembly = SystemAssembly.test(RunSystem.test(gpsd: .absent, geoClue: .standIn { geoClue }, wifiScanner: .absent))
        let result = try await runner.run(["doctor", "--json"], killAfter: .seconds(60), assembly: assembly)
        let checks = try #require(result.json?["checks"] as? [[String: Any]], "\(result.stdout)")
        let line = try #require(checks.first { $0["name"] as? String == "geoclue" })
        let detail = line["detail"] as? String ?? ""
        #expect(line["status"] as? String == "fail")
        #expect(detail.contains("Remembered in \(Self.statePath(home: runner.home)) since "), "\(detail)")
        #expect(detail.contains("GeoClue refused the client: no GeoClue agent runs for your user"), "\(detail)")
        #expect(detail.contains("start a GeoClue agent"), "\(detail)")
        #expect(detail.contains("[here-weather] allowed=true system=false users="), "\(detail)")
        #expect(geoClue.requests.load(ordering: .relaxed) == 1)

        geoClue.outcome.withLock { $0 = .success(GeoClueAgentMemoryTests.tampa) }
        let fixed = try await runner.run(["doctor", "--json"], killAfter: .seconds(60), assembly: assembly)
        let again = try #require((fixed.json?["checks"] as? [[String: Any]])?.first { $0["name"] as? String == "geoclue" })
        #expect(again["status"] as? String == "ok", "\(fixed.stdout)")
        #expect(!FileManager.default.fileExists(atPath: Self.statePath(home: runner.home)), "GeoClue answered: forgotten")
    }

    /// The real D-Bus path, with the release binary and the GeoClue stand-in without an agent
    /// (2.6: GetClient unanswered; 2.8: Start refused): the first run learns and ends with the
    /// IP fix; the second asks GeoClue nothing (no GetClient on the stand-in) and answers from
    /// IP; a new boot id in the state file, or a corrupt file, makes the next run ask again.
    /// The wall times are printed (no timing assertion).
    @Test(arguments: ["no-agent-getclient.json", "no-agent-start.json"])
    func theSecondRunSkipsGeoClue(fixture: String) async throws {
        let service = try await GeoClueService.started(fixture: fixture)
        defer { service.stop() }
        let server = try FixtureServer(routes: ["/ipinfo/json": .fixture("ip/ipinfo/success.json")])
        let nothing = try ClosedPort()
        let runner = try CommandRunner()
        try runner.writeConfig(ZeroConfigTests.config(gpsdPort: nothing.port, ip: server))
        try Self.allowGeoClueAndIP(home: runner.home)
        let state = Self.statePath(home: runner.home)
        let arguments = ["where", "--json", "--verbose", "--timeout", "4"]
        func getClients() -> Int { service.calls.filter { $0 == "GetClient" }.count }
        func runWhere(_ what: String) async throws -> CommandRunner.Result {
            let result = try await runner.run(arguments, environment: service.environment, killAfter: .seconds(60))
            #expect(!result.killed)
            #expect(result.status == 0, "\(what): \(result.stderr)")
            #expect((result.json?["location"] as? [String: Any])?["source"] as? String == "ip", "\(what): \(result.stdout)")
            print("GeoClue without an agent (\(fixture)), \(what): \(result.elapsed)")
            return result
        }

        let first = try await runWhere("first run")
        #expect(getClients() == 1)
        let learned = try String(contentsOfFile: state, encoding: .utf8)
        #expect(learned.contains(fixture.contains("start") ? "refused-no-agent" : "getclient-unanswered"), "\(learned)")
        #expect(first.stderr.contains("remembered in \(state)"), "\(first.stderr)")

        let second = try await runWhere("second run")
        #expect(getClients() == 1, "no GetClient: GeoClue skipped")
        #expect(second.stderr.contains("GeoClue skipped"), "\(second.stderr)")

        let rebooted = learned.replacingOccurrences(of: #""boot_id":""#, with: #""boot_id":"another-boot-"#)
        #expect(rebooted != learned, "\(learned)")
        try rebooted.write(toFile: state, atomically: true, encoding: .utf8)
        let afterBoot = try await runWhere("after a new boot")
        #expect(getClients() == 2, "asked again")
        #expect(afterBoot.stderr.contains("the machine has booted since"), "\(afterBoot.stderr)")

        try "{\"version\":1,\"reason\":".write(toFile: state, atomically: true, encoding: .utf8)
        _ = try await runWhere("with a corrupt state file")
        #expect(getClients() == 3, "a corrupt file is no memory: asked again")
        #expect((try? String(contentsOfFile: state, encoding: .utf8))?.contains("\"version\":1") == true, "learned anew")
    }

    /// The bus check on a real bus (the stand-in's): the names are listed, a connection of
    /// this user's from another process counts (as an agent's would), this process's own
    /// connections do not, and a name gone meanwhile is no sign.
    @Test func aNewConnectionOfTheUsersIsSeenOnTheBus() async throws {
        let service = try await GeoClueService.started(fixture: "no-agent-getclient.json")
        defer { service.stop() }
        let provider = GeoClueLocationProvider(connect: { try DBusConnection.connect(address: service.address) }, clock: ContinuousClock())
        let before = try #require(await provider.busNames())
        #expect(before.allSatisfy { $0.hasPrefix(":") } && !before.isEmpty, "\(before)")
        let mine = try DBusConnection.connect(address: service.address)
        _ = try mine.nameHasOwner("org.freedesktop.GeoClue2")   // connected: it has a unique name now
        let withMine = try #require(await provider.busNames())
        #expect(await provider.userConnections(among: withMine.subtracting(before)) == [], "this process's own connection")

        let agent = "import asyncio\nfrom dbus_next.aio import MessageBus\nasync def main():\n"
            + "    bus = await MessageBus(bus_address=\"\(service.address)\").connect()\n"
            + "    print('ready', flush=True)\n    await bus.wait_for_disconnect()\nasyncio.run(main())\n"
        _ = try await BlockingCall.run {
            Result { try service.bus.launch(["/usr/bin/python3", "-c", agent], readyLine: "ready") }
        }
        let after = try #require(await provider.busNames())
        // New: the agent's, and the connection each check of this process's makes.
        let new = after.subtracting(withMine)
        let found = try #require(await provider.userConnections(among: new))
        #expect(found.count == 1 && new.count >= 2, "\(found) of \(new): only the other process's counts")
        #expect(await provider.userConnections(among: [":1.999999"]) == [], "no such connection")
        #expect(GeoClueLocationProvider.isHereWeather(pid: UInt32(getpid())) == false)
        withExtendedLifetime(mine) {}
    }
}
