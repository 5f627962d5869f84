#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A pipe that tells a thread blocked in `poll` with no timeout to stop: it polls `descriptor`
/// beside what it waits on, and `raise()` (from any thread, once or more) makes it readable.
/// What blocks on a descriptor while `--follow` runs (a watched NMEA feed, gpsd's socket) waits
/// so, with no timer and no polling slices.
public final class WakeSignal: Sendable {
    /// The read end, to poll for `POLLIN`; -1 when no pipe could be had (then nothing wakes).
    public let descriptor: Int32
    private let writeEnd: Int32
    private let raised = Atomic<Bool>(false)

    public init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, O_NONBLOCK)
            }
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// Whether `raise()` was called.
    public var isRaised: Bool { raised.load(ordering: .acquiring) }

    /// Makes `descriptor` readable for good.
    public func raise() {
        guard !raised.exchange(true, ordering: .acquiringAndReleasing), writeEnd >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Waits until `target` has `events` (or an error or hang-up on it), or the signal is
    /// raised; `false` when raised. Blocks with no timeout.
    public func wait(for target: Int32, events: Int16 = Int16(POLLIN)) -> Bool {
        while !isRaised {
            var requests = [pollfd(fd: target, events: events, revents: 0),
                            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&requests, descriptor >= 0 ? 2 : 1, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return !isRaised  // A poll error is left for the read to report.
            }
            if requests[1].revents != 0 { return false }
            if requests[0].revents != 0 { return true }
        }
        return false
    }
}
