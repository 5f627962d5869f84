@_spi(ExperimentalCustomExecutors) import _Concurrency
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The main actor's executor for this program: the main thread runs its jobs in order, blocked
/// on a condition variable (no timeout) between them.
///
/// Dispatch's main executor hands the main queue to a workqueue thread once `dispatch_main`
/// runs, and a workqueue thread starts Dispatch's 1 Hz monitor (see `ThreadPoolExecutor`).
final class MainThreadExecutor: MainExecutor, @unchecked Sendable {
    private let signal = ThreadSignal()
    private var jobs: [UnownedJob] = []
    private var stopping = false
    private let thread = Mutex<pthread_t?>(nil)

    init() {}

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        signal.withLock {
            jobs.append(job)
            signal.signal()
        }
    }

    /// Runs the jobs on this thread until `stop`.
    func run() throws {
        thread.withLock { $0 = pthread_self() }
        while true {
            let next = signal.withLock { () -> [UnownedJob]? in
                while jobs.isEmpty && !stopping { signal.wait() }
                if stopping {
                    stopping = false
                    return nil
                }
                defer { jobs.removeAll(keepingCapacity: true) }
                return jobs
            }
            guard let next else { return }
            for job in next { job.runSynchronously(on: asUnownedSerialExecutor()) }
        }
    }

    /// Ends `run` after the job under way.
    func stop() {
        signal.withLock {
            stopping = true
            signal.signal()
        }
    }

    var isMainExecutor: Bool { true }

    func checkIsolated() {
        let running = thread.withLock { $0 }
        precondition(running.map { pthread_equal($0, pthread_self()) != 0 } ?? false, "not on the main executor's thread")
    }
}
