import Foundation
import Testing
import HereWeatherCore

/// The man pages as `make manual` writes them: scripts/make-manual run on the release binary.
/// They pass mandoc's and groff's lint; EXIT STATUS comes from `ExitStatus` (as `--help`'s list
/// does); --help and --version are described once; no path an installed user lacks; FILES and
/// ENVIRONMENT name what the code reads; here-weather.toml(5) documents every config key.
///
/// Needs python3, lowdown, mandoc and groff (scripts/install-deps test); no root.
@Suite struct ManualPageTests {
    struct Pages: Sendable {
        /// here-weather(1), mdoc.
        var command: String
        /// here-weather.toml(5), man.
        var configuration: String
        var folder: URL
    }

    /// Runs `executable` from the repository root with the test's environment.
    static func run(_ executable: String, _ arguments: [String]) async throws -> CapturedRun {
        try await CapturedRun.run(executable, arguments, environment: ProcessInfo.processInfo.environment)
    }

    /// The pages, written the way `make manual` writes them, into a fresh folder.
    static func pages() async throws -> Pages {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("here-weather-manual-\(UUID().uuidString)")
        let made = try await run(Fixtures.root.appendingPathComponent("scripts/make-manual").path,
                                 [CommandRunner.executable.path, folder.path])
        try #require(made.status == 0, "scripts/make-manual failed:\n\(made.text)")
        return Pages(command: try String(contentsOf: folder.appendingPathComponent("here-weather.1"), encoding: .utf8),
                     configuration: try String(contentsOf: folder.appendingPathComponent("here-weather.toml.5"), encoding: .utf8),
                     folder: folder)
    }

    @Test func pagesPassMandocAndGroffLint() async throws {
        let pages = try await Self.pages()
        defer { try? FileManager.default.removeItem(at: pages.folder) }
        for (name, macros) in [("here-weather.1", "-mandoc"), ("here-weather.toml.5", "-man")] {
            let path = pages.folder.appendingPathComponent(name).path
            let mandoc = try await Self.run("mandoc", ["-T", "lint", "-W", "warning", path])
            #expect(mandoc.status == 0 && mandoc.text.isEmpty, "mandoc -T lint \(name):\n\(mandoc.text)")
            let groff = try await Self.run("groff", ["-k", "-t", "-Tutf8", "-ww", "-z", macros, path])
            #expect(groff.status == 0 && groff.text.isEmpty, "groff -ww \(name):\n\(groff.text)")
        }
        // No blank lines (mdoc wants .Pp), no text line broken inside a word.
        #expect(!pages.command.contains("\n\n") && !pages.configuration.contains("\n\n"))
    }

    /// Issue 35 D29: the pages name the guides where `make install` puts them (its PREFIX),
    /// groff neither hyphenates a word nor breaks one at its hyphen (here-weather, self-hosted),
    /// and a command that takes an argument described above says it is an argument.
    @Test func pagesFollowThePrefixNeverHyphenateAndNameArgumentsAsArguments() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("here-weather-manual-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try await Self.run(Fixtures.root.appendingPathComponent("scripts/make-manual").path,
                                      ["--docdir", "/opt/hw/share/doc/here-weather", CommandRunner.executable.path, folder.path])
        try #require(made.status == 0, "scripts/make-manual failed:\n\(made.text)")
        let command = try String(contentsOf: folder.appendingPathComponent("here-weather.1"), encoding: .utf8)
        #expect(command.contains(".Pa /opt/hw/share/doc/here-weather/location.md"), "\(command)")
        #expect(command.contains(".Pa /opt/hw/share/doc/here-weather/here-weather.schema.json"))
        #expect(!command.contains("/usr/share/doc") && !command.contains("/usr/local/share/doc"))
        let configuration = try String(contentsOf: folder.appendingPathComponent("here-weather.toml.5"), encoding: .utf8)
        #expect(configuration.contains("/opt/hw/share/doc/here-weather/location.md"), "\(configuration)")
        #expect(configuration.contains("/opt/hw/share/doc/here-weather/weather.md"))
        let source = configuration.components(separatedBy: "docs/").dropFirst()
        #expect(source.allSatisfy { $0.hasPrefix("benchmark.md in the source of") }, "a guide named by its path in the source")
        #expect(!command.contains("described above:\n.Ar"), "an argument listed as an option")
        #expect(command.contains("Takes the options described above:\n.Fl -config ,\nand the argument\n.Ar source .\n"), "\(command)")
        for (name, macros) in [("here-weather.1", "-mandoc"), ("here-weather.toml.5", "-man")] {
            let shown = try await Self.run("groff", ["-Tutf8", "-P-cbu", macros, folder.appendingPathComponent(name).path])
            #expect(shown.status == 0, "\(shown.text)")
            let broken = shown.text.split(separator: "\n").filter { $0.wholeMatch(of: /.*[a-z]-/) != nil }
            #expect(broken.isEmpty, "\(name) breaks a word at the end of these lines: \(broken)")
        }
    }

    @Test func exitStatusComesFromExitStatusLikeTheHelp() async throws {
        let pages = try await Self.pages()
        defer { try? FileManager.default.removeItem(at: pages.folder) }
        let section = try #require(Self.section("EXIT STATUS", of: pages.command, heading: ".Sh "))
        let flat = section.replacingOccurrences(of: "\\%", with: "").replacingOccurrences(of: "\n", with: " ")
        for status in ExitStatus.allCases {
            #expect(flat.contains(".It \(status.rawValue) \(status.meaning)."),
                    "EXIT STATUS lacks \(status.rawValue) \(status.meaning):\n\(section)")
            #expect(status.meaning.count <= 72, "too long for --help: \(status.meaning)")
        }
        #expect(!pages.command.contains(">0 if an error occurs"))

        let help = try await CommandRunner().run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains(ExitStatus.helpList), "--help lacks the exit status list:\n\(help.stdout)")
    }

    @Test func optionsAreDescribedOnceAndNothingPointsIntoTheSourceTree() async throws {
        let pages = try await Self.pages()
        defer { try? FileManager.default.removeItem(at: pages.folder) }
        for option in ["Fl h , Fl -help", ".It Fl -version"] {
            #expect(pages.command.components(separatedBy: option).count == 2, "\(option) is not described exactly once")
        }
        for option in ["-lat", "-city", "-units", "-format", "-waybar", "-replay", "-weather-replay", "-force"] {
            #expect(pages.command.contains(".It Fl \(option)"), "OPTIONS lacks -\(option)")
        }
        for page in [pages.command, pages.configuration] {
            #expect(!page.contains("Fixtures/"), "a path an installed user lacks")
            #expect(!page.contains("README"), "the README is not installed")
        }
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "ENVIRONMENT", "FILES",
                        "EXIT STATUS", "EXAMPLES", "SEE ALSO"] {
            #expect(pages.command.contains("\n.Sh \(section)\n"), "here-weather(1) lacks \(section)")
        }
        for command in ["where", "doctor", "config init", "permissions allow"] {
            #expect(pages.command.contains(".It Cm \(command)\n"), "COMMANDS lacks \(command)")
        }
    }

    @Test func filesAndEnvironmentNameWhatTheCodeReads() async throws {
        let pages = try await Self.pages()
        defer { try? FileManager.default.removeItem(at: pages.folder) }
        let files = try #require(Self.section("FILES", of: pages.command, heading: ".Sh "))
        let storage = RunStorage(environment: ["HOME": "~"])
        for path in [storage.configFile, storage.cacheDirectory + "/",
                     storage.permissions.path, storage.lastLocation.path,
                     storage.wifiNeighbourhood.path, storage.wifiNeighbourhood.keyPath,
                     SystemPolicy.defaultPath] {
            #expect(files.contains(".It Pa \(path)\n"), "FILES lacks \(path)")
        }
        let environment = try #require(Self.section("ENVIRONMENT", of: pages.command, heading: ".Sh "))
        for variable in ["HERE_WEATHER_CONFIG", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "HOME",
                         Configuration.openWeatherMapKeyVariable, Configuration.pirateWeatherKeyVariable,
                         SystemPolicy.pathVariable, "NO_COLOR", "TERM", "COLUMNS",
                         "CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG",
                         "LC_MEASUREMENT", "LC_TIME", "LC_CTYPE"] {
            #expect(environment.contains(variable), "ENVIRONMENT lacks \(variable)")
        }
    }

    /// Every key of Fixtures/config/every-key.toml (which sets every key the loader reads)
    /// is in here-weather.toml(5), by its full dotted name or a row for all of a kind
    /// (`location.<source>.permission`).
    @Test func configurationPageDocumentsEveryKey() async throws {
        let pages = try await Self.pages()
        defer { try? FileManager.default.removeItem(at: pages.folder) }
        let text = pages.configuration.replacingOccurrences(of: "\\-", with: "-")
        let documented = Self.dottedKeys(in: text)
        var table = ""
        for line in try String(contentsOf: Fixtures.url("config/every-key.toml"), encoding: .utf8).split(separator: "\n") {
            let line = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                table = String(line.dropFirst().dropLast())
            } else if let equals = line.firstIndex(of: "="), !line.hasPrefix("#") {
                let key = line[..<equals].trimmingCharacters(in: .whitespaces)
                let dotted = table.isEmpty ? key : table + "." + key
                #expect(documented.contains { Self.matches($0, dotted) }, "here-weather.toml(5) does not document \(dotted)")
            }
        }
    }

    /// The words of `text` that look like config keys: `location.gpsd.port`, `weather.<provider>.base_url`.
    static func dottedKeys(in text: String) -> [String] {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789_-.<>")
        var keys: [String] = []
        var word = ""
        for character in text + " " {
            if allowed.contains(character) {
                word.append(character)
            } else {
                if word.contains(".") || ["version"].contains(word) { keys.append(word.trimmingCharacters(in: CharacterSet(charactersIn: ".-"))) }
                word = ""
            }
        }
        return keys
    }

    /// Whether a documented key (`<...>` stands for any one part) names `key`.
    static func matches(_ documented: String, _ key: String) -> Bool {
        let pattern = documented.split(separator: ".", omittingEmptySubsequences: false)
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        return pattern.count == parts.count && zip(pattern, parts).allSatisfy { $0.hasPrefix("<") || $0 == $1 }
    }

    /// The text of section `name`, up to the next heading.
    static func section(_ name: String, of page: String, heading: String) -> String? {
        guard let start = page.range(of: "\n" + heading + name + "\n") else { return nil }
        let rest = page[start.upperBound...]
        let end = rest.range(of: "\n" + heading)?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }
}
