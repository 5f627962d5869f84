import Foundation
import Glibc
import Testing
@testable import HereWeatherCore

/// `--follow` waiting after a fetch, as the release binary runs it on its own executors
/// (`QuietExecutors`): no thread wakes while nothing is due, and the report's lifetime still
/// ends the wait (a sleep on the live clock, through the executors' timer). The wakes are
/// counted, not timed: the kernel's context switches of every thread over 5 s. A blocked thread
/// has none however busy the machine is. Before, two threads woke every second, 10 in all:
/// Dispatch's workqueue monitor (which these executors replace) and libcurl's loop, whose
/// `poll` had a 1 s cap with no transfer under way (`CurlSession.pollTimeout`).
@Suite struct FollowIdleProcessTests {
    @Test func anIdleFollowerDoesNotWake() async throws {
        let forecast = try FollowProcessTests.forecast(26.8)
        let server = try FollowProcessTests.server { _ in forecast }
        defer { server.stop() }
        let runner = try CommandRunner()
        // No air quality: its request (to Open-Meteo's real host, unreachable here) would
        // still be under way, and libcurl checks on its name lookup every second.
        try runner.writeConfig(FollowCommandTests.config(server.baseURL) + "[air_quality]\nenabled = false\n")
        let follower = try Follower(runner, ["--format", "%t"])
        defer { follower.process.signal(SIGKILL) }
        #expect(try await waitFor { follower.lines == ["26.8°C"] }, "\(follower.stderrText)")
        try await Task.sleep(for: .seconds(1))  // Threads that ended their start-up work have gone.
        let before = Self.switches(follower.process.pid)
        try await Task.sleep(for: .seconds(5))
        let after = Self.switches(follower.process.pid)
        let woken = after.compactMap { thread, count in before[thread].map { (thread, count - $0) } }.filter { $0.1 > 0 }
        // A few switches stand for what is not a timer (a page fault, a late start-up step).
        #expect(woken.reduce(0) { $0 + $1.1 } <= 2, "switches per thread: \(woken)")
        #expect(follower.lines == ["26.8°C"])
    }

    @Test func theLifetimeEndsOnTheLiveClock() async throws {
        let first = try FollowProcessTests.forecast(26.8), second = try FollowProcessTests.forecast(19.5)
        let server = try FollowProcessTests.server { $0 == 0 ? first : second }
        defer { server.stop() }
        let runner = try CommandRunner()
        try runner.writeConfig(FollowCommandTests.config(server.baseURL, ttl: 1))
        let follower = try Follower(runner, ["--format", "%t"])
        defer { follower.process.signal(SIGKILL) }
        #expect(try await waitFor { follower.lines == ["26.8°C", "19.5°C"] }, "\(follower.lines)")
    }

    /// Per thread of `pid`: its voluntary and involuntary context switches so far.
    static func switches(_ pid: pid_t) -> [String: Int] {
        let folder = "/proc/\(pid)/task"
        var counts: [String: Int] = [:]
        for thread in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            guard let status = try? String(contentsOfFile: folder + "/" + thread + "/status", encoding: .utf8) else { continue }
            counts[thread] = status.split(separator: "\n").filter { $0.contains("ctxt_switches") }
                .compactMap { $0.split(separator: "\t").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
                .reduce(0, +)
        }
        return counts
    }
}

/// Polls `condition` for up to `limit`; a wait, not a timing assertion.
private func waitFor(within limit: Duration = .seconds(30), _ condition: () -> Bool) async throws -> Bool {
    let end = ContinuousClock.now + limit
    while ContinuousClock.now < end {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}
