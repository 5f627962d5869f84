import Dispatch

/// Runs an async call from the synchronous fuzzer callback and waits for its result.
public func waitFor<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    guard let result = box.result else { fatalError("the task ended without a result") }
    return result
}

/// Carries the result from the task to the waiting thread (the semaphore orders the two).
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
