import Foundation
import Glibc
import HereWeatherCore

/// The built binary started with posix_spawn (never Foundation's `Process`), stderr on a
/// given descriptor (a pseudo-terminal's slave, so that `isatty(2)` holds), stdin and stdout
/// on /dev/null, a clean signal mask, in a process group of its own, only the runner's HOME
/// and a few variables in its environment. Waited for on a thread of its own, and killed
/// (the whole group) if it runs past `limit`.
enum SpawnedCommand {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs to the end and returns the exit status (128 + the signal for a killed run).
    static func run(_ runner: CommandRunner, _ arguments: [String], stderr: Int32,
                    environment extra: [String: String] = [:], limit: Duration = .seconds(60)) async throws -> Int32 {
        let pid = try spawn(runner, arguments, stderr: stderr, environment: extra)
        return try await BlockingCall.run { Result { wait(pid, limit: limit) } }
    }

    private static func spawn(_ runner: CommandRunner, _ arguments: [String], stderr: Int32,
                              environment extra: [String: String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        guard spawnCloseFrom(&actions, 3) == 0 else { throw Failure(description: "posix_spawn_file_actions_addclosefrom_np failed") }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var environment = ["HOME": runner.home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm"]
        for (key, value) in extra { environment[key] = value }
        let argv = [CommandRunner.executable.path] + arguments
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { cArguments.forEach { free($0) }; cEnvironment.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
        guard result == 0 else { throw Failure(description: "posix_spawn \(argv[0]): errno \(result)") }
        return pid
    }

    /// Waits for `pid`; past `limit` its group is killed.
    private static func wait(_ pid: pid_t, limit: Duration) -> Int32 {
        let deadline = ContinuousClock.now + limit
        var status: Int32 = 0
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done < 0 && errno != EINTR { return -1 }
            if ContinuousClock.now > deadline { kill(-pid, SIGKILL) }
            usleep(10_000)
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}

@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
