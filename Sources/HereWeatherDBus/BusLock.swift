import HereWeatherCore
#if canImport(Glibc)
import Glibc
#endif

/// A mutex with a condition: the lock that guards one sd-bus connection, and the place where
/// threads that wait for a message sleep while another thread polls the socket.
///
/// `broadcast` wakes every waiter at once (a reply read by the polling thread is its owner's
/// to notice now, not at the end of a poll slice). Waits are bounded by an instant of
/// `ContinuousClock`, converted to CLOCK_MONOTONIC, the condition's clock.
final class BusLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the lock held.
    func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Runs `body` with the lock released (called with it held).
    func unlocked<T>(_ body: () -> T) -> T {
        pthread_mutex_unlock(mutex)
        defer { pthread_mutex_lock(mutex) }
        return body()
    }

    /// How many broadcasts there were; touched with the lock held.
    private var broadcasts = 0

    /// With the lock held: sleeps until `broadcast` or `until`. Whether a broadcast came
    /// (false: the time ran out with no word from anyone).
    func wait(until deadline: TransportDeadline) -> Bool {
        let before = broadcasts
        let remaining = deadline.remaining
        guard remaining > .zero else { return false }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = remaining.components
        var nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var wholeSeconds = Int(now.tv_sec) + Int(seconds)
        if nanoseconds >= 1_000_000_000 { nanoseconds -= 1_000_000_000; wholeSeconds += 1 }
        var until = timespec(tv_sec: wholeSeconds, tv_nsec: nanoseconds)
        while broadcasts == before, pthread_cond_timedwait(condition, mutex, &until) != ETIMEDOUT {}
        return broadcasts != before
    }

    /// Wakes every thread in `wait` (call with the lock held).
    func broadcast() {
        broadcasts &+= 1
        pthread_cond_broadcast(condition)
    }
}
