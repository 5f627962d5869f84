#if canImport(Glibc)
import Glibc
#endif

/// Keeps a write to a socket the peer has closed from killing the process with SIGPIPE.
///
/// libgps writes its commands (`?WATCH`) with plain `write(2)`: when gpsd (or whatever
/// listens on its port) has already closed the connection, the kernel sends the writing
/// thread SIGPIPE, whose default action ends the whole program without a word (exit 141).
/// SIGPIPE for a write is sent to the thread that wrote, so blocking it on this thread alone
/// turns it into the `EPIPE` error libgps reports, leaving the rest of the process as it was.
/// A SIGPIPE left pending is taken off before the old mask comes back.
enum BrokenPipeGuard {
    /// Runs `body` with SIGPIPE blocked on the calling thread.
    static func run<T>(_ body: () -> T) -> T {
        var pipeOnly = sigset_t()
        sigemptyset(&pipeOnly)
        sigaddset(&pipeOnly, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous)
        defer {
            var now = timespec(tv_sec: 0, tv_nsec: 0)
            while sigtimedwait(&pipeOnly, nil, &now) == SIGPIPE {}
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        return body()
    }
}
