import Foundation
import Glibc
import HereWeatherCore

/// A desktop for one test: a headless sway (wlroots' headless backend, pixman, no input
/// devices, no GPU and no seat) with the real waybar on it, started by
/// `Tests/Services/waybar_session.sh` in private user, pid and mount namespaces, so that it runs
/// alike for root (whom sway refuses) and an ordinary user, its `pkill` sees only its own
/// processes, and everything it started ends with it (the kernel ends a pid namespace whose
/// first process ends; `ChildGuardian` ends that one with the test process).
///
/// Commands run inside the session (`run`): what the bar's on-click runs, and `grim`, which
/// takes what the compositor shows (wlroots' screencopy) as a `Screenshot`.
final class WaylandSession: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The session's folder: its private XDG_RUNTIME_DIR (`run`), the configs, the log, the screenshots.
    let directory: URL
    private let process: ChildProcess
    /// Our end of the script's stdin and stdout (a socket: written with MSG_NOSIGNAL, so a
    /// script that has ended raises no SIGPIPE in the test process).
    private let channel: Int32
    private let lock = NSLock()
    private var pending = Data()
    private var shots = 0
    private let closed = OnceFlag()

    static let script = Fixtures.root.appendingPathComponent("Tests/Services/waybar_session.sh")

    /// Starts sway with one `width`×`height` output, then waybar with `waybarConfig` (written as
    /// JSON). `environment` is waybar's, and so the environment of what its modules run (HOME,
    /// PATH, ...); the session adds its XDG_RUNTIME_DIR and WAYLAND_DISPLAY.
    static func started(waybarConfig: [String: Any], environment: [String: String],
                        width: Int = 480, height: Int = 48) async throws -> WaylandSession {
        try TestUser.requireUserNamespaces()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("here-weather-wayland-\(UUID().uuidString)")
        let runtime = directory.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let sway = directory.appendingPathComponent("sway.conf"), waybar = directory.appendingPathComponent("waybar.json")
        try "output HEADLESS-1 resolution \(width)x\(height)\nxwayland disable\n".write(to: sway, atomically: true, encoding: .utf8)
        try JSONSerialization.data(withJSONObject: waybarConfig, options: [.prettyPrinted, .sortedKeys]).write(to: waybar)
        let log = directory.appendingPathComponent("session.log").path
        // The script runs from the session's folder: in the namespace root is nobody, who may not
        // read it in a checkout in a private home (CI's test-root, in the ordinary user's 0700 home).
        let script = directory.appendingPathComponent("waybar_session.sh")
        try FileManager.default.copyItem(at: Self.script, to: script)

        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw Failure(description: "socketpair: \(String(cString: strerror(errno)))")
        }
        defer { close(ends[1]) }
        var variables = environment
        variables["XDG_RUNTIME_DIR"] = runtime.path
        let command = ["/usr/bin/unshare", "--user", "--pid", "--fork", "--kill-child", "--mount-proc", "--",
                       "/bin/sh", script.path, sway.path, waybar.path, log]
        let process: ChildProcess
        do {
            process = try ChildProcess(command, environment: variables, stdin: .use(ends[1]), stdout: .use(ends[1]))
        } catch {
            close(ends[0])
            throw error
        }
        let session = WaylandSession(directory: directory, process: process, channel: ends[0])
        let first = try await session.line(within: .seconds(60))
        guard first.hasPrefix("ready ") else {
            session.stop()
            throw Failure(description: "the Wayland session did not start (\(first)); its log:\n\(session.log)")
        }
        return session
    }

    private init(directory: URL, process: ChildProcess, channel: Int32) {
        (self.directory, self.process, self.channel) = (directory, process, channel)
    }

    deinit { stop() }

    /// Ends the session: its input closes (the script ends, and with it the namespace's every
    /// process), its process group is killed and reaped, and its folder removed.
    func stop() {
        guard closed.claim() else { return }
        shutdown(channel, Int32(SHUT_RDWR))
        close(channel)
        process.terminate()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The log of sway, waybar (at debug level), what waybar's modules wrote on stderr, and the commands' output.
    var log: String {
        let text = (try? String(contentsOfFile: directory.appendingPathComponent("session.log").path, encoding: .utf8)) ?? "(none)"
        return String(text.suffix(8000))
    }

    /// Runs `command` with `sh -c` inside the session and returns its exit status (128 + N for a signal N).
    func run(_ command: String, within limit: Duration = TestLimits.longestRun) async throws -> Int32 {
        try send(command + "\n")
        let answer = try await line(within: limit)
        guard answer.hasPrefix("done "), let status = Int32(answer.dropFirst("done ".count)) else {
            throw Failure(description: "the Wayland session answered \"\(answer)\" to \(command); its log:\n\(log)")
        }
        return status
    }

    /// What the compositor shows now (`grim`, wlroots' screencopy: the output's last frame).
    func screenshot() async throws -> Screenshot {
        let name = lock.withLock { shots += 1; return "shot-\(shots).ppm" }
        let path = directory.appendingPathComponent(name).path
        let status = try await run("grim -t ppm '\(path)'")
        guard status == 0 else { throw Failure(description: "grim exited \(status); the session's log:\n\(log)") }
        let shot = try Screenshot(ppm: Data(contentsOf: URL(fileURLWithPath: path)))
        try? FileManager.default.removeItem(atPath: path)
        return shot
    }

    private func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(channel, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                throw Failure(description: "the Wayland session has ended (\(String(cString: strerror(errno)))); its log:\n\(log)")
            }
            offset += written
        }
    }

    /// The script's next line, waited for on a thread of its own for at most `limit`.
    private func line(within limit: Duration) async throws -> String {
        try await BlockingCall.run { Result { try self.readLine(until: .now + limit) } }
    }

    private func readLine(until deadline: ContinuousClock.Instant) throws -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = lock.withLock({ pending.firstIndex(of: UInt8(ascii: "\n")) }) {
                return lock.withLock {
                    let line = String(decoding: pending[pending.startIndex..<end], as: UTF8.self)
                    pending = Data(pending[(end + 1)...])
                    return line
                }
            }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw Failure(description: "the Wayland session did not answer in time; its log:\n\(log)") }
            var poller = pollfd(fd: channel, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(clamping: min(left, .seconds(1)).wholeMilliseconds + 1))
            if ready < 0 && errno == EINTR { continue }
            guard ready >= 0 else { throw Failure(description: "poll: \(String(cString: strerror(errno)))") }
            if ready == 0 { continue }
            let count = recv(channel, &buffer, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Failure(description: "the Wayland session ended; its log:\n\(log)") }
            lock.withLock { pending.append(contentsOf: buffer[0..<count]) }
        }
    }
}

/// One frame of a Wayland output, as `grim -t ppm` writes it (binary PPM: P6, 8-bit RGB).
struct Screenshot: Equatable, Sendable {
    let width: Int
    let height: Int
    /// RGB, row by row.
    let pixels: [UInt8]

    init(ppm data: Data) throws {
        let bytes = [UInt8](data)
        var index = 0
        func field() -> Int? {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x09 || bytes[index] == 0x0D { index += 1 }
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return Int(String(decoding: bytes[start..<index], as: UTF8.self))
        }
        guard bytes.starts(with: Array("P6".utf8)) else { throw WaylandSession.Failure(description: "not a binary PPM") }
        index = 2
        guard let width = field(), let height = field(), field() == 255, index < bytes.count,
              bytes.count - (index + 1) == width * height * 3 else {
            throw WaylandSession.Failure(description: "a PPM of an unexpected shape (\(bytes.count) bytes)")
        }
        (self.width, self.height, pixels) = (width, height, Array(bytes[(index + 1)...]))
    }

    /// The colour at (x, y), as 0xRRGGBB.
    func pixel(_ x: Int, _ y: Int) -> UInt32 {
        let at = (y * width + x) * 3
        return UInt32(pixels[at]) << 16 | UInt32(pixels[at + 1]) << 8 | UInt32(pixels[at + 2])
    }

    /// Whether something is drawn on the left half of a row that its right end does not have: a
    /// bar's text on the left, as opposed to an empty bar or an empty output, whose rows are each
    /// of one colour.
    var showsText: Bool {
        (0..<height).contains { y in
            let background = pixel(width - 1, y)
            return (0..<(width / 2)).contains { pixel($0, y) != background }
        }
    }
}
