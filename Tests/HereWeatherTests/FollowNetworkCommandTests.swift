import Foundation
import Synchronization
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore

/// `--follow` in-process, on a test clock, fed the system bus's events as `FollowEventSource.systemBus`
/// sends them: nothing is asked while asleep or offline; a resume, the network coming up and
/// a new primary connection ask the IP service again (past the remembered fix) and fetch the
/// weather for where it now says the machine is.
@Suite struct FollowNetworkCommandTests {
    typealias Following = FollowCommandTests.Following

    /// ipinfo answers Tampa, then Orlando once `moved` is set; Open-Meteo answers Tampa's body.
    final class Places: Sendable {
        /// Whether ipinfo now answers Orlando.
        final class Moved: Sendable {
            private let value = Mutex(false)
            var now: Bool { value.withLock { $0 } }
            func happen() { value.withLock { $0 = true } }
        }

        let moved = Moved()
        let server: FixtureServer

        init() throws {
            let tampa = try String(contentsOf: Fixtures.url("ip/ipinfo/success.json"), encoding: .utf8)
            let orlando = tampa.replacing("27.9475,-82.4584", with: "28.5383,-81.3792").replacing("Tampa", with: "Orlando")
            let moved = moved
            server = try FixtureServer { target in
                if target.hasPrefix("/ipinfo/") { return .json(200, moved.now ? orlando : tampa) }
                if target.hasPrefix("/v1/forecast") { return CacheCommandTests.forecast }
                return .json(404, "{}")
            }
        }

        var ipRequests: Int { server.requests.filter { $0.hasPrefix("/ipinfo/") }.count }
        var forecasts: [String] { server.requests.filter { $0.hasPrefix("/v1/forecast") } }
    }

    func start(_ places: Places, clock: TestClock) throws -> (InProcessCommand, Following) {
        let runner = try InProcessCommand(queued: false)
        try runner.writeConfig(ProviderSetup.ipLocation(places.server.baseURL).replacing("sources = [\"ip\"]", with: "sources = [\"ip\"]\ntimeout = 600")
                               + "\n[weather]\nprovider = \"open-meteo\"\ntimeout = 300\n[weather.open-meteo]\nbase_url = \"\(places.server.baseURL)\"\n[alerts]\nnws = false\n")
        var following = Following(clock: clock)
        following.start(runner, ["--format", "%t"])
        return (runner, following)
    }

    @Test func aNewNetworkAsksTheIPServiceAgainAndFetchesForTheNewPlace() async throws {
        let places = try Places()
        let clock = TestClock()
        let (_, following) = try start(places, clock: clock)
        following.events.continuation.yield(.network(online: true))
        #expect(try await waitUntil { following.lines == ["26.8°C"] }, "\(following.stderr.text)")
        #expect(await clock.waitForSleepers(within: FollowCommandTests.bound))
        #expect(places.ipRequests == 1)
        #expect(places.forecasts.count == 1 && places.forecasts[0].contains("latitude=27.9"), "\(places.forecasts)")

        places.moved.happen()
        following.events.continuation.yield(.connectionChanged)
        #expect(try await waitUntil { places.forecasts.count == 2 }, "\(places.server.requests) \(following.stderr.text)")
        #expect(places.ipRequests == 2, "asked again, past the remembered fix")
        #expect(places.forecasts.last?.contains("latitude=28.5") == true, "\(places.forecasts)")
        #expect(await clock.waitForSleepers(within: FollowCommandTests.bound))
        #expect(try await following.stop()?.status == 0)
    }

    @Test func nothingIsAskedAsleepOrOfflineAndTheResumeAsksAgain() async throws {
        let places = try Places()
        let clock = TestClock()
        let (_, following) = try start(places, clock: clock)
        #expect(try await waitUntil { following.lines == ["26.8°C"] }, "\(following.stderr.text)")
        #expect(await clock.waitForSleepers(within: FollowCommandTests.bound))

        // Asleep, the lifetime's end and SIGUSR1 are held; awake but offline, the resume and
        // SIGUSR1 are held too (the loop then waits on no timer).
        following.events.continuation.yield(.sleeping)
        following.events.continuation.yield(.refreshRequested)
        clock.advance(3600)
        following.events.continuation.yield(.network(online: false))
        following.events.continuation.yield(.resumed)
        following.events.continuation.yield(.refreshRequested)

        places.moved.happen()
        following.events.continuation.yield(.network(online: true))
        #expect(try await waitUntil { places.forecasts.count == 2 }, "\(places.server.requests) \(following.stderr.text)")
        #expect(places.ipRequests == 2, "\(places.server.requests)")
        #expect(places.forecasts.last?.contains("latitude=28.5") == true,
                "the first request since the first line is Orlando's: nothing was asked asleep or offline: \(places.forecasts)")
        #expect(await clock.waitForSleepers(within: FollowCommandTests.bound))
        #expect(try await following.stop()?.status == 0)
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
