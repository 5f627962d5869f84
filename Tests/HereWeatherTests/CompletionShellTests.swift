import Foundation
import Testing
import HereWeatherCore

/// The completion scripts in the real fish and zsh (issue 35 D20), in the forms the docs teach:
/// `here-weather help <Tab>`, `--units <Tab>`, `--format <Tab>`, `--ho<Tab>` (a line that starts
/// with an option is a report's), fish with a short description of each value. Needs fish and
/// zsh (scripts/install-deps test).
@Suite struct CompletionShellTests {
    /// The script for `shell`, written to a temporary file (zsh: as `_here-weather` in a folder
    /// of its own, for `fpath`); the file's folder.
    func script(_ shell: String) async throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("here-weather-completion-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let result = try await InProcessCommand().run(["--generate-completion-script", shell])
        #expect(result.status == 0, "\(result.stderr)")
        try result.stdout.write(to: folder.appendingPathComponent(shell == "zsh" ? "_here-weather" : "here-weather.fish"),
                                atomically: true, encoding: .utf8)
        return folder
    }

    /// Runs `arguments` under `env` in UTF-8, with the binary's folder on PATH.
    func run(_ arguments: [String]) async throws -> [String] {
        let path = CommandRunner.executable.deletingLastPathComponent().path + ":/usr/bin:/bin"
        let output = try await GPSDHarness.runTool("/usr/bin/env", ["LANG=C.UTF-8", "PATH=\(path)"] + arguments, stdin: nil,
                                                   timeout: .seconds(60))
        return String(decoding: output, as: UTF8.self).replacing("\r", with: "").split(separator: "\n").map(String.init)
    }

    @Test(arguments: [
        ("here-weather help ", ["config\tShow, locate or create the config file.", "doctor", "permissions", "report", "where"]),
        ("here-weather --units ", ["metric\t°C, m/s, mm", "imperial\t°F, mph, in", "standard\tK, m/s, mm"]),
        ("here-weather --format ", ["1\t%c %t", "2", "3\t%l: %c %t", "4", "%u\tUV index (whole number)",
                                    "%M\tage of the moon in days (0-29)"] + FormatString.Code.allCases.map { "%\($0.letter)" }),
        ("here-weather --ho", ["--hourly\tAdd the next 12 hours (with a chart on a terminal)."]),
        ("here-weather --units metric --provider ", ["open-meteo\tOpen-Meteo, no key", "openweathermap", "metno", "pirateweather", "nws"]),
        ("here-weather where --source ", ["gpsd\tgpsd (GPS receiver)", "geoclue", "wifi", "ip", "nmea", "fixed"]),
    ])
    func fishCompletes(line: String, expected: [String]) async throws {
        let folder = try await script("fish")
        defer { try? FileManager.default.removeItem(at: folder) }
        let offered = try await run(["fish", "--no-config", "-c",
                                     "source \(folder.appendingPathComponent("here-weather.fish").path); complete -C '\(line)'"])
        let words = offered.map { String($0.prefix { $0 != "\t" }) }
        #expect(Set(words) == Set(expected.map { String($0.prefix { $0 != "\t" }) }), "\(line): \(offered)")
        for candidate in expected where candidate.contains("\t") {
            #expect(offered.contains(candidate), "\(line): \(offered) lacks \(candidate.debugDescription)")
        }
    }

    /// zsh's completion system in a pseudo-terminal (zpty), with `compadd` wrapped to print the
    /// words it adds and Tab bound to complete and then print an end mark.
    static let zshCapture = #"""
        zmodload zsh/zpty
        zpty z zsh -f -i
        zpty -w z "PS1='' PROMPT='' RPROMPT=''; PATH=$PATH; fpath=($1 \$fpath); autoload -U compinit; compinit -u -D"
        zpty -w z 'compadd () { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi; local -a __hits; builtin compadd -A __hits "$@"; (( $#__hits )) && print -rl -- "<<"${^__hits[@]}">>" >&2; builtin compadd "$@" }'
        zpty -w z 'tab-then-mark () { zle complete-word; print -u2 -- "<<""END>>" }; zle -N tab-then-mark; bindkey "^I" tab-then-mark; zstyle ":completion:*" menu no'
        zpty -w z 'print -- "<<""BEGIN>>"'
        zpty -w -n z "$2"$'\t'
        out="" line=""
        integer tries=0
        while (( tries < 400 )); do
          if zpty -r -t z line 2>/dev/null; then
            out+=$line
            [[ ${out#*<<BEGIN>>} == *'<<END>>'* ]] && break
          else
            (( tries++ ))
            sleep 0.1
          fi
        done
        zpty -d z
        print -r -- "${${out#*<<BEGIN>>}%%<<END>>*}" | grep -ao '<<[^<>"]*>>' | sed 's/^<<//; s/>>$//' | sort -u
        """#

    @Test(arguments: [
        ("here-weather --units ", ["metric", "imperial", "standard"]),
        ("here-weather --format ", ["1", "2", "3", "4"] + FormatString.Code.allCases.map { "%\($0.letter)" }),
        ("here-weather --ho", ["--hourly"]),
        ("here-weather help ", ["report", "where", "doctor", "config", "permissions"]),
        ("here-weather where --so", ["--source"]),
    ])
    func zshCompletes(line: String, expected: [String]) async throws {
        let folder = try await script("zsh")
        defer { try? FileManager.default.removeItem(at: folder) }
        let offered = try await run(["zsh", "-f", "-c", Self.zshCapture, "zsh", folder.path, line])
        #expect(Set(offered) == Set(expected), "\(line): \(offered)")
    }
}
