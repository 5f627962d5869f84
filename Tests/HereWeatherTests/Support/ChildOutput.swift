import Foundation
import Glibc
import HereWeatherCore

/// A pipe between the test process and a child: hand `childEnd` to `ChildProcess`, then call
/// `closeChildEnd()`. Both ends are close-on-exec, so no other child inherits them.
final class ChildPipe: @unchecked Sendable {
    /// The end the test reads (for a child's output) or writes (for its input).
    let ourEnd: Int32
    /// The end the child gets.
    let childEnd: Int32
    private let childEndOpen = OnceFlag(), ourEndOpen = OnceFlag()

    /// A pipe for a child's output (`forInput: false`) or input (`true`).
    init(forInput: Bool = false) throws {
        var ends: [Int32] = [-1, -1]
        guard c_pipe2(&ends, O_CLOEXEC) == 0 else {
            throw ChildProcess.SpawnError(description: "pipe2: \(String(cString: strerror(errno)))")
        }
        (ourEnd, childEnd) = forInput ? (ends[1], ends[0]) : (ends[0], ends[1])
    }

    /// Once the child has started: only the child holds its end now, so our reads end when it does.
    func closeChildEnd() { if childEndOpen.claim() { close(childEnd) } }

    /// Closes our end: for an input pipe, the child reads its end.
    func closeOurEnd() { if ourEndOpen.claim() { close(ourEnd) } }

    deinit {
        closeChildEnd()
        closeOurEnd()
    }
}

/// A child's output read to its end on a thread of its own, so that a child filling one pipe
/// cannot stall while the test reads the other.
final class CollectedOutput: @unchecked Sendable {
    private let condition = NSCondition()
    private var data: Data?

    /// Starts reading `pipe` (whose child end is closed already) to its end.
    init(_ pipe: ChildPipe) {
        let started = BlockingCall.startThread { [self] in
            let bytes = readToEndRetryingInterrupts(pipe.ourEnd)
            condition.lock()
            data = bytes
            condition.broadcast()
            condition.unlock()
        }
        if !started { data = readToEndRetryingInterrupts(pipe.ourEnd) }
    }

    /// The bytes, waiting (at most `limit`) for the end of the stream: it comes when the child's
    /// group is gone, unless a process that left the group still holds the pipe.
    func bytes(within limit: Duration = .seconds(30)) -> Data {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: limit.seconds)
        while data == nil && condition.wait(until: deadline) {}
        return data ?? Data()
    }

    func text(within limit: Duration = .seconds(30)) -> String { String(decoding: bytes(within: limit), as: UTF8.self) }
}

extension ChildProcess {
    /// A run to its end: how it ended, what it printed, and how long it took.
    struct Finished: Sendable {
        var termination: Termination
        var stdout: Data
        var stderr: Data
        /// From start to exit.
        var elapsed: Duration
        /// It was still running after the limit and its group was killed.
        var killed: Bool

        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// The default bound of a child run to its end: ten minutes, more than a cold `swift build`
    /// here takes, less than the watchdog's limit for the whole suite (a hung child fails its
    /// test, named, instead of hanging the run).
    static let longestChild: Duration = .seconds(600)

    /// Runs `arguments` to its end with stdout and stderr captured (stderr into stdout with
    /// `mergingErrors`), killing its group after `limit`. Blocks: call it through
    /// `BlockingCall.run`, or use `finished`.
    static func run(_ arguments: [String], environment: [String: String], directory: String? = nil,
                    stdin: Descriptor = .null, mergingErrors: Bool = false, limit: Duration? = longestChild) throws -> Finished {
        let out = try ChildPipe()
        let err = mergingErrors ? nil : try ChildPipe()
        let started = ContinuousClock.now
        let child = try ChildProcess(arguments, environment: environment, directory: directory, stdin: stdin,
                                     stdout: .use(out.childEnd), stderr: .use((err ?? out).childEnd))
        out.closeChildEnd()
        err?.closeChildEnd()
        let outText = CollectedOutput(out), errText = err.map(CollectedOutput.init)
        var killed = false
        let termination: Termination
        if let limit {
            if let ended = child.wait(within: limit) {
                termination = ended
            } else {
                killed = true
                termination = child.terminate()
            }
        } else {
            termination = child.wait()
        }
        let elapsed = ContinuousClock.now - started
        return Finished(termination: termination, stdout: outText.bytes(), stderr: errText?.bytes() ?? Data(),
                        elapsed: elapsed, killed: killed)
    }

    /// `run` on a thread of its own, for async tests.
    static func finished(_ arguments: [String], environment: [String: String], directory: String? = nil,
                         stdin: Descriptor = .null, mergingErrors: Bool = false, limit: Duration? = longestChild) async throws -> Finished {
        try await BlockingCall.run {
            Result { try run(arguments, environment: environment, directory: directory, stdin: stdin,
                             mergingErrors: mergingErrors, limit: limit) }
        }
    }
}

@_silgen_name("pipe2") private func c_pipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32
