import Foundation
import Glibc
import Testing
@testable import HereWeatherCore

/// The waybar module docs/output.md gives for `--follow` (its jsonc block, read from the page),
/// run by the real waybar on a headless sway, with the release binary as `here-weather` on PATH
/// and a local server whose third answer has another temperature. What the bar shows is read
/// from the compositor (`grim`): the first report's line, kept while nothing happens and when a
/// refresh brings the same line, and a new line once the module's on-click (the documented
/// `pkill -USR1 ...`) has run. The on-click signals the follower alone: neither the shell waybar
/// runs the command in nor its own shell dies of it.
@Suite struct WaybarFollowTests {
    /// The documented module: the first jsonc block of docs/output.md that runs `--follow`,
    /// without its comments, as one JSON object (`"custom/weather": {...}`).
    static func documentedModule() throws -> [String: Any] {
        let page = try DocumentationTests.read("docs/output.md")
        let blocks = page.components(separatedBy: "```jsonc\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
        let block = try #require(blocks.first { $0.contains("--follow") }, "docs/output.md has no jsonc block with --follow")
        let json = "{" + withoutComments(block) + "}"
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    /// `text` without its `//` comments (those outside strings), as waybar reads its config.
    static func withoutComments(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var inString = false, escaped = false, previous: Character = " "
            for (offset, character) in line.enumerated() {
                if inString {
                    if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                } else if character == "\"" {
                    inString = true
                } else if character == "/" && previous == "/" {
                    return String(line.prefix(offset - 1))
                }
                previous = character
            }
            return String(line)
        }.joined(separator: "\n")
    }

    @Test func theCommentStripperKeepsStrings() {
        #expect(Self.withoutComments("// a\n\"a\": \"x//y\", // b\n\"c\": \"\\\"//\"") == "\n\"a\": \"x//y\", \n\"c\": \"\\\"//\"")
    }

    @Test func theDocumentedModuleFollowsWithoutIntervalOrSignal() throws {
        let module = try #require(try Self.documentedModule()["custom/weather"] as? [String: Any])
        #expect((module["exec"] as? String)?.contains("here-weather --follow --waybar") == true)
        #expect(module["return-type"] as? String == "json")
        #expect(module["interval"] == nil && module["signal"] == nil)
    }

    @Test func aRealWaybarShowsTheNewLineAfterTheDocumentedOnClick() async throws {
        let same = try FollowProcessTests.forecast(26.8), new = try FollowProcessTests.forecast(19.5)
        let server = try FollowProcessTests.server { $0 < 2 ? same : $0 == 2 ? new : .hang }
        defer { server.stop() }
        let runner = try CommandRunner()
        try runner.writeConfig(FollowCommandTests.config(server.baseURL))
        // The documented command names `here-weather`: the release binary is that, first on PATH.
        // A copy, not a link: as root the session is nobody, who may not enter a checkout in a
        // private home (CI's test-root runs in the ordinary user's 0700 home).
        let bin = runner.home.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CommandRunner.executable.path, toPath: bin.appendingPathComponent("here-weather").path)

        let documented = try Self.documentedModule()
        let module = try #require(documented["custom/weather"] as? [String: Any])
        let onClick = try #require(module["on-click"] as? String)
        var config = documented
        config["layer"] = "top"
        config["position"] = "top"
        config["modules-left"] = ["custom/weather"]
        let session = try await WaylandSession.started(
            waybarConfig: config,
            environment: ["HOME": runner.home.path, "PATH": bin.path + ":/usr/bin:/bin", "LANG": "C.UTF-8",
                          "DBUS_SYSTEM_BUS_ADDRESS": Follower.noBus])
        defer { session.stop() }

        // The first line, from the first fetch.
        let first = try await waitForShot(session, "the bar to show the first line") { $0.showsText }
        #expect(server.requests.count == 1)

        // Nothing happens: nothing changes.
        try await Task.sleep(for: Self.quiet)
        #expect(try await session.screenshot() == first, "the bar changed with no signal; \(session.log)")

        // The on-click refreshes; the service's answer is the same, and so is the bar.
        #expect(try await session.run(onClick) == 0, "\(onClick): \(session.log)")
        #expect(try await waitUntil { server.requests.count == 2 }, "no fetch after the on-click; \(session.log)")
        try await Task.sleep(for: Self.quiet)
        #expect(try await session.screenshot() == first, "the bar changed with the same answer; \(session.log)")

        // Again, and the service's answer has another temperature: the bar shows a new line.
        #expect(try await session.run(onClick) == 0, "\(onClick): \(session.log)")
        #expect(try await waitUntil { server.requests.count == 3 }, "no fetch after the on-click; \(session.log)")
        let after = try await waitForShot(session, "the bar to show the new line") { $0 != first }
        #expect(after.showsText)

        // The on-click signalled the follower alone: no process of the session died of it
        // (waybar leaves a killed command's shell a zombie).
        #expect(try await session.run("! ps -eo stat= | grep -q Z") == 0, "a process of the session died: \(session.log)")
    }

    /// How long the bar is watched for a change that must not come: longer than the follower
    /// takes to print and waybar to draw, on a quiet machine (under 0.1 s).
    static let quiet = Duration.seconds(2)

    /// Screenshots until one satisfies `condition` (a wait for what the bar shows, bounded to tell
    /// "drawn" from "never").
    func waitForShot(_ session: WaylandSession, _ what: String,
                     _ condition: (Screenshot) -> Bool) async throws -> Screenshot {
        let end = ContinuousClock.now + .seconds(30)
        while true {
            let shot = try await session.screenshot()
            if condition(shot) { return shot }
            guard ContinuousClock.now < end else {
                throw WaylandSession.Failure(description: "waited 30 s for \(what); the session's log:\n\(session.log)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}

/// Polls `condition` for up to `limit`; a wait, not a timing assertion.
private func waitUntil(within limit: Duration = .seconds(30), _ condition: () -> Bool) async throws -> Bool {
    let end = ContinuousClock.now + limit
    while ContinuousClock.now < end {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}
