import Foundation
import Glibc
import HereWeatherCore

/// A child process of the tests: started with `posix_spawn`, waited for with a pidfd and
/// reaped with `waitpid`; the one way tests start programs (never Foundation's `Process`, which
/// crashed the test process in `run()` and stalled the pool waiting for exits).
///
/// Every child starts clean and stays reachable:
/// * an empty signal mask and every signal at its default (the test process blocks most
///   signals on its threads, and a child that inherited that mask ignored SIGTERM);
/// * in a process group of its own, whose number is `pid`: `killGroup` and `terminate` end the
///   child and everything it started, and when the child ends by itself whatever is left of
///   its group is killed before it is reaped (a leftover once held swift-test's stderr);
/// * with only the descriptors it is given (0, 1, 2 and `extra` as 3, 4, ...), so no child
///   holds another's pipes;
/// * registered with `ChildGuardian`, which kills its group if the test process dies first,
///   even by SIGKILL.
///
/// Waits block their thread: call them through `BlockingCall.run` (or `exited()`), never on the
/// cooperative pool.
final class ChildProcess: @unchecked Sendable {
    /// How a child ended: its exit status, or the signal that ended it.
    enum Termination: Equatable, Sendable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        /// The exit status, or the number of the signal that ended it (as Foundation's
        /// `terminationStatus` gave it).
        var code: Int32 {
            switch self {
            case .exited(let status), .signalled(let status): return status
            }
        }

        init(waitStatus status: Int32) {
            if status & 0x7F == 0 { self = .exited((status >> 8) & 0xFF) } else { self = .signalled(status & 0x7F) }
        }

        var description: String {
            switch self {
            case .exited(let status): return "exit status \(status)"
            case .signalled(let signal): return "signal \(signal) (\(String(cString: strsignal(signal))))"
            }
        }
    }

    /// Where one of the child's descriptors comes from.
    enum Descriptor {
        /// /dev/null, opened for reading (stdin) or writing.
        case null
        /// A descriptor of the test process (it stays open here; close it after `init`).
        case use(Int32)
    }

    /// A child that could not be started (or watched), and why.
    struct SpawnError: Error, CustomStringConvertible {
        let description: String
    }

    /// The child's process id, which is also its process group's.
    let pid: pid_t

    private let lock = NSLock()
    private var termination: Termination?
    private var pidfd: Int32

    /// Starts `arguments[0]` (an absolute path) with exactly `environment`.
    init(_ arguments: [String], environment: [String: String], directory: String? = nil,
         stdin: Descriptor = .null, stdout: Descriptor = .null, stderr: Descriptor = .null,
         extra: [Int32] = []) throws {
        pid = try Self.spawn(arguments, environment: environment.map { "\($0.key)=\($0.value)" },
                             directory: directory, descriptors: [stdin, stdout, stderr] + extra.map { .use($0) })
        ChildGuardian.shared.watch(pid)
        pidfd = c_pidfd_open(pid, 0)
        guard pidfd >= 0 else {
            let code = errno
            _ = Glibc.kill(-pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            ChildGuardian.shared.forget(pid)
            termination = Termination(waitStatus: status)   // reaped: deinit must not touch the pid
            throw SpawnError(description: "ChildProcess: pidfd_open: \(String(cString: strerror(code)))")
        }
    }

    /// A child dropped while it runs is killed with its group and reaped on a thread of its own
    /// (a deinit may run on the cooperative pool, where no wait belongs).
    deinit {
        guard termination == nil else { return }
        _ = Glibc.kill(-pid, SIGKILL)
        let (pid, pidfd) = (self.pid, self.pidfd)
        let reaper: @Sendable () -> Void = {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            close(pidfd)
            ChildGuardian.shared.forget(pid)
        }
        if !BlockingCall.startThread(reaper) { reaper() }
    }

    // MARK: ending

    /// Sends `signal` to the child's whole process group (nothing once it has been reaped: its
    /// number may be another's by then).
    func killGroup(_ signal: Int32 = SIGKILL) {
        lock.withLock { if termination == nil { _ = Glibc.kill(-pid, signal) } }
    }

    /// Sends `signal` to the child alone.
    func signal(_ signal: Int32) {
        lock.withLock { if termination == nil { _ = Glibc.kill(pid, signal) } }
    }

    /// Kills the whole group and reaps the child.
    @discardableResult
    func terminate() -> Termination {
        killGroup(SIGKILL)
        return wait()
    }

    // MARK: waiting

    /// How it ended, if it has (reaps it; does not wait).
    var exitStatus: Termination? { wait(within: .zero) }

    /// Waits for the end (blocking).
    @discardableResult
    func wait() -> Termination {
        while true {
            if let ended = wait(within: .seconds(3600)) { return ended }
        }
    }

    /// Waits at most `limit` for the end (blocking); nil if it is still running then.
    func wait(within limit: Duration) -> Termination? {
        if let ended = lock.withLock({ termination }) { return ended }
        let deadline = ContinuousClock.now + limit
        while true {
            let left = max(ContinuousClock.now.duration(to: deadline), .zero)
            let milliseconds = Int32(clamping: left.wholeMilliseconds)
            if hasEnded(pollingFor: milliseconds) { return reap() }
            if left <= .zero { return nil }
        }
    }

    /// `wait()` on a thread of its own, for async tests; cancelling the task kills the group.
    func exited() async -> Termination {
        (try? await BlockingCall.run({ .success(self.wait()) }, onCancel: { self.killGroup() })) ?? terminate()
    }

    /// Whether the child has exited (a zombie, or reaped), polling its pidfd for at most `milliseconds`.
    private func hasEnded(pollingFor milliseconds: Int32) -> Bool {
        let descriptor = lock.withLock { termination == nil ? pidfd : -1 }
        guard descriptor >= 0 else { return true }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, milliseconds)
        return ready > 0
    }

    /// Kills what is left of the exited child's group (the zombie keeps the number ours), then reaps it.
    private func reap() -> Termination {
        lock.withLock {
            if let termination { return termination }
            _ = Glibc.kill(-pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            let ended = Termination(waitStatus: status)
            termination = ended
            close(pidfd)
            pidfd = -1
            ChildGuardian.shared.forget(pid)
            return ended
        }
    }

    // MARK: spawning

    /// posix_spawn with an empty signal mask, default dispositions, a new process group, and
    /// `descriptors` as 0, 1, 2, ... (nothing else open).
    static func spawn(_ arguments: [String], environment: [String], directory: String?,
                      descriptors: [Descriptor]) throws -> pid_t {
        guard let path = arguments.first, path.hasPrefix("/") else {
            throw SpawnError(description: "ChildProcess: \(arguments.first ?? "(nothing)") is not an absolute path")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, descriptor) in descriptors.enumerated() {
            let target = Int32(target)
            switch descriptor {
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .use(let source):
                // An earlier dup2 would have replaced a source below the targets already.
                guard source >= Int32(descriptors.count) || source == target else {
                    throw SpawnError(description: "ChildProcess: descriptor \(source) would be overwritten before it becomes \(target)")
                }
                posix_spawn_file_actions_adddup2(&actions, source, target)
            }
        }
        guard c_posix_spawn_file_actions_addclosefrom_np(&actions, Int32(descriptors.count)) == 0,
              directory.map({ c_posix_spawn_file_actions_addchdir_np(&actions, $0) == 0 }) ?? true else {
            throw SpawnError(description: "ChildProcess: posix_spawn file actions failed")
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        // sigfillset leaves out glibc's own signals 32 and 33 (thread cancellation, setxid), and
        // posix_spawn then leaves them ignored in the program it starts: set their bits too.
        everySignal.__val.0 |= (1 << 31) | (1 << 32)
        var noSignal = sigset_t()
        sigemptyset(&noSignal)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setsigmask(&attributes, &noSignal)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let cArguments = arguments.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) }; cEnvironment.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, cArguments, cEnvironment)
        guard result == 0 else {
            throw SpawnError(description: "ChildProcess: cannot start \(path): \(String(cString: strerror(result)))")
        }
        return pid
    }
}

// Glibc functions the Swift Glibc module does not import (they need _GNU_SOURCE).
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func c_posix_spawn_file_actions_addclosefrom_np(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func c_posix_spawn_file_actions_addchdir_np(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>) -> Int32
@_silgen_name("pidfd_open") private func c_pidfd_open(_ pid: pid_t, _ flags: UInt32) -> Int32
