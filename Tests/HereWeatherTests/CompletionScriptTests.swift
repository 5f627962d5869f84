import Foundation
import HereWeatherCore
import Testing

/// The completion scripts the binary writes (`--generate-completion-script`) offer the values
/// of typed options and file names (issue 15, "Why" item 5). The bash script is also run in
/// bash, as a shell runs it on Tab.
@Suite struct CompletionScriptTests {
    static let values: [(option: String, words: [String])] = [
        ("units", ["metric", "imperial", "standard"]),
        ("provider", ["open-meteo", "openweathermap", "metno", "pirateweather", "nws"]),
        ("accuracy", ["best", "10m", "100m", "1km", "3km", "any"]),
        ("source", ["gpsd", "geoclue", "wifi", "ip", "nmea", "fixed"]),
    ]

    func script(_ shell: String) async throws -> String {
        let result = try await InProcessCommand().run(["--generate-completion-script", shell])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test func bashListsTheValuesAndCompletesFiles() async throws {
        let bash = try await script("bash")
        for (option, words) in Self.values {
            #expect(bash.contains("'--\(option)')\n        __here-weather_add_completions -W '\(words.joined(separator: "'$'\\n''"))'"),
                    "--\(option)")
        }
        for option in ["config", "replay", "weather-replay"] {
            #expect(bash.contains("'--\(option)')\n        __here-weather_add_completions -f\n"), "--\(option) completes file names")
        }
    }

    @Test func zshListsTheValuesAndCompletesFiles() async throws {
        let zsh = try await script("zsh")
        for (option, words) in Self.values {
            #expect(zsh.contains("local -ar ___\(option)=(\(words.map { "'\($0)'" }.joined(separator: " ")))"), "--\(option)")
            #expect(zsh.contains("{__here-weather_complete \"${___\(option)[@]}\"}"), "--\(option)")
        }
        #expect(!zsh.contains(":file:'"), "no bare file actions")
        for option in ["config", "replay", "weather-replay"] {
            #expect(zsh.contains("'--\(option)[") && zsh.contains(":file:_files'"), "--\(option)")
        }
    }

    /// `help <Tab>` in zsh: the generated function named the argument and offered nothing.
    @Test func zshHelpOffersTheCommands() async throws {
        let zsh = try await script("zsh")
        #expect(zsh.contains("_here-weather_help() {\n    local -i ret=1\n    local -ar arg_specs=(\n        '*:subcommands:(report where doctor config permissions)'"),
                "\(zsh)")
        let codes = FormatString.Code.allCases.map { " '%\($0.letter)'" }.joined()
        #expect(zsh.contains("local -ar ___format=('1' '2' '3' '4'\(codes))"), "--format offers the presets and the %-codes")
    }

    @Test func fishListsTheValuesAndCompletesFiles() async throws {
        let fish = try await script("fish")
        for (option, words) in Self.values {
            // Values with a description (issue 35 D20) are printed in pairs; the rest listed.
            let listed = fish.contains("-rfka '\(words.joined(separator: " "))'")
            let described = words.allSatisfy { fish.contains("\\'\($0)\\' \\'") }
            #expect(fish.contains("-l '\(option)'") && (listed || described), "--\(option)")
        }
        for option in ["config", "replay", "weather-replay"] {
            #expect(fish.split(separator: "\n").contains { $0.contains("-l '\(option)'") && $0.hasSuffix("-rF") }, "--\(option)")
        }
    }

    // MARK: Tab in bash

    @Test(arguments: [
        (["--units", ""], ["metric", "imperial", "standard"]),
        (["--units", "im"], ["imperial"]),
        (["--provider", "open"], ["open-meteo", "openweathermap"]),
        (["where", "--accuracy", ""], ["best", "10m", "100m", "1km", "3km", "any"]),
        (["--source", "g"], ["gpsd", "geoclue"]),
        (["permissions", "allow", ""], ["gpsd", "geoclue", "wifi", "ip", "nmea", "fixed", "all"]),
        (["permissions", "deny", "gpsd", "w"], ["wifi"]),
        // The default command: report's options complete at the root.
        (["--ho"], ["--hourly"]),
        (["--lat", "1", "--lon", "2", "--da"], ["--daily"]),
        (["--json", "--no-"], ["--no-stale", "--no-cache"]),
        (["wh"], ["where"]),
        (["where", "--ho"], []),
        // help <Tab> names the commands; --format <Tab> its presets (issue 24, item 10) and codes (issue 33).
        (["help", ""], ["report", "where", "doctor", "config", "permissions"]),
        (["help", "config", ""], ["path", "show", "init"]),
        (["help", "permissions", ""], ["show", "allow", "deny", "reset"]),
        (["help", "p"], ["permissions"]),
        (["--format", ""], ["1", "2", "3", "4"] + FormatString.Code.allCases.map { "%\($0.letter)" }),
        (["--json", "--lat", "1", "--lon", "2", "--format", "3"], ["3"]),
    ])
    func bashCompletes(words: [String], expected: [String]) async throws {
        let offered = try await bashTab(words)
        #expect(Set(offered) == Set(expected), "\(words): \(offered)")
    }

    @Test func bashCompletesFileNames() async throws {
        let fixtures = Fixtures.root.appendingPathComponent("Fixtures").path
        let offered = try await bashTab(["--weather-replay", fixtures + "/weather/open-meteo/tampa-m"])
        #expect(offered == [fixtures + "/weather/open-meteo/tampa-metric.json"])
        let config = try await bashTab(["where", "--config", fixtures + "/nmea/drive"])
        #expect(config == [fixtures + "/nmea/drive.nmea"])
    }

    /// What bash offers when Tab is pressed after `here-weather WORDS...` (the last word is
    /// the one being completed), with the script the binary wrote.
    func bashTab(_ words: [String]) async throws -> [String] {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("here-weather-\(UUID().uuidString).bash")
        try await self.script("bash").write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let driver = """
            source "$1"; shift
            COMP_WORDS=(here-weather "$@")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            COMPREPLY=()
            _here-weather here-weather "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let output = try await GPSDHarness.runTool("/bin/bash", ["-c", driver, "bash", script.path] + words, stdin: nil,
                                                   timeout: .seconds(60))
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
