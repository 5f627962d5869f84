import Foundation
import Glibc
import HereWeatherCore

/// A private `dbus-daemon` (Debian `dbus-daemon`) on a unix socket in a temporary folder,
/// one per test: the code under test reaches it through `DBUS_SYSTEM_BUS_ADDRESS`.
///
/// The policy is a system bus's without its restrictions: anyone may own any name and send
/// anything, so test services (`launch`) can take NetworkManager's or GeoClue's name.
///
/// Lifetime: the daemon and every launched service run under `sh`, which kills them
/// (SIGKILL) when its stdin, a "lifeline" pipe only this process writes, reaches its end:
/// on `stop()`, `deinit`, or the test process dying for any reason. (Children of
/// Foundation's `Process` inherit the test runner's signal mask, in which SIGTERM is
/// blocked, so SIGTERM would not do.) Our ends of the pipes are close-on-exec, so other
/// tests' children cannot hold a lifeline open; `stop()` still kills the program itself
/// (its pid is in a file) if `sh` has not ended within 3 s.
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
    private let daemon: LifelineProcess
    private let lock = NSLock()
    private var services: [LifelineProcess] = []

    /// Starts a daemon and waits until it prints its address (it then accepts connections).
    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("here-weather-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("bus.conf")
        try Self.config(socket: directory.appendingPathComponent("bus").path).write(to: config, atomically: true, encoding: .utf8)
        daemon = try LifelineProcess(["/usr/bin/dbus-daemon", "--config-file=\(config.path)", "--nofork", "--print-address=1"],
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
    func launch(_ arguments: [String], environment extra: [String: String] = [:], readyLine: String? = nil) throws -> LifelineProcess {
        var environment = self.environment
        for (key, value) in extra { environment[key] = value }
        let service = try LifelineProcess(arguments, environment: environment)
        lock.withLock { services.append(service) }
        if let readyLine {
            let line = try service.readLine(timeout: .seconds(60))
            guard line == readyLine else {
                throw BusError.notReady("\(arguments.joined(separator: " ")) said \(line.debugDescription), not \(readyLine); stderr: \(service.stderrText())")
            }
        }
        return service
    }

    /// Stops every service and the daemon, and removes the folder.
    func stop() {
        let running = lock.withLock { () -> [LifelineProcess] in
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

/// A program run under `sh`, which SIGKILLs it when the lifeline (its stdin) closes.
final class LifelineProcess: @unchecked Sendable {
    private let process = Process()
    private let lifeline = Pipe()
    private let output = Pipe()
    private let errors: URL
    private let pidFile: URL
    private var buffered = Data()
    private let stopping = OnceFlag()

    init(_ arguments: [String], environment: [String: String]) throws {
        errors = FileManager.default.temporaryDirectory.appendingPathComponent("here-weather-service-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        pidFile = errors.deletingPathExtension().appendingPathExtension("pid")
        for descriptor in [lifeline.fileHandleForWriting.fileDescriptor, output.fileHandleForReading.fileDescriptor] {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The program's stdin is /dev/null; sh keeps the lifeline and waits on it.
        process.arguments = ["-c", "\(quoted) </dev/null 2>>'\(errors.path)' & child=$!; echo $child >'\(pidFile.path)'; cat >/dev/null; kill -9 $child 2>/dev/null; wait $child 2>/dev/null"]
        var env = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardInput = lifeline
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
    }

    /// The next line the program writes on stdout, waiting at most `timeout`.
    func readLine(timeout: Duration) throws -> String {
        let deadline = ContinuousClock.now + timeout
        let descriptor = output.fileHandleForReading.fileDescriptor
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[buffered.startIndex..<newline], as: UTF8.self)
                buffered.removeSubrange(buffered.startIndex...newline)
                return line
            }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { throw PrivateBus.BusError.notReady("no line within \(timeout); stderr: \(stderrText())") }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(min(remaining.components.seconds * 1000 + 1, 200))) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { throw PrivateBus.BusError.notReady("the program ended; stderr: \(stderrText())") }
            buffered.append(contentsOf: chunk[0..<count])
        }
    }

    /// What the program wrote on stderr so far.
    func stderrText() -> String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

    /// Closes the lifeline (the program is killed) and waits for `sh`.
    func stop() {
        guard stopping.claim() else { return }
        try? lifeline.fileHandleForWriting.close()
        if !process.waitForExit(within: .seconds(3)) {
            // Someone else holds the lifeline open: end the program and sh directly.
            if let text = try? String(contentsOf: pidFile, encoding: .utf8), let child = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                kill(child, SIGKILL)
            }
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitForExit(within: .seconds(5))
        try? FileManager.default.removeItem(at: errors)
        try? FileManager.default.removeItem(at: pidFile)
    }

    deinit { stop() }
}
