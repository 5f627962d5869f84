import Foundation
import Synchronization
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore

/// `--follow` in-process, on a test clock: the first line from the cache, the refresh when the
/// lifetime ends (an identical answer prints nothing), a refresh request (SIGUSR1's event),
/// a failing service retried on the backoff while the stale line's age is redrawn, and the
/// outputs that cannot follow.
@Suite struct FollowCommandTests {
    static func config(_ baseURL: String, ttl: Double = 600) -> String {
        CacheCommandTests().config(baseURL: baseURL, ttl: ttl).replacing("timeout = 30", with: "timeout = 300")
            + "\n[alerts]\nnws = false\n"
    }

    /// What tells a slow run from a hung one on a loaded machine (not a timing: the test clock
    /// keeps the time). A following run never ends, so it takes no slot of `InProcessCommand`'s
    /// queue (`queued: false`): it would hold one for the whole test.
    static let bound = Duration.seconds(120)

    /// The events a test sends the loop, as the process's signals would.
    final class Events: Sendable {
        let stream: AsyncStream<FollowLoop.Event>
        let continuation: AsyncStream<FollowLoop.Event>.Continuation

        init() { (stream, continuation) = AsyncStream.makeStream(of: FollowLoop.Event.self) }

        var source: FollowEventSource {
            let stream = stream
            return FollowEventSource { _ in stream }
        }
    }

    /// A following run in the background: its stdout as it grows, its end.
    struct Following {
        let stdout = CapturedOutput()
        let stderr = CapturedOutput()
        let events = Events()
        let clock: TestClock
        var task: Task<CommandRunner.Result, any Error>?

        init(clock: TestClock) { self.clock = clock }

        mutating func start(_ runner: InProcessCommand, _ arguments: [String]) {
            var system = RunSystem.test(clock: clock)
            system.followEvents = events.source
            start(runner, arguments, system: system)
        }

        /// Starts on `system` (on this run's clock, with `events.source` as its follow events).
        mutating func start(_ runner: InProcessCommand, _ arguments: [String], system: RunSystem) {
            let (assembly, stdout, stderr) = (SystemAssembly.test(system), stdout, stderr)
            task = Task {
                try await runner.run(["--follow"] + arguments, standardOutput: stdout, standardError: stderr, assembly: assembly)
            }
        }

        var lines: [String] { stdout.text.split(separator: "\n").map(String.init) }

        /// Ends the run (as a stop would) and returns how it ended.
        func stop() async throws -> CommandRunner.Result? {
            events.continuation.yield(.stopRequested)
            return try await task?.value
        }
    }

    @Test func theFirstLineComesFromTheCacheAndTheLifetimeEndFetchesAgain() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": CacheCommandTests.forecast])
        let runner = try InProcessCommand(queued: false)
        let clock = TestClock()
        try runner.writeConfig(Self.config(server.baseURL))
        #expect(try await runner.run(["--json"], assembly: .test(.test(clock: clock))).status == 0)
        clock.advance(60)

        var following = Following(clock: clock)
        following.start(runner, ["--format", "%t"])
        #expect(await clock.waitForSleepers(within: Self.bound))
        #expect(following.lines == ["26.8°C"], "\(following.stderr.text)")
        #expect(server.requests.count == 1, "a fresh entry is not fetched")

        clock.advance(540 + 1)  // The entry's lifetime ends (and a second's margin).
        #expect(try await waitUntil { server.requests.count == 2 })
        #expect(await clock.waitForSleepers(within: Self.bound))
        #expect(following.lines == ["26.8°C"], "the same answer prints nothing")

        following.events.continuation.yield(.refreshRequested)
        #expect(try await waitUntil { server.requests.count == 3 }, "a refresh request asks the service past a fresh entry")
        #expect(await clock.waitForSleepers(within: Self.bound))
        let result = try await following.stop()
        #expect(result?.status == 0, "\(result?.stderr ?? "")")
        #expect(result?.stdout == "26.8°C\n")
    }

    /// A service answering 503: the cached report stays, marked stale, its age redrawn as it
    /// changes; the service is asked again 30 s, then 60 s later.
    @Test func aFailingServiceIsRetriedWithBackoffWhileTheStaleLineAges() async throws {
        let good = try FixtureServer(routes: ["/v1/forecast": CacheCommandTests.forecast])
        let runner = try InProcessCommand(queued: false)
        let clock = TestClock()
        try runner.writeConfig(Self.config(good.baseURL))
        #expect(try await runner.run(["--json"], assembly: .test(.test(clock: clock))).status == 0)
        let failing = try FixtureServer(routes: ["/v1/forecast": .json(503, #"{"error":true,"reason":"busy"}"#)])
        try runner.writeConfig(Self.config(failing.baseURL))
        clock.advance(700)

        var following = Following(clock: clock)
        following.start(runner, ["--format", "%t %O"])
        #expect(try await waitUntil { failing.requests.count == 1 })
        #expect(await clock.waitForSleepers(within: Self.bound))
        #expect(following.lines == ["26.8°C (offline 11 min)"], "\(following.stderr.text)")
        #expect(following.stderr.text.split(separator: "\n").count == 1, "\(following.stderr.text)")

        clock.advance(20)  // 720 s old: "12 min", before the retry.
        #expect(try await waitUntil { following.lines.count == 2 })
        #expect(following.lines.last == "26.8°C (offline 12 min)")
        #expect(failing.requests.count == 1)
        #expect(await clock.waitForSleepers(within: Self.bound))
        clock.advance(10)  // 30 s after the failure: the first retry.
        #expect(try await waitUntil { failing.requests.count == 2 })
        #expect(await clock.waitForSleepers(within: Self.bound))
        clock.advance(50)  // 780 s old.
        #expect(try await waitUntil { following.lines.count == 3 })
        #expect(await clock.waitForSleepers(within: Self.bound))
        #expect(failing.requests.count == 2, "the second retry waits 60 s")
        clock.advance(10)
        #expect(try await waitUntil { failing.requests.count == 3 })
        #expect(await clock.waitForSleepers(within: Self.bound))

        let result = try await following.stop()
        #expect(result?.status == 0)
        #expect(result?.stdout == "26.8°C (offline 11 min)\n26.8°C (offline 12 min)\n26.8°C (offline 13 min)\n")
        #expect(result?.stderr.split(separator: "\n").count == 1, "the same failure is said once: \(result?.stderr ?? "")")
    }

    /// Two bars on one machine (one per monitor) share the cache and its lock: one request
    /// at start and one when the lifetime ends, between them; both print each answer.
    @Test func twoFollowersShareOneFetchPerLifetime() async throws {
        let answers = try [FollowProcessTests.forecast(20), FollowProcessTests.forecast(21), FollowProcessTests.forecast(22)]
        let server = try FollowProcessTests.server { answers[min($0, 2)] }
        let runner = try InProcessCommand(queued: false)
        let clock = TestClock()
        try runner.writeConfig(Self.config(server.baseURL))
        var followers = [Following(clock: clock), Following(clock: clock)]
        for index in followers.indices { followers[index].start(runner, ["--format", "%t"]) }
        #expect(try await waitUntil { followers.allSatisfy { $0.lines == ["20.0°C"] } }, "\(followers.map(\.lines))")
        #expect(await clock.waitForSleepers(2, within: Self.bound))
        #expect(server.requests.count == 1, "the second waits for the first's answer")

        clock.advance(601)
        #expect(try await waitUntil { followers.allSatisfy { $0.lines == ["20.0°C", "21.0°C"] } },
                "\(followers.map(\.lines)) \(followers.map(\.stderr.text))")
        #expect(await clock.waitForSleepers(2, within: Self.bound))
        #expect(server.requests.count == 2, "one fetch per lifetime between them")
        for follower in followers { #expect(try await follower.stop()?.status == 0) }
    }

    /// A sleep on the live clock that is cut short stays allocated until its instant (Swift's
    /// `Task.sleep`): refreshes that each moved the next fetch later must not start a sleep
    /// each (~830 B a refresh, for an hour), but sleep on from the one under way.
    @Test func refreshesDoNotStartASleepEach() async throws {
        let answers = try (0...22).map { try FollowProcessTests.forecast(Double($0)) }
        let server = try FollowProcessTests.server { answers[min($0, 22)] }
        let runner = try InProcessCommand(queued: false)
        let clock = TestClock()
        try runner.writeConfig(Self.config(server.baseURL))
        var following = Following(clock: clock)
        following.start(runner, ["--format", "%t"])
        #expect(try await waitUntil { following.lines == ["0.0°C"] }, "\(following.stderr.text)")
        #expect(await clock.waitForSleepers(within: Self.bound))
        let started = clock.sleepsStarted
        for refresh in 1...20 {
            clock.advance(1)
            following.events.continuation.yield(.refreshRequested)
            // Each answer is a new line: once it is printed, the fetch is over (a fetch still
            // under way when the clock leaps 600 s would pass its deadline).
            #expect(try await waitUntil { following.lines.count == 1 + refresh })
            #expect(await clock.waitForSleepers(within: Self.bound))
        }
        #expect(clock.sleepsStarted - started <= 1, "\(clock.sleepsStarted - started) sleeps for 20 refreshes")
        clock.advance(600)  // The sleep under way ends, and sleeps on to the last refresh's lifetime end.
        #expect(await clock.waitForSleepers(within: Self.bound))
        #expect(server.requests.count == 21, "not yet: the last refresh's lifetime has a second to go")
        clock.advance(1)
        #expect(try await waitUntil { server.requests.count == 22 })
        #expect(try await waitUntil { following.lines.count == 22 })
        #expect(try await following.stop()?.status == 0)
    }

    @Test(arguments: [["--follow"], ["--follow", "--hourly"], ["--follow", "--weather-replay", "/dev/null", "--json"]])
    func outputsThatCannotFollowAreRefused(_ arguments: [String]) async throws {
        let result = try await InProcessCommand().run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--follow"), "\(result.stderr)")
        #expect(!result.stdout.contains("°"), "no report: \(result.stdout)")
    }
}

/// Polls `condition` for up to `FollowCommandTests.bound`; a wait, not a timing assertion.
private func waitUntil(_ condition: () -> Bool) async throws -> Bool {
    let end = ContinuousClock.now + FollowCommandTests.bound
    while ContinuousClock.now < end {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}
