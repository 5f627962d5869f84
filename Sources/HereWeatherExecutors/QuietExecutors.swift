@_spi(ExperimentalCustomExecutors) import _Concurrency
#if canImport(Glibc)
import Glibc
#endif

/// The program's executors (Swift 6.3's `ExecutorFactory`, still SPI): `MainThreadExecutor`
/// and `ThreadPoolExecutor` instead of Dispatch's, so that a waiting process has no timer
/// (issue 31: an idle `--follow` under 1 ms of CPU a minute).
///
/// `install()` must come first in `main`, before any task, and `runMainThread()` last: the
/// compiler's own `DefaultExecutorFactory` lookup does not take effect in 6.3.1.
public enum QuietExecutors {
    static let main = MainThreadExecutor()
    static let pool = ThreadPoolExecutor(width: width)

    /// The pool's width: the processors online, and at least 4, so that one thread held by a
    /// short blocking wait does not hold up the rest on a small machine.
    static var width: Int { max(4, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Makes these the process's executors.
    public static func install() {
        _createExecutors(factory: Factory.self)
    }

    /// Runs the main actor's jobs on this thread, for good (the program ends with `exit`).
    public static func runMainThread() -> Never {
        while true { try? main.run() }
    }

    private struct Factory: ExecutorFactory {
        static var mainExecutor: any MainExecutor { main }
        static var defaultExecutor: any TaskExecutor { pool }
    }
}
