import Foundation
import Glibc
import Synchronization
import Testing
@testable import HereWeatherCore

/// `--follow` as a status bar runs it: the release binary, its signals and its stdout.
/// SIGUSR1 refreshes; SIGTERM and SIGINT end it at once (exit 0), even mid-fetch, leaving the
/// cache unlocked and no temporary file; a stdout whose reader has gone ends it quietly.
/// (Two followers sharing one fetch: `FollowCommandTests`, on a test clock.)
@Suite struct FollowProcessTests {
    /// Open-Meteo's Tampa body with the current temperature set to `temperature`.
    static func forecast(_ temperature: Double) throws -> FixtureServer.Response {
        let body = try String(contentsOf: Fixtures.url("weather/open-meteo/tampa-metric.json"), encoding: .utf8)
        return .json(200, body.replacing("\"temperature_2m\":26.8", with: "\"temperature_2m\":\(temperature)"))
    }

    /// A server whose n-th answer (from 0) is `answer(n)`.
    static func server(_ answer: @escaping @Sendable (Int) -> FixtureServer.Response) throws -> FixtureServer {
        let count = Mutex(0)
        return try FixtureServer { _ in
            answer(count.withLock { value in
                value += 1
                return value - 1
            })
        }
    }

    enum Ending: String, CaseIterable, Sendable {
        case terminated, interrupted, closedStdout
    }

    @Test(arguments: Ending.allCases)
    func aRefreshOnSIGUSR1ThenTheEnd(_ ending: Ending) async throws {
        let first = try Self.forecast(26.8), second = try Self.forecast(19.5)
        let server = try Self.server { $0 == 0 ? first : $0 == 1 ? second : .hang }
        defer { server.stop() }
        let runner = try CommandRunner()
        try runner.writeConfig(FollowCommandTests.config(server.baseURL))
        let follower = try Follower(runner, ["--format", "%t"])
        #expect(try await waitUntil { follower.lines == ["26.8°C"] }, "\(follower.stderrText)")

        follower.process.signal(SIGUSR1)
        #expect(try await waitUntil { follower.lines == ["26.8°C", "19.5°C"] }, "\(follower.stderrText)")
        switch ending {
        case .terminated, .interrupted:
            follower.process.signal(SIGUSR1)  // A third fetch, which the server never answers.
            #expect(try await waitUntil { server.requests.count == 3 })
            follower.process.signal(ending == .terminated ? SIGTERM : SIGINT)
        case .closedStdout:
            server.stop()  // The next fetch fails: its line ("⚠️ ...") is new and finds no reader.
            try await follower.closeStdout()
            follower.process.signal(SIGUSR1)
        }
        let end = try await BlockingCall.run { .success(follower.process.wait(within: .seconds(60))) }
        #expect(end == .exited(0), "\(follower.stderrText)")
        if ending != .closedStdout { #expect(follower.stderrText.isEmpty) }

        let cache = runner.home.path + "/.cache/here-weather"
        let names = try FileManager.default.contentsOfDirectory(atPath: cache)
        #expect(!names.contains { $0.contains(".tmp") }, "\(names)")
        for lock in names where lock.hasSuffix(".lock") {
            let descriptor = open(cache + "/" + lock, O_RDONLY | O_CLOEXEC)
            defer { close(descriptor) }
            #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0, "\(lock) is still locked")
        }
    }
}

/// A following binary: its stdout read line by line as it comes, its stderr collected.
final class Follower: @unchecked Sendable {
    let process: ChildProcess
    private let out: ChildPipe
    private let err: CollectedOutput
    private let received = Mutex("")
    private let closing = Mutex(false)
    private let closed = Mutex(false)

    /// The machine's own system bus is never reached: `bus` is the address of a test's
    /// private one, or a socket that does not exist.
    static let noBus = "unix:path=/nonexistent/here-weather-test-bus"

    init(_ runner: CommandRunner, _ arguments: [String], bus: String = Follower.noBus) throws {
        out = try ChildPipe()
        let errors = try ChildPipe()
        process = try ChildProcess([CommandRunner.executable.path, "--follow"] + arguments,
                                   environment: ["HOME": runner.home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
                                                 "DBUS_SYSTEM_BUS_ADDRESS": bus],
                                   stdout: .use(out.childEnd), stderr: .use(errors.childEnd))
        out.closeChildEnd()
        errors.closeChildEnd()
        err = CollectedOutput(errors)
        _ = BlockingCall.startThread { [self] in
            let pipe = out
            // Polls so that `closeStdout` can close the end here: a read blocked on it would
            // keep the pipe's reader alive after a close from another thread.
            var buffer = [UInt8](repeating: 0, count: 4096)
            var entry = pollfd(fd: pipe.ourEnd, events: Int16(POLLIN), revents: 0)
            while !closing.withLock({ $0 }) {
                guard poll(&entry, 1, 50) >= 0 || errno == EINTR else { break }
                guard entry.revents != 0 else { continue }
                let count = read(pipe.ourEnd, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                received.withLock { $0 += String(decoding: buffer[0..<count], as: UTF8.self) }
            }
            pipe.closeOurEnd()
            closing.withLock { $0 = true }
            closed.withLock { $0 = true }
        }
    }

    /// The whole lines printed so far.
    var lines: [String] {
        let text = received.withLock { $0 }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Stderr, once the process has ended.
    var stderrText: String { process.exitStatus != nil ? err.text(within: .seconds(5)) : "(running)" }

    /// Closes the reading end: the follower's next write fails with EPIPE.
    func closeStdout() async throws {
        closing.withLock { $0 = true }
        _ = try await waitUntil { closed.withLock { $0 } }
    }
}

/// Polls `condition` for up to `limit`; a wait, not a timing assertion.
private func waitUntil(within limit: Duration = .seconds(20), _ condition: () -> Bool) async throws -> Bool {
    let end = ContinuousClock.now + limit
    while ContinuousClock.now < end {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}
