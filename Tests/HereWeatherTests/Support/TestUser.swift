import Foundation
import Glibc
import Testing
import HereWeatherCore

/// Who the tests run as, and how a test runs a program as root or as another user.
///
/// `make test` runs as whoever types it: CI as root, a newcomer as themselves, in a checkout
/// under a home only they may enter (mode 0700). What root alone may do, the tests do another
/// way for everyone else:
/// * as root of a user namespace of its own (`unshare --user --map-root-user`, which Debian 12
///   and Ubuntu allow without privileges): what the program allows root only (naming another
///   system policy), and a process count of its own (`RLIMIT_NPROC` counts per user namespace);
/// * with mount and network namespaces inside such a user namespace (`namespaces`): a private
///   `/etc` file and a private network for the real GeoClue;
/// * as "another user" with no rights to a file: an ordinary user is one already (mode bits
///   apply to them). Root switches to another uid with `setpriv`, running a copy of the binary
///   that every user can reach (`CommandRunner.reachableExecutable`): the checkout may sit in a
///   folder only its owner can enter.
///
/// A test that needs root itself carries `.needsRoot(why)`: run by anyone else it is skipped,
/// with one line in the run's output naming it and "needs root". CI runs as root.
enum TestUser {
    /// Whether the tests run as root (real and effective), as CI does.
    static let isRoot = getuid() == 0 && geteuid() == 0

    /// `command` run as root: as it is for root; for anyone else as root of a new user
    /// namespace, which may do what the program allows root, and nothing more on this machine.
    static func asRoot(_ command: [String]) -> [String] {
        isRoot ? command : ["/usr/bin/unshare", "--user", "--map-root-user", "--"] + command
    }

    /// `command` run as root of a user namespace of its own, as in a container: a user other than
    /// the first namespace's root, who is held to `RLIMIT_NPROC`. Root first becomes `id`.
    static func asRootOfAUserNamespace(_ command: [String], id: UInt32) -> [String] {
        let unshared = ["/usr/bin/unshare", "--user", "--map-root-user", "--"] + command
        return isRoot ? asUser(id, unshared) : unshared
    }

    /// `command` run as `id` with no supplementary groups (root only: `setpriv` from
    /// util-linux, which Debian always has). Run `CommandRunner.reachableExecutable`, not the
    /// checkout's binary.
    static func asUser(_ id: UInt32, _ command: [String]) -> [String] {
        precondition(isRoot, "only root can run a program as another user")
        return ["/usr/bin/setpriv", "--reuid=\(id)", "--regid=\(id)", "--clear-groups", "--"] + command
    }

    /// `unshare` with `flags` (`--mount`, `--net`, ...) and then `command`: as root plain namespaces;
    /// for anyone else inside a user namespace that maps their own uid to itself and keeps its
    /// capabilities across `exec` (so a script may mount, and the programs it starts, seen from
    /// outside through a socket, are the user's own uid: D-Bus and GeoClue check it).
    static func namespaces(_ flags: [String], _ command: [String]) -> [String] {
        let user = isRoot ? [] : ["--user", "--map-current-user", "--keep-caps"]
        return ["/usr/bin/unshare"] + user + flags + ["--"] + command
    }

    /// Whether this machine lets an ordinary user make a user namespace (Ubuntu 24.04's AppArmor
    /// refuses it unless told otherwise), and if not, what `unshare` said.
    static let userNamespaceRefusal: String? = {
        if isRoot { return nil }
        guard let run = try? ChildProcess.run(["/usr/bin/unshare", "--user", "--map-root-user", "--", "/bin/true"],
                                              environment: ["PATH": "/usr/bin:/bin"], mergingErrors: true,
                                              limit: .seconds(60)) else { return "unshare could not be started" }
        return run.termination == .exited(0) ? nil : run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }()

    /// Throws, saying what to do, when a test needs a user namespace this machine refuses.
    static func requireUserNamespaces() throws {
        if let refusal = userNamespaceRefusal {
            throw LaunchFailure(description: "this test needs root or an unprivileged user namespace, which this machine "
                                + "refuses (\(refusal)): run it as root, or allow them (on Ubuntu 24.04: "
                                + "sysctl kernel.apparmor_restrict_unprivileged_userns=0)")
        }
    }
}

/// A run in which the binary never started: its wrapper (`setpriv`, `unshare`, `prlimit`,
/// `sh`) could not execute it, exiting 126 (found but not runnable, e.g. a folder on the way
/// the uid may not enter) or 127 (not found). here-weather never exits with either
/// (`ExitStatus`), so such a status is the harness's failure, never the program's answer.
struct LaunchFailure: Error, CustomStringConvertible {
    let description: String

    /// Throws when `termination` is a wrapper's 126 or 127, naming the command and its stderr.
    static func check(_ termination: ChildProcess.Termination, stderr: String, command: [String]) throws {
        guard termination == .exited(126) || termination == .exited(127) else { return }
        let said = stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        throw LaunchFailure(description: "the test harness could not start the program (exit \(termination.code) from "
                            + "\(command.first ?? "?")): \(said.isEmpty ? "no message" : said). Command: "
                            + command.joined(separator: " "))
    }
}

extension Trait where Self == ConditionTrait {
    /// For a test that needs root itself (installing into the system, ...): run by anyone else
    /// it is skipped, with one line in the run's output naming it and saying why.
    static func needsRoot(_ why: String) -> Self {
        .enabled(if: TestUser.isRoot, "needs root: \(why); run it as root (sudo, or CI's .ci/run)")
    }
}
