import HereWeatherCore
import Synchronization

/// `--follow`'s one timer: it calls `wake` at the instant of the loop's latest `.wait`.
///
/// A sleep on the live clock that is cut short stays allocated in Swift's runtime until its
/// instant comes (the dispatch timer behind `Task.sleep` keeps the task): cancelling an
/// hour-long sleep at each SIGUSR1 refresh grew the process by ~830 B a refresh
/// (`scripts/bench-follow`; heaptrack named `Task.sleep(until:)`). So a wait that ends later
/// than the sleep under way does not cancel it: the sleep ends at its instant and sleeps on to
/// the new one. Only a wait that must end sooner, or none (a wait for an event alone), cancels
/// it. The loop checks what is due at each wake.
final class FollowWakeTimer: Sendable {
    private struct State {
        /// The instant of the latest wait.
        var deadline: ContinuousClock.Instant?
        /// The instant the sleep under way ends at.
        var armed: ContinuousClock.Instant?
        var sleeper: Task<Void, Never>?
        var generation = 0
    }

    private let state = Mutex(State())
    private let clock: any RunClock
    private let wake: @Sendable () -> Void

    init(clock: any RunClock, wake: @escaping @Sendable () -> Void) {
        self.clock = clock
        self.wake = wake
    }

    /// Wakes at `deadline` (none: never, until armed again).
    func arm(until deadline: ContinuousClock.Instant?) {
        state.withLock { state in
            state.deadline = deadline
            if let deadline, let armed = state.armed, armed <= deadline { return }  // It sleeps on from there.
            state.sleeper?.cancel()
            state.sleeper = nil
            state.armed = deadline
            guard let deadline else { return }
            state.generation += 1
            let generation = state.generation
            state.sleeper = Task { await self.sleep(generation, until: deadline) }
        }
    }

    /// Ends the sleep under way.
    func stop() { arm(until: nil) }

    private func sleep(_ generation: Int, until first: ContinuousClock.Instant) async {
        var until = first
        while true {
            try? await clock.sleep(until: until, tolerance: nil)
            let later = state.withLock { state -> ContinuousClock.Instant?? in
                guard state.generation == generation, !Task.isCancelled else { return .none }
                if let deadline = state.deadline, deadline > until {
                    state.armed = deadline
                    return .some(deadline)
                }
                state.armed = nil
                state.sleeper = nil
                return .some(nil)
            }
            switch later {
            case .none: return
            case .some(let instant?): until = instant
            case .some(nil):
                wake()
                return
            }
        }
    }
}
