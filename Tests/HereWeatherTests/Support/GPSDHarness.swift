import Foundation
import Glibc
import HereWeatherCore

/// A private, real gpsd (3.22, Debian bookworm) fed from a pseudo-terminal the test controls.
///
/// The command line (see `gpsdArguments`), run through a tiny `sh` "lifeline" wrapper:
///
///     GPSD_SHM_KEY=0x47704854 /usr/sbin/gpsd -N -n -b -D 2 -S <port> -F <tmpdir>/control.sock [/dev/pts/N]
///
/// * `-N` foreground: logs go to stderr (which the harness reads) instead of syslog, and the pid stays ours.
/// * `-n` open the device at start-up instead of on the first watcher: `init` can then confirm through
///   `?DEVICES` that gpsd holds the pty before returning, so nothing written later can be lost to an open.
/// * `-b` read-only. **Required on a pty**: without it gpsd writes its probe strings into the device
///   (`$PASHQ,RID`, `@F0.3=1`, SiRF/Garmin/TSIP binary, ...) and then `tcdrain`s, which on a pty blocks until
///   someone reads the master side; measured: gpsd hangs and never even accepts the client's connection.
/// * `-D 2` (LOG_CLIENT) logs every client command as `gpsd:CLIENT: <= client(N): ?WATCH={...}` and every
///   reply as `=> client(N): ...`; that is how the harness sees watchers (below).
/// * `-S <port>`: without `-G` gpsd listens on loopback only: 127.0.0.1 **and** [::1] on that port
///   (checked with `ss -ltnp`). The port is one we found free on both, outside the ephemeral range.
/// * `-F <private socket>`: gpsd 3.22 refuses to start with no device and no control socket
///   ("can't run with neither control socket nor devices"), so a private control socket is always given;
///   gpsd never touches /var/run/gpsd.sock or a systemd socket (LISTEN_FDS/LISTEN_PID are not passed on;
///   the environment is only PATH, LANG=C and GPSD_SHM_KEY). gpsd does not scan for real devices itself.
/// * `GPSD_SHM_KEY`: gpsd always creates a shared-memory export segment (default key 0x47505344, the
///   system gpsd's). Run as root it drops privileges and then cannot remove it on exit
///   ("shmctl for IPC_RMID failed"), so one fixed private key is used: at most one stale segment, reused.
///   Run as root it also creates the NTP SHM segments 0x4e545030..37 (ntpshm); harmless here.
/// * Every run logs `gpsd:ERROR: unable to connect to the DBUS system bus`: harmless, ignored.
///
/// Quirks measured on this machine:
/// * A pty shows up in `DEVICES` at once (with `-n`), `"bps":38400`, `"activated"` set and no `driver`.
///   gpsd identifies the NMEA0183 driver from the first valid sentence (about 2 ms after the first
///   write); it then sends a `DEVICE` object with `"driver":"NMEA0183"` to watchers.
/// * A device that sends nothing: a watcher gets `VERSION`, `DEVICES` (the device, no driver), `WATCH`,
///   and then nothing at all (no TPV, no keep-alive).
/// * No device (`device: false`): the watcher gets `{"class":"DEVICES","devices":[]}` right after `VERSION`,
///   in reply to `?WATCH` (also to `?DEVICES;`), then `WATCH`.
/// * Before gpsd has learned which sentence ends an NMEA cycle (i.e. during the first epoch) it sends a TPV
///   after *every* sentence: first from GGA alone, with mode/lat/lon but **no time** ("can't use GGA time
///   until after ZDA or RMC has supplied a year"), then after GSA, then after RMC with the time. From the
///   second epoch on it sends one TPV (and one GST) per epoch.
/// * `gpsdecode -j` (the reference decoder) never reports the first epoch's TPV: its TPVs start with the
///   second epoch, each carrying that epoch's GGA time and position. The daemon's per-epoch TPVs
///   (time, lat, lon, mode) equal gpsdecode's; the daemon additionally reports epoch one.
/// * Data written while nobody watches is read and dropped (with `-n`): a client that connects later sees
///   none of it. Plain `gpsfake` loses the start of a log for this reason, and for writing before gpsd has
///   opened the device at all.
///
/// Watcher detection: with `-D 2` gpsd writes `<= client(N): ?WATCH={"enable":true,...}` to stderr
/// (unbuffered) while it handles the command; the `WATCH` reply and the subscription happen in the same
/// pass of its main loop, before it selects on the device again. So any byte the harness writes into the
/// pty *after* reading that line is read by gpsd in a later pass, when the client is already subscribed:
/// nothing can be lost. The harness keeps a set of watching clients (added by `?WATCH` with enable true,
/// removed by `"enable":false` or `eof read`).
///
/// * With `-n` gpsd opens the pty at start-up and, even with `-b`, runs its driver probes (switching the
///   line to 9600 8O1/8N1 and back), about 1 s; the port accepts connections at once (kernel backlog) but
///   gpsd sends `VERSION` only after that. `init` therefore takes about 1 s with a device, ~20 ms without.
///   Started as root, gpsd then runs as uid 102 / gid 20 (dialout); the pty is made 0666 like gpsfake does.
/// * gpspipe block-buffers its output into a file or pipe (run it under `stdbuf -oL`). The test runner's
///   threads block most signals (SIGTERM among them); gpsd, like every `ChildProcess`, starts with an
///   empty mask and default handlers.
///
/// Lifetime: gpsd runs under `sh` in its own process group; `sh` also holds the read end of a "lifeline"
/// pipe whose write end only this process holds. `stop()` (and `deinit`, and the death of the test process
/// for any reason, even SIGKILL) closes the lifeline, and a background reader in `sh` then sends gpsd
/// SIGTERM; `sh` reaps gpsd, removes the temporary directory and exits (checked by SIGKILLing the test runner). If that takes longer than 3 s, the whole group gets SIGKILL
/// (and `ChildGuardian` SIGKILLs it at once if the test process dies).
/// A parent-death signal would not do: gpsd started as root drops privileges, which clears it.
final class GPSDHarness: @unchecked Sendable {
    enum HarnessError: Error, CustomStringConvertible {
        case system(String)
        case gpsdExited(status: ChildProcess.Termination, stderr: String)
        case notReady(String, stderr: String)
        case tool(String)

        var description: String {
            switch self {
            case .system(let message): return "GPSDHarness: \(message)"
            case .gpsdExited(let status, let stderr):
                return "GPSDHarness: gpsd exited early (\(status)); its stderr:\n\(stderr)"
            case .notReady(let message, let stderr):
                return "GPSDHarness: gpsd not ready: \(message); its stderr:\n\(stderr)"
            case .tool(let message): return "GPSDHarness: \(message)"
            }
        }
    }

    static let gpsdPath = "/usr/sbin/gpsd"
    static let shmKey = "0x47704854"

    let port: UInt16
    /// The pty slave path gpsd opened, or nil without a device.
    var devicePath: String? { state.withLock { _ in devicePathValue } }
    private let devicePathValue: String?
    /// How long `feed` waits for a watcher before giving up (and writing nothing).
    var watcherTimeout: Duration {
        get { state.withLock { $0.watcherTimeout } }
        set { state.withLock { $0.watcherTimeout = newValue } }
    }

    /// Whether the whole log has been written (and gpsd has read it from the pty).
    var finishedFeeding: Bool { state.withLock { $0.finishedFeeding } }
    /// Why the last feed stopped early, if it did (no watcher in time, harness stopped, write error).
    var feedError: String? { state.withLock { $0.feedError } }
    /// The gpsd process group (= the wrapper's pid).
    var processGroup: pid_t { pid }
    /// gpsd's stderr so far (the last 256 KiB).
    var gpsdStderr: String { state.withLock { $0.stderrText } }
    /// Clients currently watching, by gpsd's client index.
    var watchingClients: Set<Int> { state.withLock { $0.watchers } }
    /// The number of `?WATCH` enables seen so far.
    var watchEnables: Int { state.withLock { $0.watchEnables } }

    /// What each process of gpsd's group is doing (`ProcessGroup.report`): a gpsd that does not
    /// answer is either stopped (`T`), blocked in the kernel (`wchan` says where), or busy (`R`).
    var processReport: String { ProcessGroup.report(pid) }

    /// The last `count` lines gpsd wrote to stderr.
    func stderrTail(_ count: Int = 30) -> String {
        gpsdStderr.split(separator: "\n").suffix(count).joined(separator: "\n")
    }

    private let state: State
    private let pid: pid_t
    private let masterFD: Int32
    private let slaveFD: Int32
    private let lifelineFD: Int32
    private let tempDir: String

    // MARK: start

    init(device: Bool = true) throws {
        let started = try Self.startWithRetries(device: device)
        port = started.port
        pid = started.pid
        masterFD = started.master
        slaveFD = started.slave
        lifelineFD = started.lifeline
        tempDir = started.tempDir
        state = started.state
        devicePathValue = started.devicePath
    }

    /// `init` on a thread of its own, for async tests: starting gpsd blocks for about a second
    /// (longer on a loaded machine), which must not hold one of the few cooperative threads.
    static func started(device: Bool = true) async throws -> GPSDHarness {
        try await BlockingCall.run { Result { try GPSDHarness(device: device) } }
    }

    /// A port taken between our check and gpsd's bind: try another one (4 attempts).
    private static func startWithRetries(device: Bool) throws -> Started {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try start(device: device)
            } catch {
                if error.retryable && attempt < 4 { continue }
                throw error.error
            }
        }
    }

    private struct StartFailure: Error { let error: Error; let retryable: Bool }

    private struct Started {
        let port: UInt16, pid: pid_t, master: Int32, slave: Int32, lifeline: Int32
        let tempDir: String, state: State, devicePath: String?
    }

    private static func start(device: Bool) throws(StartFailure) -> Started {
        func fail(_ error: Error, retryable: Bool = false) -> StartFailure {
            StartFailure(error: error, retryable: retryable)
        }
        var cleanup: [() -> Void] = []
        var ok = false
        defer { if !ok { cleanup.reversed().forEach { $0() } } }

        // Temporary directory for the control socket.
        var template = Array("/tmp/gpsd-harness-XXXXXX".utf8CString)
        guard let dirPointer = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw fail(HarnessError.system("mkdtemp: \(errnoText())"))
        }
        let tempDir = String(cString: dirPointer)
        cleanup.append { _ = try? FileManager.default.removeItem(atPath: tempDir) }

        // The pseudo-terminal.
        var master: Int32 = -1, slave: Int32 = -1, slavePath: String?
        if device {
            do { (master, slave, slavePath) = try openPTY() } catch { throw fail(error) }
            cleanup.append { close(master); close(slave) }
        }

        let port: UInt16
        do { port = try PortPicker.pick() } catch { throw fail(error) }
        cleanup.append { PortPicker.release(port) }

        var gpsdArgs = gpsdArguments(port: port, controlSocket: tempDir + "/control.sock")
        if let slavePath { gpsdArgs.append(slavePath) }

        // Pipes: gpsd's stderr, and the lifeline.
        var errPipe: [Int32] = [-1, -1], lifePipe: [Int32] = [-1, -1]
        guard c_pipe2(&errPipe, O_CLOEXEC) == 0, c_pipe2(&lifePipe, O_CLOEXEC) == 0 else {
            throw fail(HarnessError.system("pipe2: \(errnoText())"))
        }
        cleanup.append { close(errPipe[0]); close(lifePipe[1]) }

        let script = """
            dir=$1; shift
            "$@" 3<&- &
            g=$!
            { read -r _ <&3; kill -TERM "$g"; } 2>/dev/null &
            w=$!
            exec 3<&-
            wait "$g"; rc=$?
            kill "$w" 2>/dev/null
            wait "$w"
            rm -rf "$dir"
            exit "$rc"
            """
        let argv = ["/bin/sh", "-c", script, "gpsd-harness", tempDir, gpsdPath] + gpsdArgs
        let env = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C", "GPSD_SHM_KEY": shmKey]
        let child: ChildProcess
        do {
            // 0 and 1 /dev/null, 2 gpsd's stderr, 3 the lifeline, nothing else.
            child = try ChildProcess(argv, environment: env, stderr: .use(errPipe[1]), extra: [lifePipe[0]])
        } catch { close(errPipe[1]); close(lifePipe[0]); throw fail(error) }
        close(errPipe[1]); close(lifePipe[0])
        let pid = child.pid

        let state = State(child: child)
        Thread.detachNewThread { [errFD = errPipe[0]] in state.readStderr(errFD) }
        // From here on, the lifeline and the reaper do the cleaning.
        cleanup.removeLast()
        cleanup.append {
            close(lifePipe[1])
            state.reap(deadline: .now + .seconds(3))
        }

        // Wait (bounded) until gpsd answers on the port and holds the device.
        do {
            try waitReady(port: port, devicePath: slavePath, state: state, deadline: .now + .seconds(20))
        } catch let error as HarnessError {
            let stderr = state.withLock { $0.stderrText }
            let retryable = stderr.contains("can't bind") || stderr.contains("already running")
            throw fail(error, retryable: retryable)
        } catch {
            throw fail(error)
        }
        ok = true
        return Started(port: port, pid: pid, master: master, slave: slave, lifeline: lifePipe[1],
                       tempDir: tempDir, state: state, devicePath: slavePath)
    }

    /// A config with this gpsd as the only source, always allowed, at any accuracy and age:
    /// `where` answers with gpsd's first fix, however old the log's dates.
    var onlySourceConfig: String {
        """
        version = 1
        [location]
        sources = ["gpsd"]
        accuracy = "any"
        max_age = "off"
        [location.gpsd]
        permission = "allow"
        host = "127.0.0.1"
        port = \(port)
        """
    }

    /// gpsd's options, without the device.
    static func gpsdArguments(port: UInt16, controlSocket: String) -> [String] {
        ["-N", "-n", "-b", "-D", "2", "-S", String(port), "-F", controlSocket]
    }

    private static func waitReady(port: UInt16, devicePath: String?, state: State, deadline: ContinuousClock.Instant) throws {
        var lastProblem = "no connection yet"
        while true {
            if let status = state.exitStatus() {
                throw HarnessError.gpsdExited(status: status, stderr: state.withLock { $0.stderrText })
            }
            if ContinuousClock.now >= deadline {
                throw HarnessError.notReady("not ready within 20 s (\(lastProblem))", stderr: state.withLock { $0.stderrText })
            }
            let stderr = state.withLock { $0.stderrText }
            if stderr.contains("can't bind") {
                throw HarnessError.notReady("gpsd could not bind port \(port)", stderr: stderr)
            }
            do {
                let client = try LineClient(port: port, deadline: min(deadline, .now + .seconds(2)))
                defer { client.close() }
                let version = try client.readObject(deadline: min(deadline, .now + .seconds(2)))
                guard version["class"] as? String == "VERSION" else {
                    throw HarnessError.notReady("port \(port) does not speak gpsd: \(version)", stderr: "")
                }
                try client.send("?DEVICES;", deadline: min(deadline, .now + .seconds(2)))
                var devices: [[String: Any]]?
                while devices == nil {
                    let object = try client.readObject(deadline: min(deadline, .now + .seconds(2)))
                    if object["class"] as? String == "DEVICES" { devices = object["devices"] as? [[String: Any]] ?? [] }
                }
                let paths = devices!.compactMap { $0["path"] as? String }
                if let devicePath {
                    if paths.contains(devicePath) { return }
                    lastProblem = "DEVICES lists \(paths), not yet \(devicePath)"
                } else {
                    return
                }
            } catch let error as HarnessError {
                if case .notReady = error, "\(error)".contains("does not speak gpsd") { throw error }
                lastProblem = "\(error)"
            } catch {
                lastProblem = "\(error)"
            }
            usleep(20_000)
        }
    }

    // MARK: feeding

    /// Writes the NMEA log into the pty on a background thread: by default only once a client watches
    /// (`?WATCH` enable seen in gpsd's debug output, at most `watcherTimeout`), then line by line with
    /// `lineDelay` after each line. `finishedFeeding` turns true once all is written and gpsd has read it.
    func feed(_ log: URL, waitForWatcher: Bool = true, lineDelay: Duration = .milliseconds(1)) {
        guard masterFD >= 0 else {
            state.withLock { $0.feedError = "no device"; $0.finishedFeeding = false }
            return
        }
        let data: Data
        do { data = try Data(contentsOf: log) } catch {
            state.withLock { $0.feedError = "cannot read \(log.path): \(error)"; $0.finishedFeeding = false }
            return
        }
        let ready = state.withLock { s -> Bool in
            if s.stopped || s.feeding { s.feedError = s.stopped ? "stopped" : "already feeding"; return false }
            s.feeding = true
            s.finishedFeeding = false
            s.feedError = nil
            return true
        }
        guard ready else { return }
        let lines = Self.splitLines(data)
        Thread.detachNewThread { [state, masterFD, slaveFD] in
            state.runFeed(lines: lines, master: masterFD, slave: slaveFD,
                          waitForWatcher: waitForWatcher, lineDelay: lineDelay)
        }
    }

    /// Lines including their terminators (CRLF kept as is).
    static func splitLines(_ data: Data) -> [Data] {
        var lines: [Data] = []
        var start = data.startIndex
        for index in data.indices where data[index] == UInt8(ascii: "\n") {
            lines.append(data[start...index])
            start = index + 1
        }
        if start < data.endIndex { lines.append(data[start...]) }
        return lines
    }

    /// Waits (bounded) until the feed finished or failed; returns `finishedFeeding`.
    @discardableResult
    func waitUntilFed(timeout: Duration = .seconds(30)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        return state.withLockWaiting(until: deadline) { s in (!s.feeding, s.finishedFeeding) }
    }

    /// `waitUntilFed` on a thread of its own, for async tests (see `watcherSeen`).
    func fed(timeout: Duration = .seconds(30)) async -> Bool {
        (try? await BlockingCall.run { .success(self.waitUntilFed(timeout: timeout)) }) ?? false
    }

    /// Waits (bounded) until some client watches.
    @discardableResult
    func waitForWatcher(timeout: Duration = .seconds(30)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        return state.withLockWaiting(until: deadline) { s in (!s.watchers.isEmpty, !s.watchers.isEmpty) }
    }

    /// `waitForWatcher` on a thread of its own, for async tests: a blocking wait on one of the
    /// few cooperative threads could starve the very task that is to become the watcher.
    func watcherSeen(timeout: Duration = .seconds(30)) async -> Bool {
        (try? await BlockingCall.run { .success(self.waitForWatcher(timeout: timeout)) }) ?? false
    }

    // MARK: stopping

    /// Stops gpsd (SIGTERM through the lifeline, SIGKILL to the group after 3 s), waits for it, closes
    /// the pty and removes the temporary directory. Idempotent.
    func stop() {
        let first = state.withLock { s -> Bool in
            if s.stopped { return false }
            s.stopped = true
            return true
        }
        guard first else { return }
        state.broadcast()
        // Let the feeder leave (it checks `stopped` between lines and while waiting).
        _ = state.withLockWaiting(until: .now + .seconds(5)) { s in (!s.feeding, true) }
        close(lifelineFD)
        state.reap(deadline: .now + .seconds(3))
        if masterFD >= 0 { close(masterFD) }
        if slaveFD >= 0 { close(slaveFD) }
        try? FileManager.default.removeItem(atPath: tempDir)
        PortPicker.release(port)
    }

    /// `stop` on a thread of its own, for async tests whose point is stopping (it may wait
    /// seconds for gpsd to end).
    func stopped() async {
        _ = try? await BlockingCall.run { .success(self.stop()) }
    }

    deinit { stop() }

    // MARK: the reference decoder

    /// `gpsdecode -j < log`'s TPV objects, in order.
    static func gpsdecodeFixes(_ log: URL) async throws -> [[String: Any]] {
        try await gpsdecodeObjects(log).filter { $0["class"] as? String == "TPV" }
    }

    /// All of `gpsdecode -j < log`'s objects, in order.
    static func gpsdecodeObjects(_ log: URL) async throws -> [[String: Any]] {
        let output = try await runTool("/usr/bin/gpsdecode", ["-j"], stdin: log, timeout: .seconds(20))
        return parseJSONLines(output)
    }

    static func parseJSONLines(_ data: Data) -> [[String: Any]] {
        String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    /// Runs a tool with stdin from a file and stdout captured, killing it after `timeout`; waits
    /// on a thread of its own, never on one of the few cooperative threads.
    static func runTool(_ path: String, _ arguments: [String], stdin: URL?, timeout: Duration) async throws -> Data {
        try await BlockingCall.run { Result { try runToolBlocking(path, arguments, stdin: stdin, timeout: timeout) } }
    }

    private static func runToolBlocking(_ path: String, _ arguments: [String], stdin: URL?, timeout: Duration) throws -> Data {
        let input = stdin.map { open($0.path, O_RDONLY | O_CLOEXEC) } ?? -1
        if let stdin, input < 0 { throw HarnessError.tool("cannot open \(stdin.path): \(errnoText())") }
        defer { if input >= 0 { close(input) } }
        let run = try ChildProcess.run([path] + arguments, environment: ["PATH": "/usr/bin:/bin", "LANG": "C"],
                                       stdin: input >= 0 ? .use(input) : .null, limit: timeout)
        if run.killed { throw HarnessError.tool("\(path) did not finish within \(timeout)") }
        guard run.termination == .exited(0) else { throw HarnessError.tool("\(path) ended with \(run.termination)") }
        return run.stdout
    }
}

// MARK: - shared state

extension GPSDHarness {
    /// Everything the background threads touch, behind one condition lock.
    final class State: @unchecked Sendable {
        let condition = NSCondition()
        let child: ChildProcess
        var stderrText = ""
        var partialLine = ""
        var watchers: Set<Int> = []
        var watchEnables = 0
        var stopped = false
        var feeding = false
        var finishedFeeding = false
        var feedError: String?
        var watcherTimeout: Duration = .seconds(30)
        var stderrClosed = false

        init(child: ChildProcess) { self.child = child }

        func withLock<T>(_ body: (State) throws -> T) rethrows -> T {
            condition.lock(); defer { condition.unlock() }
            return try body(self)
        }

        /// Waits until `body` reports done (first) or the deadline passes; returns its second value then.
        func withLockWaiting(until deadline: ContinuousClock.Instant, _ body: (State) -> (Bool, Bool)) -> Bool {
            condition.lock(); defer { condition.unlock() }
            while true {
                let (done, value) = body(self)
                if done { return value }
                let left = ContinuousClock.now.duration(to: deadline)
                if left <= .zero { return value }
                _ = condition.wait(until: Date(timeIntervalSinceNow: min(left.seconds, 0.05)))
            }
        }

        func broadcast() { condition.lock(); condition.broadcast(); condition.unlock() }

        /// How the wrapper ended, once it has (reaps it without blocking).
        func exitStatus() -> ChildProcess.Termination? { child.exitStatus }

        /// Waits until `deadline` for the wrapper to end, then kills its group.
        func reap(deadline: ContinuousClock.Instant) {
            if child.wait(within: max(ContinuousClock.now.duration(to: deadline), .zero)) == nil { child.terminate() }
        }

        // The stderr reader: keeps a bounded copy and tracks watchers.
        func readStderr(_ fd: Int32) {
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                let text = String(decoding: buffer[0..<count], as: UTF8.self)
                withLock { s in
                    s.stderrText += text
                    if s.stderrText.utf8.count > 262_144 {
                        s.stderrText = String(s.stderrText.suffix(200_000))
                    }
                    s.partialLine += text
                    while let newline = s.partialLine.firstIndex(of: "\n") {
                        s.scan(line: s.partialLine[..<newline])
                        s.partialLine.removeSubrange(...newline)
                    }
                    s.condition.broadcast()
                }
            }
            withLock { $0.stderrClosed = true; $0.condition.broadcast() }
        }

        /// `gpsd:CLIENT: <= client(3): ?WATCH={"enable":true,"json":true};\x0a` and `... eof read`.
        private func scan(line: Substring) {
            guard let marker = line.range(of: "<= client(") else { return }
            let rest = line[marker.upperBound...]
            guard let close = rest.firstIndex(of: ")"), let client = Int(rest[..<close]) else { return }
            let message = rest[rest.index(after: close)...].drop(while: { $0 == ":" || $0 == " " })
            if message.hasPrefix("?WATCH=") {
                if message.contains("\"enable\":false") {
                    watchers.remove(client)
                } else {
                    watchers.insert(client)
                    watchEnables += 1
                }
            } else if message.hasPrefix("eof read") || message.contains("error") {
                watchers.remove(client)
            }
        }

        func runFeed(lines: [Data], master: Int32, slave: Int32, waitForWatcher: Bool, lineDelay: Duration) {
            func finish(_ error: String?) {
                withLock { s in
                    s.feeding = false
                    s.finishedFeeding = error == nil
                    s.feedError = error
                    s.condition.broadcast()
                }
            }
            if waitForWatcher {
                let timeout = withLock { $0.watcherTimeout }
                let deadline = ContinuousClock.now + timeout
                let watched = withLockWaiting(until: deadline) { s in
                    (s.stopped || !s.watchers.isEmpty || s.child.exitStatus != nil, !s.watchers.isEmpty && !s.stopped)
                }
                if !watched {
                    return finish(withLock { $0.stopped } ? "stopped" : "no client sent ?WATCH within \(timeout)")
                }
            }
            for line in lines {
                if withLock({ $0.stopped }) { return finish("stopped") }
                if let error = writeAll(line, to: master, deadline: .now + .seconds(10)) { return finish(error) }
                tcflush(master, TCIFLUSH) // discard anything gpsd might write (nothing, with -b)
                if lineDelay > .zero { sleep(lineDelay) }
            }
            // Wait (bounded) until gpsd has read everything from the pty.
            let deadline = ContinuousClock.now + .seconds(5)
            while ContinuousClock.now < deadline && !withLock({ $0.stopped }) {
                var pending: Int32 = 0
                if ioctl(slave, UInt(FIONREAD), &pending) != 0 || pending == 0 { break }
                usleep(1_000)
            }
            finish(nil)
        }

        private func writeAll(_ data: Data, to fd: Int32, deadline: ContinuousClock.Instant) -> String? {
            var offset = 0
            let bytes = [UInt8](data)
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if written > 0 { offset += written; continue }
                if written < 0 && errno != EAGAIN && errno != EINTR { return "write to pty: \(errnoText())" }
                if ContinuousClock.now >= deadline { return "pty full: gpsd is not reading" }
                if withLock({ $0.stopped }) { return "stopped" }
                var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&pfd, 1, 50)
            }
            return nil
        }

        private func sleep(_ duration: Duration) {
            let (seconds, attoseconds) = duration.components
            var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            var remaining = timespec()
            while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
        }
    }
}

// MARK: - helpers

// Glibc functions the Swift Glibc module does not import (they need _GNU_SOURCE / _XOPEN_SOURCE).
@_silgen_name("pipe2") private func c_pipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32
@_silgen_name("posix_openpt") private func c_posix_openpt(_ flags: Int32) -> Int32
@_silgen_name("grantpt") private func c_grantpt(_ fd: Int32) -> Int32
@_silgen_name("unlockpt") private func c_unlockpt(_ fd: Int32) -> Int32
@_silgen_name("ptsname_r") private func c_ptsname_r(_ fd: Int32, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int) -> Int32

private func errnoText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) + " (\(code))" }

/// A pty in raw mode; the master is non-blocking; both close on exec. The slave stays open here too
/// (as gpsfake does), so bytes written to the master are kept until gpsd reads them.
private func openPTY() throws -> (Int32, Int32, String) {
    let master = c_posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
    guard master >= 0 else { throw GPSDHarness.HarnessError.system("posix_openpt: \(errnoText())") }
    var name = [CChar](repeating: 0, count: 128)
    guard c_grantpt(master) == 0, c_unlockpt(master) == 0, c_ptsname_r(master, &name, name.count) == 0 else {
        let text = errnoText(); close(master)
        throw GPSDHarness.HarnessError.system("pty setup: \(text)")
    }
    let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard slave >= 0 else {
        let text = errnoText(); close(master)
        throw GPSDHarness.HarnessError.system("open \(path): \(text)")
    }
    var attributes = termios()
    tcgetattr(slave, &attributes)
    cfmakeraw(&attributes)
    attributes.c_cflag |= tcflag_t(CREAD | CLOCAL)
    cfsetispeed(&attributes, speed_t(B38400)); cfsetospeed(&attributes, speed_t(B38400))
    tcsetattr(slave, TCSANOW, &attributes)
    chmod(path, 0o666) // gpsd started as root drops privileges
    return (master, slave, path)
}

/// Picks a port free on both 127.0.0.1 and [::1], below the ephemeral range (32768-60999) so that
/// outgoing connections cannot take it meanwhile; ports handed out in this process are not reused
/// until released.
private enum PortPicker {
    nonisolated(unsafe) static var taken: Set<UInt16> = []
    static let lock = NSLock()

    static func pick() throws -> UInt16 {
        for _ in 0..<200 {
            let candidate = UInt16.random(in: 20_000...32_000)
            let fresh = lock.withLock { taken.insert(candidate).inserted }
            guard fresh else { continue }
            if isFree(candidate) { return candidate }
            release(candidate)
        }
        throw GPSDHarness.HarnessError.system("no free port found")
    }

    static func release(_ port: UInt16) { _ = lock.withLock { taken.remove(port) } }

    private static func isFree(_ port: UInt16) -> Bool {
        let v4 = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let v6 = socket(AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(v4); close(v6) }
        var address4 = sockaddr_in()
        address4.sin_family = sa_family_t(AF_INET)
        address4.sin_port = port.bigEndian
        address4.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok4 = withUnsafePointer(to: &address4) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(v4, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
        guard ok4, listen(v4, 1) == 0 else { return false }
        var address6 = sockaddr_in6()
        address6.sin6_family = sa_family_t(AF_INET6)
        address6.sin6_port = port.bigEndian
        address6.sin6_addr = in6addr_loopback
        let result6 = withUnsafePointer(to: &address6) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(v6, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
        // No IPv6 loopback at all is fine (gpsd then listens on 127.0.0.1 only).
        return result6 == 0 || errno == EADDRNOTAVAIL || errno == EAFNOSUPPORT
    }
}

// MARK: - a minimal gpsd client

extension GPSDHarness {
    /// A blocking, deadline-bounded TCP client for gpsd's JSON lines on 127.0.0.1.
    final class LineClient: @unchecked Sendable {
        private let fd: Int32
        private var buffer: [UInt8] = []
        private var closed = false

        /// Connects, or throws with the socket closed. The socket is closed only through
        /// `close()`: deinit runs after a throwing init too, and a second close could hit a
        /// descriptor number another thread has been given since (seen: a test's pipe).
        init(port: UInt16, deadline: ContinuousClock.Instant) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else { closed = true; throw HarnessError.system("socket: \(errnoText())") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if result != 0 {
                guard errno == EINPROGRESS else {
                    let text = errnoText(); close()
                    throw HarnessError.system("connect 127.0.0.1:\(port): \(text)")
                }
                guard wait(for: Int16(POLLOUT), deadline: deadline) else {
                    close(); throw HarnessError.system("connect 127.0.0.1:\(port): timed out")
                }
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                guard error == 0 else {
                    close(); throw HarnessError.system("connect 127.0.0.1:\(port): \(errnoText(error))")
                }
            }
        }

        deinit { close() }

        /// The socket's descriptor number, for diagnoses.
        var descriptor: Int32 { fd }

        func close() { if !closed { closed = true; Glibc.close(fd) } }

        private func wait(for events: Int16, deadline: ContinuousClock.Instant) -> Bool {
            while true {
                let left = ContinuousClock.now.duration(to: deadline)
                if left <= .zero { return false }
                var pfd = pollfd(fd: fd, events: events, revents: 0)
                let result = poll(&pfd, 1, Int32(max(1, min(left.seconds * 1000, 1000))))
                if result > 0 { return true }
                if result < 0 && errno != EINTR { return false }
            }
        }

        func send(_ text: String, deadline: ContinuousClock.Instant) throws {
            var bytes = Array(text.utf8)
            while !bytes.isEmpty {
                let written = write(fd, bytes, bytes.count)
                if written > 0 { bytes.removeFirst(written); continue }
                if written < 0 && errno != EAGAIN && errno != EINTR { throw HarnessError.system("send: \(errnoText())") }
                guard wait(for: Int16(POLLOUT), deadline: deadline) else { throw HarnessError.system("send: timed out") }
            }
        }

        /// The next line (without CR LF); throws at EOF or the deadline.
        func readLine(deadline: ContinuousClock.Instant) throws -> String {
            while true {
                if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    var line = Array(buffer[..<newline])
                    buffer.removeSubrange(...newline)
                    if line.last == UInt8(ascii: "\r") { line.removeLast() }
                    return String(decoding: line, as: UTF8.self)
                }
                guard wait(for: Int16(POLLIN), deadline: deadline) else { throw HarnessError.system("read: timed out") }
                var chunk = [UInt8](repeating: 0, count: 65536)
                let count = read(fd, &chunk, chunk.count)
                if count > 0 { buffer += chunk[0..<count]; continue }
                if count == 0 { throw HarnessError.system("read: connection closed") }
                if errno != EAGAIN && errno != EINTR { throw HarnessError.system("read: \(errnoText())") }
            }
        }

        /// The next JSON object line.
        func readObject(deadline: ContinuousClock.Instant) throws -> [String: Any] {
            while true {
                let line = try readLine(deadline: deadline)
                if let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] {
                    return object
                }
            }
        }
    }
}
