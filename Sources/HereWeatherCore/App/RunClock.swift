#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The time of a run: monotonic instants for deadlines (the `Clock` part, on
/// `ContinuousClock`'s instants so that every deadline in the code keeps one type) and the
/// wall clock for dates (a fix's timestamp, a cache entry's age).
///
/// The live clock is `ContinuousClock` itself (`LiveClock.swift`, the one file of the core
/// that reads the real clock); tests pass a clock that moves only when told, so a deadline, a
/// cache's freshness or a remembered fix's age is exact and no test sleeps. Nothing below the
/// assembly defaults to the live clock: every part is handed the run's.
public protocol RunClock: _Concurrency.Clock, Sendable where Instant == ContinuousClock.Instant {
    /// The wall-clock date now.
    var date: Date { get }
}

extension RunClock {
    /// The instant `duration` from now: a deadline.
    public func deadline(after duration: Duration) -> ContinuousClock.Instant {
        now.advanced(by: duration)
    }
}
