import Foundation

/// True the first time `claim()` is called and false after, from any thread: a harness's
/// `stop()` then runs once, whoever calls it first (a `defer` and a test's explicit stop).
final class OnceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false

    func claim() -> Bool {
        lock.withLock {
            defer { claimed = true }
            return !claimed
        }
    }

    /// Whether `claim()` was called.
    var isClaimed: Bool { lock.withLock { claimed } }
}
