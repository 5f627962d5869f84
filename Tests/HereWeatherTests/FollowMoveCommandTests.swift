import Foundation
import Synchronization
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore

/// `--follow` in-process, on a test clock, with a live source whose watch the test drives (a
/// stand-in for gpsd): a fix in the shown place's cell fetches nothing; one out of it fetches at
/// once for the new place, named by the nearest town; the next within the minute waits for the
/// minute on the clock and fetches once, for the newest fix; an ended watch leaves the place.
@Suite struct FollowMoveCommandTests {
    typealias Following = FollowCommandTests.Following

    final class Count: Sendable {
        let value = Mutex(0)
    }

    /// The test's fixes, handed out one `next()` at a time, counting the asks: once the follower
    /// asks for the fix after the last one yielded, it has taken them all.
    final class Fixes: @unchecked Sendable {
        private var iterator: AsyncStream<Location>.Iterator
        let pulls = Count()

        init(_ stream: AsyncStream<Location>) { iterator = stream.makeAsyncIterator() }

        func next() async -> Location? {
            pulls.value.withLock { $0 += 1 }
            return await iterator.next()
        }
    }

    /// A gpsd stand-in: it answers `first`, and its watch sends what the test yields.
    struct WatchedSource: LocationSourceProvider {
        let first: Coordinate
        let clock: TestClock
        let fixes: Fixes
        let watches: Count

        var source: LocationSource { .gpsd }

        func requestLocation(_ request: LocationRequest) async throws -> Location {
            Location(coordinate: first, horizontalAccuracy: 5, timestamp: clock.date, source: .gpsd)
        }

        func watch(_ request: LocationRequest) -> LocationWatch? {
            watches.value.withLock { $0 += 1 }
            let fixes = fixes
            return LocationWatch { _ in AsyncStream(unfolding: { await fixes.next() }) }
        }
    }

    /// Open-Meteo's Tampa body for every place (the line shows the place, `%l`).
    static func server() throws -> FixtureServer {
        try FixtureServer(routes: ["/v1/forecast": CacheCommandTests.forecast])
    }

    @Test func aMoveOutOfTheCellFetchesForTheNewPlaceAtMostOnceAMinute() async throws {
        let server = try Self.server()
        let clock = TestClock()
        let (fixes, send) = AsyncStream.makeStream(of: Location.self)
        let watches = Count()
        let taken = Fixes(fixes)
        let source = WatchedSource(first: Coordinate(latitude: 27.9514, longitude: -82.459), clock: clock, fixes: taken,
                                   watches: watches)
        let runner = try InProcessCommand(queued: false)
        try runner.writeConfig("""
            version = 1
            [location]
            sources = ["gpsd"]
            [location.gpsd]
            permission = "allow"
            [weather]
            provider = "open-meteo"
            timeout = 300
            [weather.open-meteo]
            base_url = "\(server.baseURL)"
            [alerts]
            nws = false
            """)
        var following = Following(clock: clock)
        var system = RunSystem.test(gpsd: .standIn { _ in source }, clock: clock)
        system.followEvents = following.events.source
        following.start(runner, ["--format", "%l", "--verbose"], system: system)
        #expect(try await waitUntil { following.lines.count == 1 }, "\(following.stderr.text)")
        #expect(following.lines.first?.contains("Tampa") == true, "\(following.lines)")
        #expect(await clock.waitForSleepers(within: FollowCommandTests.bound))
        #expect(watches.value.withLock { $0 } == 1, "the winning source is watched")

        func fix(_ latitude: Double, _ longitude: Double) -> Location {
            clock.advance(1)
            return Location(coordinate: Coordinate(latitude: latitude, longitude: longitude), horizontalAccuracy: 5,
                            timestamp: clock.date, source: .gpsd)
        }
        send.yield(fix(27.9531, -82.4577))  // The same cell (27.95, -82.46): nothing to fetch.
        send.yield(fix(28.5383, -81.3792))  // Orlando: fetched at once.
        #expect(try await waitUntil { following.lines.count == 2 }, "\(server.requests) \(following.stderr.text)")
        #expect(server.requests.count == 2, "\(server.requests)")
        #expect(server.requests.last?.contains("latitude=28.54&longitude=-81.38") == true, "\(server.requests)")
        #expect(following.lines.last?.contains("near Orlando") == true, "named as the sources' answers are: \(following.lines)")
        #expect(await clock.waitForSleepers(within: FollowCommandTests.bound))

        send.yield(fix(28.0, -82.0))
        send.yield(fix(27.77, -82.64))  // St. Petersburg: the newest, within the minute.
        #expect(try await waitUntil { taken.pulls.value.withLock { $0 } == 5 }, "the follower took the 4 fixes")
        clock.advance(30)
        #expect(await clock.waitForSleepers(within: FollowCommandTests.bound))
        #expect(server.requests.count == 2, "within the minute of the last move: \(server.requests)")
        clock.advance(30)
        #expect(try await waitUntil { server.requests.count == 3 }, "\(server.requests)")
        #expect(server.requests.last?.contains("latitude=27.77&longitude=-82.64") == true, "one fetch, for the newest fix")
        #expect(try await waitUntil { following.lines.count == 3 })
        #expect(await clock.waitForSleepers(within: FollowCommandTests.bound))

        send.finish()  // The watch ends (gpsd gone): the place stays, and so does the line.
        clock.advance(601)
        #expect(try await waitUntil { server.requests.count == 4 }, "the lifetime's fetch: \(server.requests) \(clock.sleeperCount) \(following.stderr.text)")
        #expect(server.requests.last?.contains("latitude=27.77&longitude=-82.64") == true, "\(server.requests)")
        #expect(await clock.waitForSleepers(within: FollowCommandTests.bound))
        let result = try await following.stop()
        #expect(result?.status == 0, "\(result?.stderr ?? "")")
        #expect(following.lines.count == 3, "\(following.lines)")
    }

    /// The real gpsd (`GPSDHarness`) watched in-process: when gpsd goes away, the watch ends,
    /// the place and the line stay, and `--verbose` says so once.
    @Test func gpsdGoingAwayLeavesTheLastPlaceAndSaysSoOnce() async throws {
        let server = try Self.server()
        let harness = try await GPSDHarness.started()
        defer { harness.stop() }
        let clock = TestClock()
        let runner = try InProcessCommand(queued: false)
        try runner.writeConfig(harness.onlySourceConfig + "\n" + FollowMoveProcessTests.weather(server.baseURL))
        harness.feed(Fixtures.url("nmea/moving.nmea"))
        var following = Following(clock: clock)
        var system = RunSystem.test(gpsd: .libgps(clock: clock), clock: clock)
        system.followEvents = following.events.source
        following.start(runner, ["--format", "%l", "--verbose"], system: system)
        #expect(try await waitUntil { following.lines.count == 1 }, "\(following.stderr.text)")
        #expect(try await waitUntil { harness.watchEnables >= 2 }, "the watch's connection: \(harness.stderrTail())")
        harness.stop()
        let note = "--follow: gpsd on 127.0.0.1:\(harness.port) closed the connection. Following the last place."
        #expect(try await waitUntil { following.stderr.text.contains(note) }, "\(following.stderr.text)")
        #expect(await clock.waitForSleepers(within: FollowCommandTests.bound))
        let result = try await following.stop()
        #expect(result?.status == 0)
        #expect(following.stderr.text.components(separatedBy: note).count == 2, "said once: \(following.stderr.text)")
        #expect(following.lines.count == 1, "\(following.lines)")
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
