import Foundation
import Glibc
import HereWeatherCore

/// `CommandRunner` for fault tests: a run that cannot hang the test (a child still running
/// after `limit` is killed and reported), its wall time, and the ways a fault is set up
/// around the binary: as an unprivileged user (root ignores mode bits), as root (who alone may
/// name another system policy), and with no room to write files (a full disk). `TestUser`
/// says how each is done for root (CI) and for an ordinary user.
extension CommandRunner {
    /// The unprivileged user root runs the binary as (`nobody` on Debian).
    static let unprivilegedID: UInt32 = 65534

    /// The release binary, copied once per test process into a folder of its own that every
    /// user may enter (0755), for runs as another uid: the checkout's copy may be out of their
    /// reach (a checkout under a 0700 home, or a `mktemp -d` folder). Removed when the test
    /// process exits.
    static let reachableExecutable: String = {
        let folder = copyFolder, copy = copyFolder + "/here-weather"
        do {
            try? FileManager.default.removeItem(atPath: folder)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
            try FileManager.default.copyItem(atPath: executable.path, toPath: copy)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: copy)
        } catch {
            fatalError("cannot copy \(executable.path) to \(copy) for runs as another user: \(error)")
        }
        atexit { try? FileManager.default.removeItem(atPath: Self.copyFolder) }
        return copy
    }()

    private static var copyFolder: String {
        FileManager.default.temporaryDirectory.appendingPathComponent("here-weather-binary-\(getpid())").path
    }

    /// How a bounded run went.
    struct BoundedResult: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
        var elapsed: Duration
        /// The child was still running at the limit and was killed: it hung.
        var hung: Bool

        /// stderr's lines, without the empty last one.
        var stderrLines: [Substring] { stderr.split(separator: "\n") }
    }

    /// What to wrap the binary in.
    struct Setup: Sendable {
        /// Run as a user whom mode bits stop: root runs the binary as `unprivilegedID`; an
        /// ordinary user is one already.
        var unprivileged = false
        /// Run as root: root itself, or anyone else as root of a user namespace (`TestUser.asRoot`).
        var asRoot = false
        /// `ulimit -f 0` with SIGXFSZ ignored: every write to a regular file fails with EFBIG,
        /// as on a full disk, and nothing else changes (pipes, reads, sockets).
        var noRoomToWrite = false
        /// Shell commands run just before the binary, for what the tests' Swift strings cannot pass: bytes that
        /// are not UTF-8 in arguments or variables, e.g. `set -- --config "$(printf 'x\\351')" "$@"`.
        var shellPrelude: String?
    }

    /// Gives HOME and everything under it to `unprivilegedID`, for `Setup.unprivileged` (when the
    /// tests run as root; an ordinary user's runs keep it as theirs).
    func handHomeToUnprivilegedUser() throws {
        guard TestUser.isRoot else { return }
        let id = Self.unprivilegedID
        guard lchown(home.path, id, id) == 0 else { throw POSIXError(.EPERM) }
        let walker = FileManager.default.enumerator(atPath: home.path)
        while let relative = walker?.nextObject() as? String {
            lchown(home.path + "/" + relative, id, id)
        }
    }

    /// Runs the binary with `arguments`, killing it if it has not ended after `limit`.
    func run(_ arguments: [String], setup: Setup, limit: Duration = .seconds(90),
             environment extra: [String: String] = [:]) async throws -> BoundedResult {
        try await BlockingCall.run { Swift.Result { try runBounded(arguments, setup: setup, limit: limit, environment: extra) } }
    }

    private func runBounded(_ arguments: [String], setup: Setup, limit: Duration,
                            environment extra: [String: String]) throws -> BoundedResult {
        let unprivileged = setup.unprivileged && TestUser.isRoot
        var command = [unprivileged ? Self.reachableExecutable : Self.executable.path] + arguments
        if let prelude = setup.shellPrelude {
            command = ["/bin/sh", "-c", prelude + "\nexec \"$0\" \"$@\""] + command
        }
        if setup.noRoomToWrite {
            command = ["/bin/sh", "-c", "trap '' XFSZ; ulimit -f 0; exec \"$0\" \"$@\""] + command
        }
        if unprivileged {
            command = TestUser.asUser(Self.unprivilegedID, command)
        }
        if setup.asRoot {
            try TestUser.requireUserNamespaces()
            command = TestUser.asRoot(command)
        }
        // Output through pipes (a file limit would stop files too).
        var environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        for (key, value) in extra { environment[key] = value }
        let run = try ChildProcess.run(command, environment: environment, limit: limit)
        try LaunchFailure.check(run.termination, stderr: run.stderrText, command: command)
        return BoundedResult(status: run.termination.code, stdout: run.stdoutText, stderr: run.stderrText,
                             elapsed: run.elapsed, hung: run.killed)
    }
}

extension CommandRunner.BoundedResult {
    /// stdout parsed as a JSON object.
    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
    }
}
