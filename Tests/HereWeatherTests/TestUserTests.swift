import Foundation
import Glibc
import Testing
import HereWeatherCore

/// The test support's ways of running as root or as another user (`TestUser`): the suite passes
/// for root (CI) and for an ordinary user in a home only they may enter (issue 36).
@Suite struct TestUserTests {
    /// A wrapper's 126 (cannot execute) or 127 (not found) is the harness's failure, said as
    /// such, never a status of the program. Before, ResourceLimitTests run as root in a checkout
    /// under a 0700 folder read setpriv's 126 as here-weather's answer, 17 times.
    @Test func aWrapperThatCannotStartTheProgramIsTheHarnessFailing() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let notRunnable = folder + "/here-weather"
        try "not a program".write(toFile: notRunnable, atomically: true, encoding: .utf8)
        for (program, status) in [(notRunnable, Int32(126)), (folder + "/missing", 127)] {
            let command = ["/bin/sh", "-c", "exec \"$0\"", program]
            let run = try await ChildProcess.finished(command, environment: ["PATH": "/usr/bin:/bin"])
            #expect(run.termination == .exited(status), "\(run.stderrText)")
            let failure = #expect(throws: LaunchFailure.self) {
                try LaunchFailure.check(run.termination, stderr: run.stderrText, command: command)
            }
            let said = try #require(failure).description
            #expect(said.hasPrefix("the test harness could not start the program (exit \(status) from /bin/sh): "), "\(said)")
            #expect(said.contains(program), "names what could not be run: \(said)")
        }
        for status in ExitStatus.allCases {
            #expect(status.rawValue != 126 && status.rawValue != 127, "\(status) would be taken for the harness failing")
            try LaunchFailure.check(.exited(status.rawValue), stderr: "", command: ["/usr/bin/setpriv"])
        }
    }

    /// Runs as another user start the copy of the binary in a folder every user may enter, so a
    /// checkout in a folder only its owner may enter (a 0700 home, `mktemp -d`) is no obstacle.
    @Test func theBinaryForOtherUsersIsReachableByThem() async throws {
        let copy = CommandRunner.reachableExecutable
        var path = URL(fileURLWithPath: copy)
        while path.path != "/" {
            let mode = try #require(FileManager.default.attributesOfItem(atPath: path.path)[.posixPermissions] as? Int)
            #expect(mode & 0o005 == 0o005, "others cannot reach \(path.path) (mode \(String(mode, radix: 8)))")
            path.deleteLastPathComponent()
        }
        #expect(FileManager.default.contentsEqual(atPath: copy, andPath: CommandRunner.executable.path))
        guard TestUser.isRoot else { return }
        let command = TestUser.asUser(CommandRunner.unprivilegedID, [copy, "--version"])
        let run = try await ChildProcess.finished(command, environment: ["PATH": "/usr/bin:/bin"])
        try LaunchFailure.check(run.termination, stderr: run.stderrText, command: command)
        #expect(run.termination == .exited(0), "\(run.stderrText)")
    }

    /// What `asRoot` runs is root to the program, for root and for an ordinary user alike.
    @Test func asRootIsRootToTheProgram() async throws {
        try TestUser.requireUserNamespaces()
        let command = TestUser.asRoot(["/usr/bin/id", "-u"])
        let run = try await ChildProcess.finished(command, environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.termination == .exited(0), "\(run.stderrText)")
        #expect(run.stdoutText == "0\n")
    }

    /// `make test-root` (CI, as root, after the suite as an ordinary user) runs every suite
    /// whose path differs as root, and every test that needs root: a test file that uses
    /// `TestUser`, `.needsRoot`, the unprivileged user or the GeoClue harness is in its
    /// `ROOT_TESTS`.
    @Test func theRootRunHasEverySuiteThatDiffersAsRoot() throws {
        let makefile = try String(contentsOf: Fixtures.root.appendingPathComponent("Makefile"), encoding: .utf8)
        let line = try #require(makefile.split(separator: "\n").first { $0.hasPrefix("ROOT_TESTS = ") })
        let filter = try Regex(String(line.dropFirst("ROOT_TESTS = ".count)))
        let folder = Fixtures.root.appendingPathComponent("Tests/HereWeatherTests").path
        let marks = ["TestUser.", ".needsRoot(", "handHomeToUnprivilegedUser", "unprivileged: true", "GeoClueHarness"]
        var checked: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            guard marks.contains(where: text.contains) else { continue }
            // The file's first test, as swift test names it: HereWeatherTests.Suite/function().
            let suite = try #require(text.firstMatch(of: /(?:@Suite(?:\([^)]*\))? struct|extension) (\w+)/)?.output.1, "\(file)")
            let test = try #require(text.firstMatch(of: /@Test[\s\S]*?func (\w+)\(/)?.output.1, "\(file)")
            let identifier = "HereWeatherTests.\(suite)/\(test)()"
            #expect(identifier.contains(filter), "\(file): \(identifier) is not in the Makefile's ROOT_TESTS")
            checked.append(file)
        }
        #expect(checked.count >= 5, "\(checked)")
    }
}
