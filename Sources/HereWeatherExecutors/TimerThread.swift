import CTimerFD
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Runs actions when instants of the continuous or the suspending clock come, from one thread
/// blocked in `poll` on two timerfds (CLOCK_BOOTTIME, which counts a suspend as
/// `ContinuousClock` does, and CLOCK_MONOTONIC, which does not, as `SuspendingClock`).
///
/// Each timerfd is armed for the earliest pending instant of its clock and disarmed when none is
/// pending, so the thread wakes only when an action is due: an idle process has no timer at all.
/// The thread and the timerfds are made at the first `schedule`.
final class TimerThread: Sendable {
    /// The kernel clock an instant is counted on.
    enum Kind: Int, Sendable, CaseIterable {
        /// CLOCK_BOOTTIME: time passes while the machine is suspended (`ContinuousClock`).
        case continuous
        /// CLOCK_MONOTONIC: it stops while the machine is suspended (`SuspendingClock`).
        case suspending

        var clockID: clockid_t { self == .continuous ? CLOCK_BOOTTIME : CLOCK_MONOTONIC }

        /// The clock's reading, in nanoseconds.
        var now: Int64 {
            var time = timespec()
            clock_gettime(clockID, &time)
            return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        }
    }

    private struct Entry {
        let deadline: Int64
        let action: @Sendable () -> Void
    }

    private struct State {
        /// Per kind, in deadline order (equal deadlines in the order they were scheduled).
        var pending: [[Entry]] = [[], []]
        /// The timerfds, per kind; empty until the first `schedule` that waits.
        var descriptors: [Int32] = []
    }

    private let state = Mutex(State())

    init() {}

    /// The actions not yet due.
    var pendingCount: Int { state.withLock { $0.pending.reduce(0) { $0 + $1.count } } }

    /// The timerfds, per kind (`Kind.rawValue`); empty until the first `schedule` that waits.
    var descriptors: [Int32] { state.withLock { $0.descriptors } }

    /// Runs `action` on the timer's thread once `nanoseconds` have passed on `kind`'s clock
    /// (at once when none is left). Actions should be short: hand work on to a pool.
    ///
    /// When the thread cannot be started (the process's thread limit), `action` runs at once,
    /// here, and the next `schedule` tries again: a sleep ends early rather than never.
    func schedule(after nanoseconds: Int64, on kind: Kind, _ action: @escaping @Sendable () -> Void) {
        let runsNow = state.withLock { state -> Bool in
            guard nanoseconds > 0, start(&state) else { return true }
            let deadline = kind.now.addingReportingOverflow(nanoseconds)
            let entry = Entry(deadline: deadline.overflow ? .max : deadline.partialValue, action: action)
            var list = state.pending[kind.rawValue]
            // After every entry with the same or an earlier deadline.
            var low = 0, high = list.count
            while low < high {
                let middle = (low + high) / 2
                if list[middle].deadline <= entry.deadline { low = middle + 1 } else { high = middle }
            }
            list.insert(entry, at: low)
            state.pending[kind.rawValue] = list
            if low == 0 { arm(state.descriptors[kind.rawValue], at: entry.deadline) }
            return false
        }
        if runsNow { action() }
    }

    /// Makes the timerfds and the thread, once; false when they cannot be made.
    private func start(_ state: inout State) -> Bool {
        guard state.descriptors.isEmpty else { return true }
        let descriptors = Kind.allCases.map { timerfd_create($0.clockID, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
        guard !descriptors.contains(where: { $0 < 0 }),
              ThreadSignal.startThread({ [self] in run(descriptors) }) else {
            for descriptor in descriptors where descriptor >= 0 { close(descriptor) }
            return false
        }
        state.descriptors = descriptors
        return true
    }

    /// Arms `descriptor` for the absolute `deadline` (nanoseconds); 0 disarms it.
    private func arm(_ descriptor: Int32, at deadline: Int64) {
        var value = itimerspec()
        // An it_value of zero disarms: a deadline that has passed is armed for 1 ns, which fires at once.
        let instant = deadline == 0 ? 0 : max(deadline, 1)
        value.it_value.tv_sec = Int(instant / 1_000_000_000)
        value.it_value.tv_nsec = Int(instant % 1_000_000_000)
        timerfd_settime(descriptor, Int32(TFD_TIMER_ABSTIME), &value, nil)
    }

    /// The thread: waits for a timerfd, takes the due actions, arms the timerfd for the next
    /// one (or disarms it), then runs them, in deadline order per clock.
    private func run(_ descriptors: [Int32]) {
        var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var expirations: UInt64 = 0
        while true {
            guard poll(&polled, nfds_t(polled.count), -1) >= 0 || errno == EINTR else { return }
            for entry in polled where entry.revents != 0 { _ = read(entry.fd, &expirations, 8) }
            let due = state.withLock { state -> [@Sendable () -> Void] in
                var due: [@Sendable () -> Void] = []
                for kind in Kind.allCases {
                    let now = kind.now
                    let list = state.pending[kind.rawValue]
                    let count = list.prefix { $0.deadline <= now }.count
                    due += list.prefix(count).map(\.action)
                    state.pending[kind.rawValue].removeFirst(count)
                    arm(descriptors[kind.rawValue], at: state.pending[kind.rawValue].first?.deadline ?? 0)
                }
                return due
            }
            for action in due { action() }
        }
    }
}
