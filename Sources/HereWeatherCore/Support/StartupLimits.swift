#if canImport(Glibc)
import Glibc
#endif

/// Checks, before the Swift runtime needs a second thread, that the process may start the
/// threads and open the descriptors a run needs (issue 25 item 2).
///
/// Dispatch, under Swift concurrency, never fails when the system refuses it a thread: the
/// thread that asked sleeps and asks again, forever. Under `prlimit --nproc` (or an address
/// space limit too small for the threads' stacks) a run printed nothing and never ended, or
/// printed its answer and never exited; with fewer than six descriptors Dispatch trapped.
/// Checked here, such limits end the run at once with one line and `ExitStatus.system`.
public enum StartupLimits {
    /// Threads a run may have at once besides the main one: Dispatch's manager and workers,
    /// the libcurl loop, a name lookup, a blocking file read. Measured: with one thread
    /// fewer a run hung in Dispatch until another of the user's processes ended.
    public static let threadsNeeded = 6
    /// Descriptors a run may need at once: the standard three, Dispatch's epoll and event
    /// descriptors, libcurl's wake-up pair, a connection or two, the files it reads and writes.
    public static let descriptorsNeeded = 16

    /// Why this process cannot run, or `nil`: a descriptor limit under `descriptorsNeeded`,
    /// `threadsNeeded` threads that cannot be started side by side, or an address space limit
    /// leaving less than `addressSpaceNeeded`. The threads are only tried when a limit applies
    /// (a finite `RLIMIT_NPROC` or address space), and end before this returns. Root is tried
    /// too: only the first user namespace's root passes `RLIMIT_NPROC`, and a container's root
    /// (uid 0 in a user namespace of its own) is held to it like anyone else (it hung there).
    public static func problem() -> String? {
        if let descriptors = softLimit(RLIMIT_NOFILE.rawValue), descriptors < rlim_t(descriptorsNeeded) {
            return "cannot start: too few open files allowed (ulimit -n is \(descriptors); a run needs \(descriptorsNeeded)). "
                + ResourceShortage.advice
        }
        guard threadsMayBeLimited() else { return nil }
        let code = tryThreads(threadsNeeded)
        if code != 0 {
            return "cannot start: " + ResourceShortage.thread(code) + ". " + ResourceShortage.advice
        }
        if softLimit(RLIMIT_AS.rawValue) != nil, !canReserve(addressSpaceNeeded) {
            return "cannot start: \(ResourceShortage.reason(ENOMEM)) (the address space limit, ulimit -v). " + ResourceShortage.advice
        }
        return nil
    }

    /// Address space a run may still map after start-up: libcurl and the libraries it loads
    /// (TLS, LDAP, ...), Dispatch's threads and their malloc arenas. Measured: with 80 MB in
    /// all, a library's constructor failed to allocate and the run died with SIGSEGV.
    public static let addressSpaceNeeded = 64 << 20

    /// Whether `bytes` of address space can be reserved (and are released at once).
    static func canReserve(_ bytes: Int) -> Bool {
        guard let region = mmap(nil, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
              region != UnsafeMutableRawPointer(bitPattern: -1) else { return false }  // MAP_FAILED
        munmap(region, bytes)
        return true
    }

    private static func threadsMayBeLimited() -> Bool {
        softLimit(__RLIMIT_NPROC.rawValue) != nil || softLimit(RLIMIT_AS.rawValue) != nil
    }

    /// The soft limit of `resource`; `nil` when there is none.
    private static func softLimit(_ resource: UInt32) -> rlim_t? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(resource), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }  // RLIM_INFINITY
        return limit.rlim_cur
    }

    /// Starts `count` threads that wait, side by side, then ends them: 0, or the error of the
    /// first that could not start.
    static func tryThreads(_ count: Int) -> Int32 {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return errno }  // closed below, before any other thread exists
        var threads: [pthread_t] = []
        var failure: Int32 = 0
        for _ in 0..<count {
            var thread = pthread_t()
            let started = pthread_create(&thread, nil, { context in
                // Waits until the write end closes.
                var byte: UInt8 = 0
                let descriptor = Int32(Int(bitPattern: context) - 1)  // + 1: never a null pointer
                while read(descriptor, &byte, 1) < 0, errno == EINTR {}
                return nil
            }, UnsafeMutableRawPointer(bitPattern: Int(ends[0]) + 1))
            guard started == 0 else { failure = started; break }
            threads.append(thread)
        }
        close(ends[1])
        for thread in threads { pthread_join(thread, nil) }
        close(ends[0])
        return failure
    }
}
