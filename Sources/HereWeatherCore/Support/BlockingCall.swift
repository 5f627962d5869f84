#if canImport(Glibc)
import Glibc
#endif

/// Runs blocking C calls (libcurl transfers, libgps reads, file reads) on a thread of their
/// own, so they never hold one of the few threads Dispatch and Swift concurrency share.
///
/// On Linux, Dispatch's global queue starts about one thread per core and adds more only
/// slowly when they block: two blocking transfers on a two-core machine could otherwise
/// queue behind a gpsd read for seconds.
public enum BlockingCall {
    /// Runs `work` on a new detached thread and returns its result; cancelling the task calls
    /// `onCancel` (which should make `work` return early).
    public static func run<T: Sendable>(_ work: @escaping @Sendable () -> Result<T, Error>,
                                        onCancel: @escaping @Sendable () -> Void) async throws -> T {
        try await withTaskCancellationHandler {
            try await run(work)
        } onCancel: {
            onCancel()
        }
    }

    /// Runs `work` on a new detached thread and returns its result.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () -> Result<T, Error>) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let body: @Sendable () -> Void = { continuation.resume(with: work()) }
            if !startThread(body) {
                // No thread to be had: run here rather than fail.
                body()
            }
        }
    }

    /// Runs `body` on a new detached thread; false (and `body` not run) when no thread could be
    /// started.
    public static func startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
        startThreadOrError(body) == 0
    }

    /// Runs `body` on a new detached thread; 0, or `pthread_create`'s error (`EAGAIN` at the
    /// process or memory limit) with `body` not run.
    public static func startThreadOrError(_ body: @escaping @Sendable () -> Void) -> Int32 {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Job(body)).toOpaque()
        let started = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<Job>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<Job>.fromOpaque(context).release()
            return started
        }
        pthread_detach(thread)
        return 0
    }

    private final class Job: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
