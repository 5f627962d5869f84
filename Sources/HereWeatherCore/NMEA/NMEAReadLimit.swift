#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A flag that tells a blocking NMEA read to stop: set from a task's cancellation handler,
/// read by the reading thread between chunks and while it waits for data.
public final class NMEACancellation: Sendable {
    private let cancelled = Atomic<Bool>(false)
    /// Raised by `cancel()`: a wait for data with no deadline (a watched feed) blocks on it and
    /// the feed together, with no timeout (`nil`: waits poll in slices, as a request's do).
    let wake: WakeSignal?

    /// `wakes`: make a `WakeSignal`, for a read that waits for data with no deadline.
    public init(wakes: Bool = false) {
        wake = wakes ? WakeSignal() : nil
    }

    public func cancel() {
        cancelled.store(true, ordering: .relaxed)
        wake?.raise()
    }

    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
}

/// When reading NMEA input must stop before the input ends: the request's deadline
/// (wall clock) or a cancellation. Checked once per chunk read, never per line.
public struct NMEAReadLimit: Sendable {
    /// Why reading stopped early.
    public enum Reason: Sendable, Equatable {
        case deadline
        case cancelled
    }

    /// The longest single wait for data, so a cancellation is seen within it.
    static let waitSlice: Duration = .milliseconds(100)

    /// The deadline, and the clock it is on (the run's).
    public var deadline: (instant: ContinuousClock.Instant, clock: any RunClock)?
    public var cancellation: NMEACancellation?

    /// No limit: read to the end of the input.
    public static let unlimited = NMEAReadLimit(cancellation: nil)

    /// Stop at `deadline` on `clock`, or when `cancellation` is set.
    public init(deadline: ContinuousClock.Instant, clock: any RunClock, cancellation: NMEACancellation? = nil) {
        self.deadline = (deadline, clock)
        self.cancellation = cancellation
    }

    /// Stop only when `cancellation` is set.
    public init(cancellation: NMEACancellation?) {
        self.cancellation = cancellation
    }

    /// Why reading must stop now, or `nil` to go on.
    func reason() -> Reason? {
        if cancellation?.isCancelled == true { return .cancelled }
        if let deadline, deadline.clock.now >= deadline.instant { return .deadline }
        return nil
    }

    /// Waits until `descriptor` has data, or its writer has gone, or an error; returns why it
    /// stopped waiting early instead. Used for pipes, FIFOs and devices, whose reads can wait
    /// for ever (a FIFO with no writer yet has neither data nor an end).
    func waitForData(on descriptor: Int32) -> Reason? {
        if deadline == nil, let wake = cancellation?.wake, wake.descriptor >= 0 {
            // No deadline (a watched feed): block on the feed and the cancellation, no timeout.
            return wake.wait(for: descriptor) ? nil : .cancelled
        }
        while true {
            if let reason = reason() { return reason }
            var slice = Self.waitSlice
            if let deadline { slice = min(slice, deadline.clock.now.duration(to: deadline.instant)) }
            let milliseconds = max(1, Int32(slice.wholeMilliseconds))
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, milliseconds)
            if ready > 0 { return nil }
            // A poll error other than an interruption is left for the read to report.
            if ready < 0, errno != EINTR { return nil }
        }
    }
}
