import Foundation
import Testing
@testable import HereWeatherCore

/// `FollowLoop`'s rules, fed events on a made-up timeline: what `--follow` prints, when it
/// fetches and when it wakes (lifetimes, the backoff, relative texts, identical lines).
@Suite struct FollowLoopTests {
    /// A line that says how many whole minutes are left until `at` ("rain in 3 min"), then "rain".
    struct Countdown: FollowPicture {
        let at: Date
        func line(at date: Date) -> String {
            let left = Int(at.timeIntervalSince(date) / 60)
            return at > date ? "rain in \(left) min" : "rain"
        }
    }

    /// A line that never changes.
    struct Still: FollowPicture {
        let text: String
        func line(at date: Date) -> String { text }
    }

    /// A made-up clock: instants and dates that move together.
    struct Timeline {
        let start = FollowLoop.Moment(instant: ContinuousClock.now, date: Date(timeIntervalSince1970: 1_795_000_000))
        func at(_ seconds: Double) -> FollowLoop.Moment {
            FollowLoop.Moment(instant: start.instant.advanced(by: .milliseconds(Int64(seconds * 1000))),
                              date: start.date.addingTimeInterval(seconds))
        }
        func instant(_ seconds: Double) -> ContinuousClock.Instant { at(seconds).instant }
    }

    let time = Timeline()

    func fresh(_ text: String, until seconds: Double, lifetime: Double = 600) -> FollowAnswer {
        FollowAnswer(.fresh(until: time.instant(seconds), lifetime: .seconds(lifetime)), picture: Still(text: text))
    }

    @Test func aFreshCachedReportIsPrintedAtOnceAndFetchedWhenItsLifetimeEnds() {
        var loop = FollowLoop(defaultLifetime: .seconds(600))
        #expect(loop.handle(.started, at: time.at(0)) == [.readCache])
        #expect(loop.handle(.cacheRead(fresh("☀️ 26°C", until: 400)), at: time.at(0))
                == [.print("☀️ 26°C"), .wait(until: time.instant(401))])
        #expect(loop.handle(.woke, at: time.at(200)) == [.wait(until: time.instant(401))], "woken early: nothing to do")
        #expect(loop.handle(.woke, at: time.at(401)) == [.fetch(asksService: false)])
        // The same line again prints nothing; the next lifetime counts from the new answer.
        #expect(loop.handle(.fetched(fresh("☀️ 26°C", until: 1001)), at: time.at(401)) == [.wait(until: time.instant(1002))])
        #expect(loop.handle(.woke, at: time.at(1002)) == [.fetch(asksService: false)])
        #expect(loop.handle(.fetched(fresh("☁️ 24°C", until: 1602)), at: time.at(1002))
                == [.print("☁️ 24°C"), .wait(until: time.instant(1603))])
    }

    @Test func aStaleCachedReportIsPrintedThenFetched() {
        var loop = FollowLoop(defaultLifetime: .seconds(600))
        _ = loop.handle(.started, at: time.at(0))
        #expect(loop.handle(.cacheRead(FollowAnswer(.stale, picture: Still(text: "☀️ 26°C (offline 3 h)"))), at: time.at(0))
                == [.print("☀️ 26°C (offline 3 h)"), .fetch(asksService: false)])
        #expect(loop.handle(.fetched(fresh("☀️ 27°C", until: 600)), at: time.at(1))
                == [.print("☀️ 27°C"), .wait(until: time.instant(601))])
    }

    @Test func withoutACachedReportItFetchesAtOnce() {
        var loop = FollowLoop(defaultLifetime: .seconds(600))
        _ = loop.handle(.started, at: time.at(0))
        #expect(loop.handle(.cacheRead(nil), at: time.at(0)) == [.fetch(asksService: false)])
    }

    /// 30 s, 1, 2, 5, then every 10 min; a fresh answer starts the count again.
    @Test func failuresAreRetriedWithBackoff() {
        var loop = FollowLoop(defaultLifetime: .seconds(3600))
        _ = loop.handle(.started, at: time.at(0))
        _ = loop.handle(.cacheRead(fresh("☀️ 26°C", until: 10, lifetime: 3600)), at: time.at(0))
        var now = 11.0
        var waits: [Double] = []
        for _ in 0..<7 {
            let actions = loop.handle(.fetched(FollowAnswer(.stale, picture: Still(text: "☀️ 26°C (offline)"))), at: time.at(now))
            guard case .wait(let until?) = actions.last else { Issue.record("\(actions)"); return }
            let wait = time.at(now).instant.duration(to: until)
            waits.append(Double(wait.components.seconds))
            now += Double(wait.components.seconds)
            #expect(loop.handle(.woke, at: time.at(now)) == [.fetch(asksService: false)])
        }
        #expect(waits == [30, 60, 120, 300, 600, 600, 600])
        _ = loop.handle(.fetched(fresh("☀️ 26°C", until: now + 3600, lifetime: 3600)), at: time.at(now))
        let again = loop.handle(.fetched(FollowAnswer(.failed, picture: Still(text: "⚠️ weather offline"))), at: time.at(now + 3601))
        #expect(again == [.print("⚠️ weather offline"), .wait(until: time.instant(now + 3601 + 30))])
    }

    /// A report that lives 90 s is not retried less often than every 90 s.
    @Test func theBackoffIsCappedByTheLifetime() {
        var loop = FollowLoop(defaultLifetime: .seconds(600))
        _ = loop.handle(.started, at: time.at(0))
        _ = loop.handle(.cacheRead(fresh("a", until: 0, lifetime: 90)), at: time.at(0))
        var now = 1.0
        var waits: [Int64] = []
        for _ in 0..<4 {
            let actions = loop.handle(.fetched(FollowAnswer(.stale, picture: Still(text: "a (offline)"))), at: time.at(now))
            guard case .wait(let until?) = actions.last else { Issue.record("\(actions)"); return }
            let seconds = time.at(now).instant.duration(to: until).components.seconds
            waits.append(seconds)
            now += Double(seconds)
        }
        #expect(waits == [30, 60, 90, 90])
    }

    @Test func aRefreshRequestFetchesPastTheCache() {
        var loop = FollowLoop(defaultLifetime: .seconds(600))
        _ = loop.handle(.started, at: time.at(0))
        _ = loop.handle(.cacheRead(fresh("a", until: 600)), at: time.at(0))
        #expect(loop.handle(.refreshRequested, at: time.at(5)) == [.fetch(asksService: true)])
        #expect(loop.handle(.stopRequested, at: time.at(6)) == [.exit])
    }

    /// "rain in 3 min" is drawn again at the second it becomes "rain in 2 min", and not before;
    /// a line with no relative text wakes only for its fetch.
    @Test func relativeTextsAreRedrawnWhenTheyChangeAndNoSooner() {
        var loop = FollowLoop(defaultLifetime: .seconds(600))
        _ = loop.handle(.started, at: time.at(0))
        let rain = FollowAnswer(.fresh(until: time.instant(590), lifetime: .seconds(600)),
                                picture: Countdown(at: time.at(200.5).date))
        // 200.5 s left: "rain in 3 min" until 20.5 s from now, when less than 180 s are left.
        #expect(loop.handle(.cacheRead(rain), at: time.at(0)) == [.print("rain in 3 min"), .wait(until: time.instant(21))])
        #expect(loop.handle(.woke, at: time.at(21)) == [.print("rain in 2 min"), .wait(until: time.instant(81))])
        #expect(loop.handle(.woke, at: time.at(81)) == [.print("rain in 1 min"), .wait(until: time.instant(141))])
        #expect(loop.handle(.woke, at: time.at(141)) == [.print("rain in 0 min"), .wait(until: time.instant(201))])
        #expect(loop.handle(.woke, at: time.at(201)) == [.print("rain"), .wait(until: time.instant(591))],
                "nothing changes after the rain starts: it sleeps until the fetch")
    }

    @Test func theTimelineFindsTheSecondOfAChange() {
        let start = Date(timeIntervalSince1970: 1_000_000)
        let picture = Countdown(at: start.addingTimeInterval(3 * 3600 + 17))
        let line = picture.line(at: start)
        let change = LineTimeline.nextChange(of: picture, from: line, after: start, before: start.addingTimeInterval(86_400))
        #expect(change == start.addingTimeInterval(18), "\(line)")
        #expect(LineTimeline.nextChange(of: Still(text: "a"), from: "a", after: start, before: start.addingTimeInterval(86_400)) == nil)
        #expect(LineTimeline.nextChange(of: picture, from: line, after: start, before: start.addingTimeInterval(10)) == nil)
    }
}
