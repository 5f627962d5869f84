import Foundation
import Glibc
import HereWeatherCore

/// The real GeoClue 2.6 daemon (Debian `geoclue-2.0`) for one test, on a private system-like bus.
///
/// `Fixtures/geoclue/environment.sh` does the work, inside `unshare --mount --net` (as root, as
/// on CI; an ordinary user's inside a user namespace of their own that keeps their uid,
/// `TestUser.namespaces`, so that GeoClue, its agent and the binary outside are one user to
/// D-Bus): in the test's own mount namespace the harness's `geoclue.conf` is bind-mounted over
/// `/etc/geoclue/geoclue.conf`; in its own network namespace only loopback exists, with a default
/// route through it, so nothing GeoClue does can leave the machine. It starts a geolocate server
/// (Ichnaea format, `Fixtures/geoclue/geolocate-server.py`) on 127.0.0.1:8999 of that namespace,
/// a `dbus-daemon` with `Fixtures/geoclue/system-bus.conf` on `unix:path=<dir>/bus`, GeoClue,
/// and GeoClue's demo agent. The bus is a socket file, so the binary under test (in the host's
/// network namespace) reaches it through `DBUS_SYSTEM_BUS_ADDRESS` (`environment`).
///
/// Measured with GeoClue 2.6.0 on this machine (where-am-i, from `geoclue-2-demo`, and the binary):
/// * 2.6 has no static source. Without wpa_supplicant the Wi-Fi source asks its `url=` with an
///   empty body (`{}`) and reports the answer at city level (4).
/// * Without a default route GeoClue's network monitor says "no network" and starts no web
///   source ("Not starting GClueWifi (accuracy level: 0)"); `ip route add default dev lo` is enough.
/// * A client asking for city (4) or neighbourhood (5) gets a scrambled fix: the 25 m answer comes
///   out about 1 km away with an accuracy of 3025 m. Street (6) and exact (8) get it as served.
/// * With no agent registered for the client's user, GetClient never answers (geoclue.log:
///   "Client `:1.1` waiting for agent for user ID '0'"), even with `system=true` for the app.
/// * An app section with `allowed=false` fails Start with
///   `org.freedesktop.DBus.Error.AccessDenied: 'APP' disallowed by configuration for UID 0`.
///
/// Lifetime: the script runs in its own process group, whose number is `unshare`'s pid
/// (`ChildProcess`), and reads its standard input, a pipe only this harness writes to, as a
/// lifeline: `stop()`, `deinit`, or the death of the test process closes it, and the script kills
/// what it started and removes the directory. `stop()` then kills the whole process group anyway
/// after 3 s (and `ChildGuardian` does at once if the test process dies). (It ran under `setsid` before, which forks when
/// started as a group leader: the group `stop()` killed was the one its exited parent had left
/// empty, a number the kernel may give to another test's process meanwhile.)
final class GeoClueHarness: @unchecked Sendable {
    struct HarnessError: Error, CustomStringConvertible {
        let description: String
    }

    /// What runs, and how the `[here-weather]` app section of geoclue.conf reads.
    struct Options: Sendable {
        /// Whether GeoClue runs, is only listed as activatable (not running), or is absent.
        var geoclue = GeoClue.running
        /// Start GeoClue's demo agent (false: GeoClue 2.6 never answers GetClient).
        var agent = true
        /// `[here-weather] allowed=`; nil leaves the app out of geoclue.conf (the agent decides).
        var appAllowed: Bool? = true
        /// The geolocate service's answer, and how many seconds it takes to give it.
        var response = Fixtures.url("geoclue/geolocate-response.json")
        var responseDelay: Double = 0
    }

    enum GeoClue: String, Sendable {
        case running = "yes", activatable, absent = "no"
    }

    /// The environment's process group (unshare, the script and all it starts).
    var processGroup: pid_t { process.pid }

    /// The bus address for `DBUS_SYSTEM_BUS_ADDRESS`.
    let busAddress: String
    /// `DBUS_SYSTEM_BUS_ADDRESS` for the binary under test.
    var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": busAddress] }

    private let directory: String
    private let process: ChildProcess
    private let lifeline: ChildPipe
    private let stopping = OnceFlag()

    private init(directory: String, process: ChildProcess, lifeline: ChildPipe) {
        self.directory = directory
        self.process = process
        self.lifeline = lifeline
        busAddress = "unix:path=\(directory)/bus"
    }

    deinit { stop() }

    /// Starts the environment and returns once GeoClue (and its agent) are on the bus; startup
    /// blocks for a second or more, so it runs on a thread of its own.
    static func started(_ options: Options = Options()) async throws -> GeoClueHarness {
        try await BlockingCall.run { Result { try GeoClueHarness.start(options) } }
    }

    private static func start(_ options: Options) throws -> GeoClueHarness {
        try TestUser.requireUserNamespaces()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("geoclue-harness-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var conf = try String(contentsOf: Fixtures.url("geoclue/geoclue.conf"), encoding: .utf8)
        if let allowed = options.appAllowed {
            conf += "\n[here-weather]\nallowed=\(allowed)\nsystem=false\nusers=\n"
        }
        try conf.write(toFile: directory + "/geoclue.conf", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: options.response.path, toPath: directory + "/response.json")
        try String(options.responseDelay).write(toFile: directory + "/delay", atomically: true, encoding: .utf8)

        let lifeline = try ChildPipe(forInput: true), output = try ChildPipe()
        let script = ["/bin/bash", Fixtures.url("geoclue/environment.sh").path, directory, options.geoclue.rawValue,
                      options.agent ? "yes" : "no"]
        let process = try ChildProcess(TestUser.namespaces(["--mount", "--net", "--fork", "--kill-child"], script),
                                       environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C"],
                                       stdin: .use(lifeline.childEnd), stdout: .use(output.childEnd))
        lifeline.closeChildEnd()
        output.closeChildEnd()
        let harness = GeoClueHarness(directory: directory, process: process, lifeline: lifeline)

        // "ready" on stdout, or the end of it when the script failed; bounded by the lifeline
        // closing (stop) after 30 s.
        let timer = DispatchWorkItem { harness.stop() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: timer)
        let first = readFirstLine(output.ourEnd)
        timer.cancel()
        guard first == "ready" else {
            let log = harness.logs
            harness.stop()
            throw HarnessError(description: "GeoClueHarness: the environment did not start (\(first ?? "no output")); logs:\n\(log)")
        }
        return harness
    }

    /// environment.sh's and GeoClue's logs so far, for failure messages.
    var logs: String {
        ["environment.log", "geoclue.log", "agent.log"].map { name in
            let text = (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? "(none)"
            return "== \(name)\n\(text.suffix(6000))"
        }.joined(separator: "\n")
    }

    /// The requests GeoClue sent to the geolocate service, one "path body" line each.
    var geolocateRequests: [String] {
        ((try? String(contentsOfFile: directory + "/requests.log", encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    /// Waits up to `limit` for `text` to appear in GeoClue's log.
    func waitForLog(_ text: String, limit: Duration = .seconds(20)) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if logs.contains(text) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return logs.contains(text)
    }

    /// Stops everything: closes the lifeline, waits up to 3 s, then kills the process group.
    func stop() {
        guard stopping.claim() else { return }
        lifeline.closeOurEnd()
        if process.wait(within: .seconds(3)) == nil { process.terminate() }
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// One line (without the newline) from `descriptor`, or nil at the end of the stream.
private func readFirstLine(_ descriptor: Int32) -> String? {
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while true {
        let count = read(descriptor, &byte, 1)
        if count < 0 && errno == EINTR { continue }
        guard count == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
        if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
        bytes.append(byte)
    }
}
