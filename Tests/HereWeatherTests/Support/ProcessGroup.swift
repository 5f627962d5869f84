import Foundation

/// The processes of a process group, from /proc, for harnesses that run a service in a group
/// of its own (`GPSDHarness`, `GeoClueHarness`) and the failure messages about them.
enum ProcessGroup {
    /// One process of the group.
    struct Member {
        let pid: Int32
        let command: String
        /// `S` sleeping, `R` running, `T` stopped, `D` blocked in the kernel, `Z` exited (not reaped).
        let state: String
        /// Where in the kernel it waits, and the number of the system call it is in.
        let wchan: String, syscall: String
    }

    static func members(_ group: pid_t) -> [Member] {
        var members: [Member] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            // Fields after "(comm)": state ppid pgrp ...
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, Int32(fields[2]) == group else { continue }
            let wchan = (try? String(contentsOfFile: "/proc/\(entry)/wchan", encoding: .utf8)) ?? "?"
            let syscall = (try? String(contentsOfFile: "/proc/\(entry)/syscall", encoding: .utf8))?
                .split(separator: " ").first.map(String.init) ?? "?"
            members.append(Member(pid: pid, command: String(stat[stat.index(after: open)..<close]),
                                  state: String(fields[0]), wchan: wchan, syscall: syscall))
        }
        return members.sorted { $0.pid < $1.pid }
    }

    /// `pid command state S wchan do_select syscall 270`, one line per process.
    static func report(_ group: pid_t) -> String {
        let lines = members(group).map { "\($0.pid) \($0.command) state \($0.state) wchan \($0.wchan) syscall \($0.syscall)" }
        return lines.isEmpty ? "no process in group \(group)" : lines.joined(separator: "\n")
    }
}
