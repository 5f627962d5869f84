#if canImport(Glibc)
import Glibc
#endif

/// A mutex with one condition variable, for threads that sleep until there is work: a waiting
/// thread is blocked in the kernel (a futex) with no timeout, so it costs nothing while idle.
final class ThreadSignal: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the mutex.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for `signal`; call it holding the mutex (inside `withLock`), in a loop that checks
    /// what it waits for (a wait may end without a signal).
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes one waiting thread.
    func signal() { pthread_cond_signal(condition) }
}

extension ThreadSignal {
    /// Starts a detached thread running `body`; false when none could be started.
    static func startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let started = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
