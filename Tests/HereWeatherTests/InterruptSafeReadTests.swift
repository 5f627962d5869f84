import Foundation
import Testing
import HereWeatherCore
#if canImport(Glibc)
import Glibc
#endif

/// Finding: Foundation's `readDataToEndOfFile()` traps when a read is interrupted by a signal
/// (EINTR: a `try!` inside it), which aborted the whole test process once during `make test`.
/// Every test reads a child's output with `readToEndRetryingInterrupts()` instead; this checks
/// that it reads to the end while signals keep interrupting it.
@Suite struct InterruptSafeReadTests {
    @Test func aReadInterruptedBySignalsStillReadsToTheEnd() async throws {
        // A handler without SA_RESTART, so that a blocked read returns EINTR.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        #expect(sigaction(SIGUSR2, &action, nil) == 0)

        let pipe = try ChildPipe()
        let process = try ChildProcess(["/bin/sh", "-c", "sleep 1; echo done"], environment: ["PATH": "/usr/bin:/bin"],
                                       stdout: .use(pipe.childEnd))
        pipe.closeChildEnd()

        let reader = ReaderThread()
        Thread.detachNewThread {
            while reader.interrupt() { usleep(5_000) }
        }
        let data = try await BlockingCall.run {
            reader.start()
            let data = readToEndRetryingInterrupts(pipe.ourEnd)
            reader.finish()
            process.wait()
            return .success(data)
        }
        #expect(String(decoding: data, as: UTF8.self) == "done\n")
    }
}

/// The thread that reads, for the one that interrupts it: signalled until the read is done.
private final class ReaderThread: @unchecked Sendable {
    private let lock = NSLock()
    private var thread: pthread_t?
    private var done = false

    /// Called on the reading thread: lets SIGUSR2 reach it (the runtime's threads block
    /// signals), until `finish`.
    func start() {
        mask(SIG_UNBLOCK)
        lock.withLock { thread = pthread_self() }
    }

    func finish() {
        lock.withLock { done = true; thread = nil }
        mask(SIG_BLOCK)
    }

    private func mask(_ how: Int32) {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGUSR2)
        pthread_sigmask(how, &signals, nil)
    }

    /// Sends the reader a signal if it is reading; false once it is done.
    func interrupt() -> Bool {
        lock.withLock {
            if let thread { pthread_kill(thread, SIGUSR2) }
            return !done
        }
    }
}
