#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The one file of HereWeatherCore that reads the real clock: the live run clock, and real
// time for what runs in real time whatever the run's clock is (transports, file ages).

extension ContinuousClock: RunClock {
    /// The live run clock's date: the machine's wall clock.
    public var date: Date { Date() }
}

/// An instant on the real (monotonic) clock, for what waits in real time whatever the run's
/// clock is: a transport's deadline (libcurl, sd-bus, a socket's poll), a transfer's duration
/// in `--verbose`.
///
/// A run's deadlines are `ContinuousClock.Instant`s on its `RunClock` (a test's may stand
/// still); this is another type, so the two cannot be compared by mistake. A run deadline
/// becomes one at a transport's edge, `RealInstant(deadline, on: clock)`: as far from now in
/// real time as the deadline is from the run clock's now.
public struct RealInstant: Sendable, Hashable, Comparable {
    private let instant: ContinuousClock.Instant

    private init(_ instant: ContinuousClock.Instant) {
        self.instant = instant
    }

    /// Now, on the real clock.
    public static var now: RealInstant { RealInstant(ContinuousClock.now) }

    /// `duration` from now, on the real clock.
    public static func after(_ duration: Duration) -> RealInstant {
        RealInstant(ContinuousClock.now.advanced(by: duration))
    }

    /// The real instant as far from now as `deadline` is from `clock`'s now (a passed
    /// deadline stays passed).
    public init(_ deadline: ContinuousClock.Instant, on clock: any RunClock) {
        self.init(ContinuousClock.now.advanced(by: clock.now.duration(to: deadline)))
    }

    /// The time from now to this instant: negative once it has passed.
    public var remaining: Duration { ContinuousClock.now.duration(to: instant) }

    /// The time since this instant.
    public var elapsed: Duration { instant.duration(to: ContinuousClock.now) }

    /// Whether this instant has come.
    public var hasPassed: Bool { ContinuousClock.now >= instant }

    /// This instant moved by `duration`.
    public func advanced(by duration: Duration) -> RealInstant {
        RealInstant(instant.advanced(by: duration))
    }

    /// The time from this instant to `other`.
    public func duration(to other: RealInstant) -> Duration {
        instant.duration(to: other.instant)
    }

    public static func < (lhs: RealInstant, rhs: RealInstant) -> Bool {
        lhs.instant < rhs.instant
    }
}

/// A deadline on the real clock, for a transport (libcurl, sd-bus, a socket).
public typealias TransportDeadline = RealInstant

/// The wall clock in whole seconds, as the kernel stamps a file's times: for a file's age by
/// its mtime, which is on the real clock whatever the run's is.
public enum FileTime {
    /// Now, in seconds since 1970.
    public static var now: Int { Int(time(nil)) }
}
