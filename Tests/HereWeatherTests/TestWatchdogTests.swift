import Foundation
import Testing
import HereWeatherCore

/// `scripts/test-watchdog`, the guard `make test` runs `swift test` under: a run still going at
/// the limit is killed whole, and the tests that started and did not finish are named.
@Suite struct TestWatchdogTests {
    static let script = Fixtures.root.appendingPathComponent("scripts/test-watchdog").path

    /// A stand-in for `swift test`: Swift Testing's progress lines, then a hang, with a
    /// process of its own in the background (whose pid it writes to `pidFile`).
    static func hangingRun(pidFile: String) -> String {
        """
        echo '◇ Test run started.'
        echo '◇ Test quick() started.'
        echo '✔ Test quick() passed after 0.001 seconds.'
        echo '◇ Test "a display name that hangs" started.'
        echo '◇ Test stuck(value:) started.'
        echo '◇ Test case passing 1 argument value → 1 to stuck(value:) started.'
        echo '◇ Test done(value:) started.'
        echo '◇ Test case passing 1 argument value → 1 to done(value:) started.'
        echo '✔ Test done(value:) with 2 test cases passed after 0.1 seconds.'
        echo '◇ Test broken(value:) started.'
        echo '✘ Test broken(value:) with 1 test case failed after 0.1 seconds with 1 issue.'
        echo '◇ Test failing() started.'
        echo '✘ Test failing() failed after 0.2 seconds with 1 issue.'
        echo '◇ Test skipped() started.'
        echo '➜ Test skipped() skipped.'
        sleep 300 &
        echo $! > '\(pidFile)'
        setsid sleep 301 &
        echo $! >> '\(pidFile)'
        sleep 300
        """
    }

    @Test func aRunPastTheLimitIsKilledWholeAndItsUnfinishedTestsNamed() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("watchdog-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let run = try await ChildProcess.finished([Self.script, "--limit", "2", "--", "/bin/sh", "-c", Self.hangingRun(pidFile: pidFile)],
                                                  environment: ["PATH": "/usr/bin:/bin"], limit: .seconds(120))
        #expect(!run.killed, "the watchdog ended the run itself")
        #expect(run.termination == .exited(124))
        let unfinished = run.stderrText.split(separator: "\n").filter { $0.hasPrefix("  ") }.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(unfinished.sorted() == ["\"a display name that hangs\"", "stuck(value:)"], "\(run.stderrText)")
        #expect(run.stdoutText.contains("Test quick() passed"), "the run's output passes through")
        // One in the run's group, one in a group of its own (as swift test starts the test bundle).
        let sleepers = try String(contentsOfFile: pidFile, encoding: .utf8).split(separator: "\n").compactMap { Int32($0) }
        #expect(sleepers.count == 2)
        for sleeper in sleepers {
            let stat = (try? String(contentsOfFile: "/proc/\(sleeper)/stat", encoding: .utf8)) ?? ""
            #expect(stat.isEmpty || stat.split(separator: ")").last?.split(separator: " ").first == "Z",
                    "the run's background process \(sleeper) outlived the kill: \(stat)")
        }
    }

    @Test func aRunThatEndsKeepsItsStatusAndItsLastLine() async throws {
        let summary = "✔ Test run with 2 tests in 1 suite passed after 0.1 seconds."
        let passed = try await ChildProcess.finished([Self.script, "--", "/bin/sh", "-c", "echo '\(summary)'"],
                                                     environment: ["PATH": "/usr/bin:/bin"], limit: .seconds(120))
        #expect(passed.termination == .exited(0))
        #expect(passed.stdoutText.split(separator: "\n").last.map(String.init) == summary)
        #expect(passed.stderrText.isEmpty, "\(passed.stderrText)")
        let failed = try await ChildProcess.finished([Self.script, "--", "/bin/sh", "-c", "exit 3"],
                                                     environment: ["PATH": "/usr/bin:/bin"], limit: .seconds(120))
        #expect(failed.termination == .exited(3))
    }
}
