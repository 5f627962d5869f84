import Foundation
import Glibc
import HereWeatherCore

/// A private `dbus-daemon` (Debian `dbus-daemon`) on a unix socket in a temporary folder,
/// one per test: the code under test reaches it through `DBUS_SYSTEM_BUS_ADDRESS`.
///
/// The policy is a system bus's without its restrictions: anyone may own any name and send
/// anything, so test services (`launch`) can take NetworkManager's or GeoClue's name.
///
/// Lifetime: the daemon and every launched service are `ChildProcess`es, each in a process
/// group of its own: `stop()` and `deinit` kill each group (SIGKILL), and `ChildGuardian` does
/// if the test process dies for any reason.
final class PrivateBus: @unchecked Sendable {
    enum BusError: Error, CustomStringConvertible {
        case notReady(String)
        var description: String {
            switch self { case .notReady(let text): return "PrivateBus: \(text)" }
        }
    }

    /// The bus's address, as `DBUS_SYSTEM_BUS_ADDRESS` wants it.
    let address: String
    /// The temporary folder holding the socket and the config.
    let directory: URL
    private let daemon: ServiceProcess
    private let lock = NSLock()
    private var services: [ServiceProcess] = []

    /// Starts a daemon and waits until it prints its address (it then accepts connections).
    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("here-weather-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("bus.conf")
        try Self.config(socket: directory.appendingPathComponent("bus").path).write(to: config, atomically: true, encoding: .utf8)
        daemon = try ServiceProcess(["/usr/bin/dbus-daemon", "--config-file=\(config.path)", "--nofork", "--print-address=1"],
                                     environment: [:])
        let line = try daemon.readLine(timeout: .seconds(20))
        guard line.hasPrefix("unix:") else { throw BusError.notReady("dbus-daemon printed no address: \(line)") }
        address = line
    }

    /// `init` on a thread of its own, for async tests.
    static func started() async throws -> PrivateBus {
        try await BlockingCall.run { Result { try PrivateBus() } }
    }

    /// The environment that points a program at this bus.
    var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": address] }

    /// Runs `arguments` (a service) with this bus as its system bus; it is stopped with the bus.
    /// Waits for its first line on stdout when `readyLine` is set (a service says it is ready).
    @discardableResult
    func launch(_ arguments: [String], environment extra: [String: String] = [:], readyLine: String? = nil) throws -> ServiceProcess {
        var environment = self.environment
        for (key, value) in extra { environment[key] = value }
        let service = try ServiceProcess(arguments, environment: environment)
        lock.withLock { services.append(service) }
        if let readyLine {
            let line = try service.readLine(timeout: .seconds(60))
            guard line == readyLine else {
                throw BusError.notReady("\(arguments.joined(separator: " ")) said \(line.debugDescription), not \(readyLine); stderr: \(service.stderrText())")
            }
        }
        return service
    }

    /// Sends `signal` to the daemon: SIGSTOP wedges the bus (its socket still accepts, and
    /// nothing answers), SIGCONT frees it. `stop()` kills a stopped daemon as well.
    func signalDaemon(_ signal: Int32) { daemon.signal(signal) }

    /// Stops every service and the daemon, and removes the folder.
    func stop() {
        let running = lock.withLock { () -> [ServiceProcess] in
            defer { services = [] }
            return services
        }
        for service in running { service.stop() }
        daemon.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }

    static func config(socket: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <allow own="*"/>
            <allow send_type="method_call"/>
            <allow send_destination="*"/>
            <allow receive_sender="*"/>
          </policy>
        </busconfig>
        """
    }
}

/// A program on the bus: stdin from /dev/null, stdout read line by line (`readLine`), stderr
/// into a file; stopped by killing its process group.
final class ServiceProcess: @unchecked Sendable {
    private let process: ChildProcess
    private let output: ChildPipe
    private let errors: URL
    private var buffered = Data()
    private let stopping = OnceFlag()

    init(_ arguments: [String], environment: [String: String]) throws {
        errors = FileManager.default.temporaryDirectory.appendingPathComponent("here-weather-service-\(UUID().uuidString).err")
        let errorFile = open(errors.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard errorFile >= 0 else { throw PrivateBus.BusError.notReady("cannot create \(errors.path)") }
        defer { close(errorFile) }
        var env = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        for (key, value) in environment { env[key] = value }
        output = try ChildPipe()
        process = try ChildProcess(arguments, environment: env, stdout: .use(output.childEnd), stderr: .use(errorFile))
        output.closeChildEnd()
    }

    /// The next line the program writes on stdout, waiting at most `timeout`.
    func readLine(timeout: Duration) throws -> String {
        let deadline = ContinuousClock.now + timeout
        let descriptor = output.ourEnd
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[buffered.startIndex..<newline], as: UTF8.self)
                buffered.removeSubrange(buffered.startIndex...newline)
                return line
            }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { throw PrivateBus.BusError.notReady("no line within \(timeout); stderr: \(stderrText())") }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(clamping: min(remaining.wholeMilliseconds + 1, 200))) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw PrivateBus.BusError.notReady("the program ended; stderr: \(stderrText())") }
            buffered.append(contentsOf: chunk[0..<count])
        }
    }

    /// What the program wrote on stderr so far.
    func stderrText() -> String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

    /// Sends `signal` to the program.
    func signal(_ signal: Int32) { process.signal(signal) }

    /// Kills the program's process group; it is reaped on a thread of its own (`stop()` runs in
    /// async tests' `defer`s, on the cooperative pool).
    func stop() {
        guard stopping.claim() else { return }
        process.killGroup()
        _ = BlockingCall.startThread { [process] in process.wait() }
        try? FileManager.default.removeItem(at: errors)
    }

    deinit { stop() }
}
