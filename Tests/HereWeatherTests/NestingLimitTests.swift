import Foundation
import Testing
@testable import HereWeatherCore

/// Deeply nested input: every recursive parser stops at a depth limit with a line and column,
/// instead of overflowing the stack (exit 139, nothing printed). Through the release binary
/// for the three TOML files a run reads: the config, the system policy and the decisions file
/// (FileFaultTests covers the decisions file: ignored, asked again, never allowed).
@Suite struct NestingLimitTests {
    /// Deep enough to overflow the stack of a parser without a limit (about 40,000 levels was
    /// measured to be enough).
    static let levels = 40_000

    static let dottedKey = Array(repeating: "a", count: 100_000).joined(separator: ".")

    /// Each document on line 2, after `version = 1`.
    static let deepDocuments: [(name: String, text: String)] = [
        ("arrays", "x = " + String(repeating: "[", count: levels) + String(repeating: "]", count: levels)),
        ("inline tables", "x = " + String(repeating: "{a=", count: levels) + "1" + String(repeating: "}", count: levels)),
        ("dotted keys", dottedKey + " = 1"),
        ("a table header", "[" + dottedKey + "]"),
        // Under the limit each, over it together.
        ("arrays under dotted keys", Array(repeating: "b", count: 100).joined(separator: ".") + " = "
            + String(repeating: "[", count: 100) + String(repeating: "]", count: 100)),
    ]

    @Test(arguments: deepDocuments.map(\.name))
    func tomlRefusesDeepNestingWithLineAndColumn(_ name: String) throws {
        let text = "version = 1\n" + (Self.deepDocuments.first { $0.name == name }?.text ?? "")
        do {
            _ = try TOMLParser.parse(text)
            Issue.record("\(name) parsed")
        } catch {
            #expect(error.line == 2)
            #expect(error.column > 1 && error.column < 1_000, "\(error.column)")
            #expect(error.reason.contains("nested more than \(TOMLParser.maximumDepth) levels deep"), "\(error.reason)")
        }
    }

    @Test func tomlAcceptsNestingUpToTheLimit() throws {
        let depth = TOMLParser.maximumDepth - 1  // and the key
        let arrays = "x = " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: Never.self) { try TOMLParser.parse(arrays) }
        let keys = Array(repeating: "a", count: TOMLParser.maximumDepth).joined(separator: ".") + " = 1"
        #expect(throws: Never.self) { try TOMLParser.parse(keys) }
    }

    @Test func jsonRefusesDeepNestingWithLineAndColumn() {
        let text = "{\n \"a\": " + String(repeating: "[", count: Self.levels) + String(repeating: "]", count: Self.levels) + "}"
        do {
            _ = try JSONValue.parse(Data(text.utf8))
            Issue.record("parsed")
        } catch let error as JSONValue.ParseError {
            // The object is level 0, so the 256th bracket is the first too deep: after ` "a": ` and 255 more.
            #expect(error.line == 2)
            #expect(error.column == 6 + 255 + 1)
            #expect(error.reason.contains("nested more than \(JSONValueParser.maximumDepth) levels deep"))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func jsonErrorsSayWhere() {
        do {
            _ = try JSONValue.parse(Data("[1,\n  2,\n  x]".utf8))
            Issue.record("parsed")
        } catch let error as JSONValue.ParseError {
            #expect(error.line == 3 && error.column == 3, "\(error)")
        } catch {
            Issue.record("\(error)")
        }
    }

    // MARK: Through the binary

    static let deepArrays = "x = " + String(repeating: "[", count: levels) + String(repeating: "]", count: levels) + "\n"

    @Test func aDeeplyNestedConfigIsExit78WithWhere() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("version = 1\n" + Self.deepArrays)
        for arguments in [["where"], ["--lat", "1", "--lon", "2", "--json"], ["config", "show"]] {
            let result = try await runner.run(arguments)
            #expect(result.status == 78, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("Config error in \(runner.configPath), line 2, column "), "\(result.stderr)")
            #expect(result.stderr.contains("nested more than"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
    }

    @Test func aDeeplyNestedSystemPolicyFailsClosedWithWhere() async throws {
        let runner = try InProcessCommand()
        let policy = runner.home.path + "/policy.toml"
        try ("version = 1\n[location]\n" + Self.deepArrays).write(toFile: policy, atomically: true, encoding: .utf8)
        try runner.writeConfig("version = 1\n[location]\nsources = [\"fixed\"]\n[location.fixed]\nlatitude = 1\nlongitude = 2\n")
        let result = try await runner.run(["where"], environment: [SystemPolicy.pathVariable: policy], asRoot: true)
        #expect(result.status == 78, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("Invalid system location policy \(policy): line 3, column "), "\(result.stderr)")
        #expect(result.stderr.contains("nested more than"), "\(result.stderr)")
    }
}
