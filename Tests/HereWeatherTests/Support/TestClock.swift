import Foundation
import Synchronization
@testable import HereWeatherCore

/// A clock tests move by hand (`RunClock`): its instants and its date stand still until
/// `advance`, and a sleeper wakes when an advance reaches its deadline, so a deadline, a
/// cache's freshness or a remembered fix's age is exact and no test waits for real time.
///
/// Hand-written rather than pointfreeco/swift-clocks' `TestClock`: the run's deadlines are
/// `ContinuousClock` instants (one type from the command line to libcurl), which this clock
/// keeps, and it costs the test target no package (swift-clocks brings
/// swift-concurrency-extras and xctest-dynamic-overlay).
///
/// Its instants start at the real clock's now and stay there. A transport (libcurl, sd-bus)
/// handed one of its deadlines gets the real time the deadline leaves on this clock
/// (`TransportDeadline`), however long the test has run.
final class TestClock: RunClock {
    typealias Instant = ContinuousClock.Instant

    private struct State {
        var now: ContinuousClock.Instant
        var date: Date
        var sleepers: [Int: (deadline: ContinuousClock.Instant, wake: CheckedContinuation<Void, any Error>)] = [:]
        var nextSleeper = 0
    }

    private let state: Mutex<State>

    /// A clock at a fixed date (2026-11-19 13:33:20 UTC unless told), its instants starting
    /// now, or `behind` the real clock's now (a run clock that stood still while real time
    /// went on: its deadlines are long past on the real clock, and not on its own).
    init(date: Date = Date(timeIntervalSince1970: 1_795_000_000), behind: Duration = .zero) {
        state = Mutex(State(now: ContinuousClock.now.advanced(by: .zero - behind), date: date))
    }

    var now: ContinuousClock.Instant { state.withLock { $0.now } }
    var date: Date { state.withLock { $0.date } }
    var minimumResolution: Duration { .zero }

    /// How many tasks sleep on this clock now (a test advances once they all wait).
    var sleeperCount: Int { state.withLock { $0.sleepers.count } }
    /// How many sleeps were started on this clock so far.
    var sleepsStarted: Int { state.withLock { $0.nextSleeper } }

    /// Moves the instants and the date on by `duration` (the date only, back, for a negative
    /// one: a wall clock set back), and wakes every sleeper whose deadline has come.
    func advance(by duration: Duration) {
        let woken = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            if duration > .zero { state.now = state.now.advanced(by: duration) }
            state.date += duration.seconds
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for key in due.keys { state.sleepers[key] = nil }
            return due.map(\.value.wake)
        }
        for wake in woken { wake.resume() }
    }

    /// `advance(by:)` in seconds.
    func advance(_ seconds: Double) {
        advance(by: .milliseconds(Int64((seconds * 1000).rounded())))
    }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> Int in
            state.nextSleeper += 1
            return state.nextSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (wake: CheckedContinuation<Void, any Error>) in
                let ready = state.withLock { state -> Bool in
                    if deadline <= state.now || Task.isCancelled { return true }
                    state.sleepers[id] = (deadline, wake)
                    return false
                }
                if ready { wake.resume() }
            }
        } onCancel: {
            let wake = state.withLock { $0.sleepers.removeValue(forKey: id)?.wake }
            wake?.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// Returns once `count` tasks sleep on this clock (bounded: a test that expects sleepers
    /// which never come fails rather than hangs).
    func waitForSleepers(_ count: Int = 1, within limit: Duration = .seconds(30)) async -> Bool {
        let end = ContinuousClock.now + limit
        while sleeperCount < count {
            guard ContinuousClock.now < end else { return false }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return true
    }
}
