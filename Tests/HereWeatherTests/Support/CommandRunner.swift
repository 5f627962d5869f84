import Foundation
import HereWeatherCore

/// Runs the built `here-weather` binary as a user would: a temporary HOME and XDG
/// folders, no inherited config, stdin from /dev/null, stdout and stderr captured.
struct CommandRunner: TemporaryHome {
    struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
        /// From start to exit.
        var elapsed: Duration = .zero
        /// Whether the run outlived its `killAfter` limit and was killed (it hung).
        var killed = false
    }

    /// A fresh home folder with empty XDG directories under it.
    let home: URL

    init() throws {
        home = try Self.makeHome()
    }

    /// The binary users run: the release build that `make build` makes (static Swift
    /// runtime), not the debug build beside the test bundle. Swift's optimiser has broken
    /// code that the debug build ran fine, so every command test runs this one.
    ///
    /// `make test` builds it and names it in `HERE_WEATHER_BINARY`; a bare `swift test`
    /// looks for it in `.build/release` and stops with what to run if it is not there.
    static let executable: URL = {
        let named = ProcessInfo.processInfo.environment["HERE_WEATHER_BINARY"].flatMap { $0.isEmpty ? nil : $0 }
        let url = named.map { URL(fileURLWithPath: $0) }
            ?? Fixtures.root.appendingPathComponent(".build/release/here-weather")
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            fatalError("the release binary \(url.path) is missing: run `make build` first, or the tests with `make test`")
        }
        return url
    }()

    /// Runs the binary with `arguments` and extra `environment` values.
    ///
    /// The child is waited for on a thread of its own: hundreds of these run in parallel, and
    /// blocking waits on the few cooperative threads would stall the tests whose point is a
    /// deadline.
    /// A run still going after `killAfter` (two minutes unless told: no run is meant to take
    /// more than a deadline of seconds) is killed (SIGKILL to its process group) and marked
    /// `killed`: a hung binary then fails its test instead of hanging the suite.
    /// `asRoot`: as root, or for anyone else as root of a user namespace (`TestUser.asRoot`), for
    /// what the program allows root only (naming another system policy).
    func run(_ arguments: [String], environment extra: [String: String] = [:],
             killAfter limit: Duration? = TestLimits.longestRun, asRoot: Bool = false) async throws -> Result {
        try await BlockingCall.run { Swift.Result { try runBlocking(arguments, environment: extra, killAfter: limit, asRoot: asRoot) } }
    }

    private func runBlocking(_ arguments: [String], environment extra: [String: String],
                             killAfter limit: Duration?, asRoot: Bool) throws -> Result {
        var environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        for (key, value) in extra { environment[key] = value }
        var command = [Self.executable.path] + arguments
        if asRoot {
            try TestUser.requireUserNamespaces()
            command = TestUser.asRoot(command)
        }
        let run = try ChildProcess.run(command, environment: environment, limit: limit)
        try LaunchFailure.check(run.termination, stderr: run.stderrText, command: command)
        return Result(status: run.termination.code, stdout: run.stdoutText, stderr: run.stderrText,
                      elapsed: run.elapsed, killed: run.killed)
    }
}

extension CommandRunner.Result {
    /// stdout parsed as a JSON object.
    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
    }
}
