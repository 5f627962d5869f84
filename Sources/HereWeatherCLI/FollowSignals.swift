import HereWeatherCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The write end of the self-pipe the signal handler writes to; -1 until one is made.
private let signalPipe = Atomic<Int32>(-1)

extension FollowEventSource {
    /// The process's signals, for `--follow` (installed when the loop starts it):
    /// - SIGUSR1 refreshes now: its handler writes one byte to a pipe (a self-pipe: all a
    ///   handler may safely do), which a thread of its own reads, blocked (no polling), and
    ///   hands to the loop as `.refreshRequested`;
    /// - SIGTERM and SIGINT end the process at once, exit 0 (`_exit` from the handler): the
    ///   cache is written atomically and its lock is a `flock` the kernel lets go, so nothing
    ///   is left locked or half-written;
    /// - SIGPIPE is ignored, so that a stdout whose reader has gone fails its write with
    ///   EPIPE, and the loop ends quietly.
    static let processSignals = FollowEventSource { _ in
        AsyncStream { continuation in
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else {
                continuation.finish()
                return
            }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            signalPipe.store(ends[1], ordering: .releasing)
            install(SIGUSR1) { _ in
                let descriptor = signalPipe.load(ordering: .acquiring)
                var byte: UInt8 = 1
                let saved = errno
                _ = write(descriptor, &byte, 1)
                errno = saved
            }
            install(SIGTERM) { _ in _exit(0) }
            install(SIGINT) { _ in _exit(0) }
            signal(SIGPIPE, SIG_IGN)
            let reader = ends[0]
            let started = BlockingCall.startThread {
                var bytes = [UInt8](repeating: 0, count: 64)
                while true {
                    let count = read(reader, &bytes, bytes.count)
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    continuation.yield(.refreshRequested)  // Several signals at once are one refresh.
                }
                continuation.finish()
            }
            if !started { continuation.finish() }
        }
    }

    /// Sets `handler` for `signal`, restarting interrupted system calls.
    private static func install(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, nil)
    }
}
