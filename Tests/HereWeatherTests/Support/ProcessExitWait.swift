import Foundation

extension Process {
    /// Waits at most `limit` for the process to end; whether it has.
    ///
    /// A bounded wait, not `waitUntilExit`: harnesses stop their daemons on the tests' few
    /// cooperative threads, and `waitUntilExit` spins a run loop at full CPU until Foundation
    /// sees the exit. Two such waits once held both threads and stalled the whole suite.
    @discardableResult
    func waitForExit(within limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        while isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        return !isRunning
    }
}
