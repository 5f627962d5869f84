import Foundation
import Testing
@testable import HereWeatherCore

/// `FollowLoop`'s rules for sleep, resume and the network, on a made-up timeline: nothing is
/// fetched while asleep or offline, a due fetch is held until awake and online, a resume or a
/// new network finds the place again and fetches, and their failures are retried sooner.
@Suite struct FollowNetworkLoopTests {
    typealias Still = FollowLoopTests.Still
    let time = FollowLoopTests.Timeline()

    func fresh(_ text: String, until seconds: Double, lifetime: Double = 600) -> FollowAnswer {
        FollowAnswer(.fresh(until: time.instant(seconds), lifetime: .seconds(lifetime)), picture: Still(text: text))
    }

    /// A loop showing "a", fresh until 600 s.
    func following() -> FollowLoop {
        var loop = FollowLoop(defaultLifetime: .seconds(600))
        _ = loop.handle(.started, at: time.at(0))
        _ = loop.handle(.cacheRead(fresh("a", until: 600)), at: time.at(0))
        return loop
    }

    @Test func nothingIsFetchedWhileAsleepAndTheResumeFetchesAgain() {
        var loop = following()
        #expect(loop.handle(.sleeping, at: time.at(10)) == [.wait(until: time.instant(601))])
        #expect(loop.handle(.woke, at: time.at(601)) == [.wait(until: nil)], "asleep: the lifetime's fetch is held")
        #expect(loop.handle(.refreshRequested, at: time.at(602)) == [.wait(until: nil)], "asleep: SIGUSR1's too")
        #expect(loop.handle(.resumed, at: time.at(4000)) == [.relocate, .fetch(asksService: true)],
                "the resume makes the held fetch, past the cache as SIGUSR1 asked, and finds the place again")
        #expect(loop.handle(.fetched(fresh("b", until: 4600)), at: time.at(4001)) == [.print("b"), .wait(until: time.instant(4601))])
    }

    @Test func aResumeRedrawsTheLineBeforeItFetches() {
        var loop = FollowLoop(defaultLifetime: .seconds(600))
        _ = loop.handle(.started, at: time.at(0))
        let rain = FollowAnswer(.fresh(until: time.instant(3000), lifetime: .seconds(3000)),
                                picture: FollowLoopTests.Countdown(at: time.at(1800).date))
        _ = loop.handle(.cacheRead(rain), at: time.at(0))
        _ = loop.handle(.sleeping, at: time.at(1))
        #expect(loop.handle(.resumed, at: time.at(1200)) == [.print("rain in 10 min"), .relocate, .fetch(asksService: false)])
    }

    /// Offline (NetworkManager's State below 70 and Connectivity not full): nothing is asked;
    /// the network coming up finds the place again and fetches.
    @Test func nothingIsFetchedOfflineAndTheNetworkComingUpFetches() {
        var loop = following()
        #expect(loop.handle(.network(online: true), at: time.at(1)) == [.wait(until: time.instant(601))],
                "the first word, online: nothing to do")
        #expect(loop.handle(.network(online: false), at: time.at(100)) == [.wait(until: time.instant(601))])
        #expect(loop.handle(.woke, at: time.at(601)) == [.wait(until: nil)], "offline: the lifetime's fetch is held")
        #expect(loop.handle(.network(online: false), at: time.at(700)) == [.wait(until: nil)])
        #expect(loop.handle(.network(online: true), at: time.at(900)) == [.relocate, .fetch(asksService: false)])
    }

    @Test func aStartOfflineHoldsTheFirstFetch() {
        var loop = FollowLoop(defaultLifetime: .seconds(600))
        #expect(loop.handle(.network(online: false), at: time.at(0)) == [.wait(until: nil)])
        _ = loop.handle(.started, at: time.at(0))
        #expect(loop.handle(.cacheRead(FollowAnswer(.stale, picture: Still(text: "a (offline 3 h)"))), at: time.at(0))
                == [.print("a (offline 3 h)"), .wait(until: nil)])
        #expect(loop.handle(.network(online: true), at: time.at(30)) == [.relocate, .fetch(asksService: false)])
    }

    @Test func aNewPrimaryConnectionFindsThePlaceAgain() {
        var loop = following()
        _ = loop.handle(.network(online: true), at: time.at(1))
        #expect(loop.handle(.connectionChanged, at: time.at(50)) == [.relocate, .fetch(asksService: false)])
        _ = loop.handle(.network(online: false), at: time.at(60))
        #expect(loop.handle(.connectionChanged, at: time.at(70)) == [.wait(until: nil)], "offline: held")
        #expect(loop.handle(.network(online: true), at: time.at(80)) == [.relocate, .fetch(asksService: false)])
    }

    /// After a resume (without NetworkManager, nothing says when the network is up), failures
    /// are retried after 5, 10 and 20 s, then on the usual backoff; a fresh answer ends that.
    @Test func failuresAfterAResumeAreRetriedSooner() {
        var loop = following()
        _ = loop.handle(.sleeping, at: time.at(1))
        _ = loop.handle(.resumed, at: time.at(5000))
        var now = 5000.0
        var waits: [Int64] = []
        for _ in 0..<5 {
            let actions = loop.handle(.fetched(FollowAnswer(.stale, picture: Still(text: "a (offline)"))), at: time.at(now))
            guard case .wait(let until?) = actions.last else { Issue.record("\(actions)"); return }
            let seconds = time.at(now).instant.duration(to: until).components.seconds
            waits.append(seconds)
            now += Double(seconds)
            #expect(loop.handle(.woke, at: time.at(now)) == [.fetch(asksService: false)])
        }
        #expect(waits == [5, 10, 20, 30, 60])
        _ = loop.handle(.fetched(fresh("a", until: now + 600)), at: time.at(now))
        let later = loop.handle(.fetched(FollowAnswer(.stale, picture: Still(text: "a (offline)"))), at: time.at(now + 601))
        #expect(later.last == .wait(until: time.instant(now + 601 + 30)), "a fresh answer ends the quick retries")
    }
}
