@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
#if canImport(Glibc)
import Glibc
#endif

/// Swift concurrency's default executor for this program: a few threads that run jobs in the
/// order they come, each blocked on a condition variable (no timeout) while there is none, and
/// one `TimerThread` for `Task.sleep` and other scheduled jobs.
///
/// Why not Dispatch's global queues (the runtime's own default): on Linux, libdispatch starts a
/// 1 Hz monitor timer the first time a worker thread starts (`_dispatch_workq_monitor_pools`)
/// and never stops it, so a `--follow` waiting for an hour woke 60 times a minute (2.7 ms of CPU;
/// docs/benchmark.md). Here nothing wakes unless a job or a deadline is due.
///
/// Threads are started as jobs come, up to `width`, and then kept: the pool does not add threads
/// when one blocks, as Dispatch's monitor does; blocking calls run on threads of their own
/// (`BlockingCall`), and `width` leaves room for a short blocking wait (a lock file's).
final class ThreadPoolExecutor: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    /// The most threads that run jobs.
    let width: Int
    private let signal = ThreadSignal()
    /// The queue: jobs from `head` on (guarded by `signal`).
    private var jobs: [UnownedJob] = []
    private var head = 0
    private var threads = 0
    private var idle = 0
    private let timer = TimerThread()

    /// A pool of at most `width` threads (at least 1).
    init(width: Int) {
        self.width = max(1, width)
    }

    /// The threads started so far (never more than `width`).
    var threadCount: Int { signal.withLock { threads } }

    /// Scheduled jobs not yet due.
    var scheduledCount: Int { timer.pendingCount }

    func enqueue(_ job: consuming ExecutorJob) {
        push(UnownedJob(job))
    }

    private func push(_ job: UnownedJob) {
        let starts = signal.withLock { () -> Bool in
            jobs.append(job)
            if idle > 0 {
                signal.signal()
                return false
            }
            guard threads < width else { return false }
            threads += 1
            return true
        }
        if starts && !ThreadSignal.startThread({ [self] in work() }) {
            let none = signal.withLock { () -> Bool in
                threads -= 1
                return threads == 0
            }
            if none { runAll() }  // No thread to be had at all: run the queue here rather than never.
        }
    }

    /// A worker: runs jobs as they come, forever.
    private func work() {
        while true {
            let job = signal.withLock { () -> UnownedJob in
                while head == jobs.count {
                    idle += 1
                    signal.wait()
                    idle -= 1
                }
                return take()
            }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    private func runAll() {
        while let job = signal.withLock({ head == jobs.count ? nil : take() }) {
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// The next job; call holding the lock, with one queued.
    private func take() -> UnownedJob {
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: jobs.capacity <= 1024)
            head = 0
        } else if head >= 1024 && head * 2 >= jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?,
                                  clock: C) {
        let job = UnownedJob(job)
        let kind: TimerThread.Kind = clock is SuspendingClock ? .suspending : .continuous
        timer.schedule(after: Self.nanoseconds(delay), on: kind) { [self] in push(job) }
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?,
                                  clock: C) {
        enqueue(job, after: clock.now.duration(to: instant), tolerance: tolerance, clock: clock)
    }

    /// A clock's duration in nanoseconds, at most about 290 years; 0 for a clock whose
    /// durations are not `Duration` (the job then runs at once).
    static func nanoseconds<D: DurationProtocol>(_ delay: D) -> Int64 {
        guard let delay = delay as? Duration, delay > .zero else { return 0 }
        let (seconds, attoseconds) = delay.components
        guard seconds < Int64.max / 1_000_000_000 - 1 else { return .max }
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
