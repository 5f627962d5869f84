import Foundation
import Testing
import HereWeatherCore
#if canImport(Glibc)
import Glibc
#endif

/// `ChildProcess`, the one way the tests start programs: each child starts clean (no blocked or
/// ignored signals), in a process group of its own that is killed whole, and dies with the test
/// process. Findings behind it: a child that inherited the runner's signal mask ignored SIGTERM;
/// two fixture servers orphaned by a crashed run held swift-test's stderr, and the run hung.
@Suite struct ChildProcessTests {
    /// `/proc/<pid>/status`'s `name:` field.
    static func field(_ name: String, in status: String) -> String? {
        status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
            .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
    }

    /// Whether any process of `group` is alive (zombies waiting for init do not count).
    static func alive(_ group: pid_t) -> Bool {
        ProcessGroup.members(group).contains { $0.state != "Z" }
    }

    /// Polls for up to `limit` until `group` has no living process; a wait, not a timing.
    static func gone(_ group: pid_t, within limit: Duration = .seconds(20)) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while alive(group) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return !alive(group)
    }

    @Test func aChildStartsWithNoSignalBlockedOrIgnoredInAGroupOfItsOwn() async throws {
        let (parentBlocked, run) = try await BlockingCall.run {
            Result { () throws -> (String?, ChildProcess.Finished) in
                // The spawning thread blocks signals, as the test runner's threads do.
                var signals = sigset_t()
                sigemptyset(&signals)
                for signal in [SIGTERM, SIGINT, SIGHUP, SIGUSR1] { sigaddset(&signals, signal) }
                pthread_sigmask(SIG_BLOCK, &signals, nil)
                let mine = try String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)
                let run = try ChildProcess.run(["/bin/cat", "/proc/self/status", "/proc/self/stat"], environment: [:])
                return (Self.field("SigBlk", in: mine), run)
            }
        }
        #expect(parentBlocked != "0000000000000000", "the spawning thread blocked signals")
        let status = run.stdoutText
        #expect(Self.field("SigBlk", in: status) == "0000000000000000", "\(status)")
        #expect(Self.field("SigIgn", in: status) == "0000000000000000", "\(status)")
        let pid = try #require(Self.field("Pid", in: status))
        // /proc/self/stat: pid (comm) state ppid pgrp ...
        let stat = try #require(status.split(separator: "\n").last { $0.hasPrefix(pid + " (") })
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        #expect(fields.count > 2 && String(fields[2]) == pid, "its process group is its own: \(stat)")
        #expect(run.termination == .exited(0))
    }

    @Test func onlyTheGivenDescriptorsAreOpenInTheChild() async throws {
        let pipe = try ChildPipe()   // open here, close-on-exec or not, it must not reach the child
        let run = try await ChildProcess.finished(["/bin/ls", "/proc/self/fd"], environment: [:])
        let open = run.stdoutText.split(separator: "\n").map(String.init).sorted()
        #expect(open == ["0", "1", "2", "3"], "0-2, and 3 the directory ls reads: \(open)")
        withExtendedLifetime(pipe) {}
    }

    @Test func terminateKillsTheWholeGroup() async throws {
        let child = try ChildProcess(["/bin/sh", "-c", "sleep 300 & sleep 300 & wait"], environment: ["PATH": "/usr/bin:/bin"])
        let group = child.pid
        try await Task.sleep(for: .milliseconds(200))
        #expect(Self.alive(group))
        let ended = try await BlockingCall.run { .success(child.terminate()) }
        #expect(ended == .signalled(SIGKILL))
        #expect(try await Self.gone(group), "left in group \(group): \(ProcessGroup.report(group))")
    }

    @Test func aChildDroppedWhileItRunsIsKilledWithItsGroup() async throws {
        let group = try { () throws -> pid_t in
            let child = try ChildProcess(["/bin/sh", "-c", "sleep 300 & sleep 300"], environment: ["PATH": "/usr/bin:/bin"])
            return child.pid
        }()
        #expect(try await Self.gone(group), "left in group \(group): \(ProcessGroup.report(group))")
    }

    /// A child that ends leaving a process behind in its group which holds its stdout: the run
    /// still ends, and the leftover is killed (it once held swift-test's stderr and hung the run).
    @Test func whatAChildLeavesInItsGroupIsKilledWhenItEnds() async throws {
        let run = try await ChildProcess.finished(["/bin/sh", "-c", "sleep 300 & echo $!"], environment: ["PATH": "/usr/bin:/bin"],
                                                  limit: .seconds(120))
        #expect(!run.killed, "the run ended by itself")
        #expect(run.elapsed < .seconds(100), "not held by the leftover's copy of stdout")
        let leftover = try #require(Int32(run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)))
        let stat = (try? String(contentsOfFile: "/proc/\(leftover)/stat", encoding: .utf8)) ?? ""
        let state = stat.split(separator: ")").last?.split(separator: " ").first.map(String.init)
        #expect(stat.isEmpty || state == "Z", "sleep \(leftover) still runs: \(stat)")
    }

    @Test func aRunPastItsLimitIsKilledAndSaysSo() async throws {
        let run = try await ChildProcess.finished(["/bin/sleep", "300"], environment: [:], limit: .seconds(1))
        #expect(run.killed)
        #expect(run.termination == .signalled(SIGKILL))
    }

    /// The proof that children die with the test process: a helper process (this test bundle,
    /// running only `deathHelper`) starts a child group through `ChildProcess` and is then
    /// SIGKILLed; its guardian must end that group.
    @Test func childrenDieWithTheTestProcessEvenBySIGKILL() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("death-helper-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let bundle = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var environment = ProcessInfo.processInfo.environment
        environment[Self.helperVariable] = pidFile
        let helper = try ChildProcess([bundle, "--testing-library", "swift-testing", "--filter", "deathHelper"],
                                      environment: environment)
        defer { helper.terminate() }
        var text = ""
        let deadline = ContinuousClock.now + .seconds(120)
        while !text.hasSuffix("\n"), helper.exitStatus == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            text = (try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? ""
        }
        let group = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)),
                                 "the helper wrote no pid (\(helper.exitStatus.map(\.description) ?? "still running"))")
        #expect(Self.alive(group))
        helper.signal(SIGKILL)
        #expect(await helper.exited() == .signalled(SIGKILL))
        #expect(try await Self.gone(group), "the dead test process's children live on: \(ProcessGroup.report(group))")
    }

    static let helperVariable = "HERE_WEATHER_TEST_DEATH_HELPER"

    /// Runs only inside `childrenDieWithTheTestProcessEvenBySIGKILL`'s helper: starts a child
    /// group, writes its number, and waits to be killed.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[helperVariable] != nil))
    func deathHelper() async throws {
        let path = try #require(ProcessInfo.processInfo.environment[Self.helperVariable])
        let child = try ChildProcess(["/bin/sh", "-c", "sleep 300 & sleep 300"], environment: ["PATH": "/usr/bin:/bin"])
        try "\(child.pid)\n".write(toFile: path, atomically: true, encoding: .utf8)
        try await Task.sleep(for: .seconds(300))
    }
}
