import Foundation
import Synchronization
@testable import HereWeatherCLI
import HereWeatherCore

/// Runs the command in the test process, as `CommandRunner` runs the binary: a temporary HOME
/// and XDG folders, no inherited config, stdout and stderr captured, no terminal and a
/// permission prompt that cannot be answered (stdin from /dev/null), unless a test says
/// otherwise. It needs no release build: for the tests whose point is the command's logic
/// (parsing, suggestions, help, failure lines, output formats, config and permissions). Each
/// run executes on threads of its own (`RunThreads`), as a process would.
/// Tests of the process itself (exit seen by a parent, signals, descriptors, stdout that
/// fails) run the binary with `CommandRunner`.
struct InProcessCommand: TemporaryHome {
    /// The same shape as the binary's runs: status, stdout, stderr.
    typealias Result = CommandRunner.Result

    /// A fresh home folder with empty XDG directories under it.
    let home: URL

    /// Whether a run waits for one of the `slots`; a run timed against a live feed starts at
    /// once (the gpsd harness writes its log once a client watches, and waits only so long).
    let queued: Bool

    init(queued: Bool = true) throws {
        self.queued = queued
        home = try Self.makeHome()
    }

    /// The terminal facts of a run: none by default, as with stdin from /dev/null and pipes.
    struct TerminalFacts {
        var standardOutput = false
        var standardError = false
        /// The width `TIOCGWINSZ` would report.
        var columns: Int?
    }

    /// Runs the command with `arguments` and extra `environment` values (over HOME, PATH and
    /// LANG, as `CommandRunner` sets them), on the live system unless `assembly` gives the
    /// test's (`RunSystem.test`). A run still going after `killAfter` (two minutes unless told)
    /// is left behind and reported `killed`, so that a hung run fails its test and frees its
    /// slot instead of hanging every queued run after it. `asRoot`: the run is told that its
    /// process runs as root (`CommandContext.runsAsRoot`), who alone may name another system
    /// policy; otherwise it runs as an ordinary user, whoever runs the tests.
    func run(_ arguments: [String], environment extra: [String: String] = [:], killAfter limit: Duration? = TestLimits.longestRun,
             terminal: TerminalFacts = TerminalFacts(), asRoot: Bool = false,
             prompt: any PermissionPrompt = ScriptedPrompt([], interactive: false),
             standardOutput: CapturedOutput = CapturedOutput(), standardError: CapturedOutput = CapturedOutput(),
             assembly: SystemAssembly = .live) async throws -> Result {
        var environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        for (key, value) in extra { environment[key] = value }
        let context = CommandContext(
            arguments: arguments, environment: environment,
            standardOutput: standardOutput, standardError: standardError,
            standardOutputIsTerminal: terminal.standardOutput, standardErrorIsTerminal: terminal.standardError,
            terminalColumns: terminal.columns, runsAsRoot: asRoot, prompt: prompt, assembly: assembly)
        let body: @Sendable () async throws -> Result = {
            let started = ContinuousClock.now
            let threads = RunThreads()
            let run = Task(executorPreference: threads) { await HereWeatherCommand.run(context) }
            let status = await Self.status(of: run, within: limit)
            if status != nil { threads.stop() }
            return Result(status: status ?? -1, stdout: standardOutput.text, stderr: standardError.text,
                          elapsed: ContinuousClock.now - started, killed: status == nil)
        }
        return queued ? try await Self.slots.run(body) : try await body()
    }

    /// At most this many runs at once (a run's time starts when it gets a slot): two hundred
    /// runs started together in one process crowd out the other tests' deadlines (seen: HTTP
    /// and D-Bus unit tests timing out in a full run), as processes do on two cores.
    static let slots = ProcessSlots(4)

    /// The run's exit status, or `nil` when it is still going after `limit`.
    private static func status(of run: Task<Int32, Never>, within limit: Duration?) async -> Int32? {
        guard let limit else { return await run.value }
        let once = OnceFlag()
        return await withCheckedContinuation { (continuation: CheckedContinuation<Int32?, Never>) in
            Task {
                let status = await run.value
                if once.claim() { continuation.resume(returning: status) }
            }
            Task {
                try? await Task.sleep(for: limit)
                run.cancel()
                if once.claim() { continuation.resume(returning: nil) }
            }
        }
    }
}

/// A stream captured in memory; `failure` makes every write fail with that reason, as a full
/// disk (`"No space left on device"`) would.
final class CapturedOutput: OutputSink {
    private let written = Mutex("")
    let failure: String?

    init(failing failure: String? = nil) {
        self.failure = failure
    }

    func write(_ text: String) -> String? {
        if let failure { return failure }
        written.withLock { $0 += text }
        return nil
    }

    var text: String { written.withLock { $0 } }
}

/// Threads of its own for one in-process run, as many as a process's cooperative pool has
/// (one per core): the run's tasks (and the child tasks they start) execute here rather than
/// on the pool that every test shares, so a run gets the machine's time as a process would,
/// and its deadlines do not pass while it waits behind hundreds of other tests' tasks.
final class RunThreads: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false
    private var ended = false

    init(count: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)) {
        let started = (0..<count).filter { _ in BlockingCall.startThread { [self] in loop() } }.count
        if started == 0 { ended = true }  // No thread to be had: every job goes to the shared pool.
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        if ended {
            condition.unlock()
            // A task of the run still going after its end (a spinner's timer): the pool takes it.
            globalConcurrentExecutor.enqueue(job)
            return
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Ends the threads once they have run what is queued.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()  // Every thread, not one: each waits for work or the stop.
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            guard !jobs.isEmpty else {
                ended = true
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
