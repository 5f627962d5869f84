import Foundation
import Glibc
import Testing
@testable import HereWeatherCore
import HereWeatherDBus

/// `--follow` on a private system bus (the release binary, `DBUS_SYSTEM_BUS_ADDRESS`), where a
/// test service (Tests/Services/sleep_and_network.py) plays logind's PrepareForSleep and
/// NetworkManager's State, Connectivity and PrimaryConnection: a resume and the network
/// coming up ask the IP service again; nothing is asked while asleep or offline. Without a
/// bus, logind or NetworkManager it follows on, and `--verbose` says what it could not
/// subscribe to.
@Suite struct FollowBusProcessTests {
    static let script = Fixtures.root.appendingPathComponent("Tests/Services/sleep_and_network.py")

    /// The follower's config: the IP source at `server` (ipinfo), Open-Meteo there too.
    static func config(_ server: FixtureServer) -> String {
        ProviderSetup.ipLocation(server.baseURL).replacing("sources = [\"ip\"]", with: "sources = [\"ip\"]\ntimeout = 600")
            + "\n[weather]\nprovider = \"open-meteo\"\ntimeout = 300\n[weather.open-meteo]\nbase_url = \"\(server.baseURL)\"\n[alerts]\nnws = false\n"
    }

    static func server() throws -> FixtureServer {
        try FixtureServer(routes: ["/v1/forecast": CacheCommandTests.forecast, "/ipinfo/json": .fixture("ip/ipinfo/success.json")])
    }

    /// The service's control: `Sleep(b)`, `Network(u, u, o)`.
    struct Control {
        let bus: DBusConnection

        func call(_ member: String, _ arguments: [DBusValue]) async throws {
            _ = try await bus.call(destination: "org.freedesktop.login1", path: "/org/hereweather/Test",
                                   interface: "org.hereweather.Test", member: member, arguments: arguments,
                                   deadline: .after(.seconds(30)))
        }

        func sleep(_ starting: Bool) async throws { try await call("Sleep", [.bool(starting)]) }

        func network(state: UInt32, connectivity: UInt32, primary: Int) async throws {
            try await call("Network", [.uint32(state), .uint32(connectivity),
                                       .objectPath(primary == 0 ? "/" : "/org/freedesktop/NetworkManager/ActiveConnection/\(primary)")])
        }
    }

    @Test func sleepResumeAndTheNetworkDriveTheFetches() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let bus = try await PrivateBus.started()
        defer { bus.stop() }
        let service = try await BlockingCall.run {
            Result { try bus.launch(["/usr/bin/python3", Self.script.path, "70", "4"], readyLine: "ready") }
        }
        let control = Control(bus: try DBusConnection.connect(address: bus.address))
        let runner = try CommandRunner()
        try runner.writeConfig(Self.config(server))
        let follower = try Follower(runner, ["--format", "%t"], bus: bus.address)
        defer { follower.process.signal(SIGKILL) }
        #expect(try await BlockingCall.run { Result { try service.readLine(timeout: .seconds(60)) } } == "asked",
                "the follower reads NetworkManager's state once subscribed")
        #expect(try await waitUntil { follower.lines == ["26.8°C"] }, "\(follower.stderrText)")
        let ip = { server.requests.filter { $0.hasPrefix("/ipinfo/") }.count }
        #expect(ip() == 1)

        // Asleep, a new connection is held; the resume asks once.
        try await control.sleep(true)
        try await control.network(state: 70, connectivity: 4, primary: 2)
        try await control.sleep(false)
        #expect(try await waitUntil { ip() == 2 }, "\(server.requests)")

        // Offline, the resume is held; the network coming up asks once.
        try await control.network(state: 20, connectivity: 1, primary: 0)
        try await control.sleep(true)
        try await control.sleep(false)
        try await control.network(state: 70, connectivity: 4, primary: 3)
        #expect(try await waitUntil { ip() == 3 }, "\(server.requests)")

        // A marker on the other channel: SIGUSR1 asks Open-Meteo past the cache. Any held
        // fetch made twice would have asked ipinfo before it.
        let forecasts = server.requests.filter { $0.hasPrefix("/v1/forecast") }.count
        follower.process.signal(SIGUSR1)
        #expect(try await waitUntil { server.requests.filter { $0.hasPrefix("/v1/forecast") }.count == forecasts + 1 })
        #expect(ip() == 3, "one location request per resume or new network: \(server.requests)")
        follower.process.signal(SIGTERM)
        let end = try await BlockingCall.run { .success(follower.process.wait(within: .seconds(60))) }
        #expect(end == .exited(0), "\(follower.stderrText)")
    }

    /// A bus with neither logind nor NetworkManager, and no bus at all: the line still comes,
    /// SIGUSR1 still refreshes, and `--verbose` says what is not followed, one line each.
    @Test(arguments: [true, false])
    func withoutTheServicesItFollowsOnTimersAndSignals(_ hasBus: Bool) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let bus = hasBus ? try await PrivateBus.started() : nil
        defer { bus?.stop() }
        let runner = try CommandRunner()
        try runner.writeConfig(FollowCommandTests.config(server.baseURL))
        let follower = try Follower(runner, ["--format", "%t", "--verbose"], bus: bus?.address ?? Follower.noBus)
        defer { follower.process.signal(SIGKILL) }
        #expect(try await waitUntil { follower.lines == ["26.8°C"] }, "\(follower.stderrText)")
        follower.process.signal(SIGUSR1)
        #expect(try await waitUntil { server.requests.count == 2 }, "\(server.requests)")
        follower.process.signal(SIGTERM)
        let end = try await BlockingCall.run { .success(follower.process.wait(within: .seconds(60))) }
        #expect(end == .exited(0))
        let notes = follower.stderrText.split(separator: "\n").filter { $0.hasPrefix("--follow: ") }
        if hasBus {
            #expect(notes.count == 2, "\(follower.stderrText)")
            #expect(notes.contains { $0.contains("logind (org.freedesktop.login1) is not on the system bus") })
            #expect(notes.contains { $0.contains("NetworkManager (org.freedesktop.NetworkManager) is not on the system bus") })
        } else {
            #expect(notes.count == 1, "\(follower.stderrText)")
            #expect(notes.first?.contains("Cannot reach the system D-Bus") == true, "\(follower.stderrText)")
        }
    }
}

/// Polls `condition` for up to a minute; a wait, not a timing assertion.
private func waitUntil(_ condition: () -> Bool) async throws -> Bool {
    let end = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < end {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}
