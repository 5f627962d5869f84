import Foundation
import Glibc

/// Kills the process groups of the tests' children when the test process dies, however it
/// dies (a crash, SIGKILL from a watchdog, Ctrl-C).
///
/// One small `sh` per test process, in a process group of its own, reads a socket whose other
/// end only the test process holds (close-on-exec, so no child inherits it). `ChildProcess`
/// writes `+<group>` when it starts a child and `-<group>` once it has reaped it; at the end
/// of the stream, which comes when the test process is gone, `sh` SIGKILLs every group still
/// listed.
///
/// Why not a parent-death signal (`PR_SET_PDEATHSIG`, or `setpriv --pdeathsig`): it fires
/// when the *thread* that spawned the child ends (BlockingCall threads end at once), it
/// reaches only the child and not what the child starts, and gpsd clears it when it drops
/// root. Why not a wrapper per child: the pid would be the wrapper's, not the program's, and
/// an exit by signal would become `sh`'s exit status.
final class ChildGuardian: @unchecked Sendable {
    static let shared = ChildGuardian()

    /// The guardian's pid, or nil if it could not be started (children then die with the
    /// test process only if their own lifelines end them).
    let pid: pid_t?
    private let socket: Int32
    private let lock = NSLock()

    static let script = """
        groups=' '
        while read -r line; do
          case $line in
            +*) groups="$groups${line#+} " ;;
            -*) g=${line#-}
                case $groups in *" $g "*) groups="${groups%% $g *} ${groups#* $g }" ;; esac ;;
          esac
        done
        for g in $groups; do kill -9 "-$g" 2>/dev/null; done
        """

    private init() {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            pid = nil
            socket = -1
            return
        }
        defer { close(ends[1]) }
        socket = ends[0]
        pid = try? ChildProcess.spawn(["/bin/sh", "-c", Self.script, "here-weather-test-guardian"],
                                      environment: ["PATH=/usr/bin:/bin"], directory: "/",
                                      descriptors: [.use(ends[1]), .null, .null])
    }

    /// Kill `group` if the test process dies.
    func watch(_ group: pid_t) { send("+\(group)\n") }

    /// `group` is over: forget it.
    func forget(_ group: pid_t) { send("-\(group)\n") }

    /// One short line, written at once (MSG_NOSIGNAL: a guardian that is gone raises no SIGPIPE).
    private func send(_ line: String) {
        guard pid != nil else { return }
        let bytes = Array(line.utf8)
        lock.lock(); defer { lock.unlock() }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 { offset += written } else if written < 0 && errno == EINTR { continue } else { return }
        }
    }
}
