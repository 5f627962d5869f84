import Foundation
import Testing
import HereWeatherCore

/// The documentation stays true: the README stays short and opens with what the program is,
/// every relative link (and its #anchor) leads somewhere, and every `console` sample in the
/// README and docs/ is what the release binary really prints for the command shown.
@Suite struct DocumentationTests {
    /// README.md, CONTRIBUTING.md and docs/*.md, by path relative to the repository root.
    static func pages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Fixtures.root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md", "CONTRIBUTING.md"] + docs
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOf: Fixtures.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The lines outside fenced code blocks.
    static func prose(_ text: String) -> [Substring] {
        var fenced = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.hasPrefix("```") { fenced.toggle(); return false }
            return !fenced
        }
    }

    /// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
    static func anchor(_ heading: Substring) -> String {
        String(heading.drop { $0 == "#" }.dropFirst().lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
        })
    }

    @Test func readmeIsShortAndOpensWithWhatItIs() throws {
        let readme = try Self.read("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 300, "README.md has \(lines.count) lines: move reference text to docs/")
        let firstScreen = lines.prefix(30).joined(separator: "\n")
        #expect(!firstScreen.contains("apt-get") && !firstScreen.contains("sudo"), "the first screen installs packages")
        #expect(firstScreen.contains("```console\n$ here-weather "), "no sample output on the first screen")
        // The README's test command is the one CI runs (as an ordinary user: `runuser ... make test`).
        #expect(readme.contains("make test "))
        #expect(try Self.read(".ci/run").split(separator: "\n").contains { $0 == "make test" || $0.hasSuffix(" make test") })
    }

    /// The project is Apache-2.0: the full text at the root, named by SPDX id in Package.swift and
    /// in the README, which keeps the GeoNames data's own CC BY 4.0 attribution.
    @Test func licenceIsDeclared() throws {
        let licence = try Self.read("LICENSE")
        #expect(licence.contains("Apache License\n                           Version 2.0, January 2004"))
        #expect(licence.contains("END OF TERMS AND CONDITIONS"), "LICENSE is not the full text")
        let manifest = try Self.read("Package.swift").split(separator: "\n")
        #expect(manifest.first?.hasPrefix("// swift-tools-version:") == true && manifest.dropFirst().first == "// SPDX-License-Identifier: Apache-2.0")
        let readme = try Self.read("README.md")
        #expect(readme.contains("Apache License 2.0 (SPDX: `Apache-2.0`)") && readme.contains("](LICENSE)"))
        #expect(readme.contains("CC BY 4.0"))
    }

    @Test func relativeLinksAndAnchorsResolve() throws {
        let link = /\]\(([^)\s]+)\)/
        for page in try Self.pages() {
            let folder = (page as NSString).deletingLastPathComponent
            for line in Self.prose(try Self.read(page)) {
                for match in line.matches(of: link) {
                    let target = String(match.output.1)
                    if target.hasPrefix("http://") || target.hasPrefix("https://") { continue }
                    let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                    let file = parts[0].isEmpty ? page : ((folder as NSString).appendingPathComponent(String(parts[0])) as NSString).standardizingPath
                    let exists = FileManager.default.fileExists(atPath: Fixtures.root.appendingPathComponent(file).path)
                    #expect(exists, "\(page): link to \(target): no \(file)")
                    guard exists, parts.count == 2, file.hasSuffix(".md") else { continue }
                    let anchors = Self.prose(try Self.read(file)).filter { $0.hasPrefix("#") }.map(Self.anchor)
                    #expect(anchors.contains(String(parts[1])), "\(page): link to \(target): no heading #\(parts[1]) in \(file)")
                }
            }
        }
    }

    /// docs/json.md names every error code with its status, as `ExitStatus` defines them.
    @Test func jsonErrorCodesMatchExitStatus() throws {
        let page = try Self.read("docs/json.md")
        for status in ExitStatus.allCases where status != .ok && status != .checkFailed {
            #expect(page.contains("`\(status.code)` (\(status.rawValue))"), "docs/json.md lacks `\(status.code)` (\(status.rawValue))")
        }
    }

    /// A ```console block is `$ here-weather ARGS` and then exactly what it prints on stdout
    /// (run from the repository root, with an empty home: no config, no cache).
    @Test func consoleSamplesAreWhatTheCommandPrints() async throws {
        var samples = 0
        for page in try Self.pages() {
            let lines = try Self.read(page).split(separator: "\n", omittingEmptySubsequences: false)
            var index = 0
            while index < lines.count {
                defer { index += 1 }
                guard lines[index] == "```console", index + 1 < lines.count, lines[index + 1].hasPrefix("$ here-weather ") else { continue }
                let end = lines[(index + 1)...].firstIndex { $0 == "```" } ?? lines.count
                let command = lines[index + 1].dropFirst("$ here-weather ".count)
                let expected = lines[(index + 2)..<end].joined(separator: "\n")
                let arguments = command.split(separator: " ").map(String.init)
                try #require(!command.contains("\"") && !command.contains("'"), "\(page): keep sample commands free of quotes")
                let runner = try InProcessCommand()
                defer { try? FileManager.default.removeItem(at: runner.home) }
                let result = try await runner.run(arguments.map { $0.hasPrefix("Fixtures/") ? Fixtures.url(String($0.dropFirst("Fixtures/".count))).path : $0 })
                let actual = result.stdout.hasSuffix("\n") ? String(result.stdout.dropLast()) : result.stdout
                #expect(actual == expected, "\(page): `here-weather \(command)` prints, today:\n\(actual)")
                samples += 1
            }
        }
        #expect(samples >= 3, "the README and docs/output.md show real output")
    }
}
