import Foundation
import Testing
@testable import HereWeatherCore

/// A plain terminal gets plain characters (issue 25, smaller items): with `LANG=C` (or any
/// locale that is not UTF-8), every text output is ASCII (`TextCharset`), its columns still
/// line up, and JSON stays UTF-8. `icons = "ascii"` in a UTF-8 locale changes only the glyphs.
@Suite struct PlainTerminalTests {
    /// A place name with letters a C locale cannot show, and a symbol of each kind.
    static let place = "Zürich-Ærøskøbing Straße · 東京"

    /// The NWS's alerts (which doctor checks at this US point) on a closed port: nothing leaves the machine.
    static let nwsClosed = "\n[weather.nws]\nbase_url = \"http://127.0.0.1:9\""

    static func config(icons: String = "emoji") -> String {
        ProviderSetup.fixedLocation(named: place) + "\n[output]\nicons = \"\(icons)\"\n[weather.open-meteo]\nbase_url = \"http://127.0.0.1:9\"" + nwsClosed
    }

    /// The environments that ask for ASCII: a C locale (set, or none at all), a Latin-1 one,
    /// LC_ALL over a UTF-8 LANG.
    static let plainEnvironments: [(String, [String: String], String)] = [
        ("LANG=C", ["LANG": "C"], "emoji"),
        ("LC_ALL=POSIX over LANG=C.UTF-8", ["LC_ALL": "POSIX"], "nerd"),
        ("LANG=en_US.ISO-8859-1", ["LANG": "en_US.ISO-8859-1"], "emoji"),
        ("icons = ascii, LANG=C", ["LANG": "C"], "ascii"),
    ]

    /// Each output form: its arguments, the recording replayed, and whether stdout is a terminal.
    static let outputs: [(String, [String], String, Bool)] = [
        ("text with tables and chart", ["--hourly", "--daily"], "open-meteo/tampa-rain-in-30-min.json", true),
        ("text, alerts", ["--hourly"], "pirateweather/tampa-si.json", true),
        ("text, piped", ["--daily"], "open-meteo/tampa-rain-in-30-min.json", false),
        ("every %-code", ["--format", "%c|%C|%x|%t|%f|%w|%h|%p|%P|%u|%s|%l|%L|%a|%O|%A|%R|%%"],
         "pirateweather/tampa-si.json", false),
        ("preset 4", ["--format", "4"], "open-meteo/tampa-rain-in-30-min.json", false),
        ("nowcast %R", ["--format", "%R"], "open-meteo/tampa-rain-in-30-min.json", false),
        ("waybar", ["--waybar"], "open-meteo/tampa-rain-in-30-min.json", false),
        ("waybar, alerts", ["--waybar"], "pirateweather/tampa-si.json", false),
    ]

    static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }

    static func nonASCII(_ text: String) -> String {
        text.split(separator: "\n").filter { !isASCII(String($0)) }.joined(separator: "\n")
    }

    static let cases: [(String, [String: String], String, [String], String, Bool)] = plainEnvironments.flatMap { environment in
        outputs.map { (environment.0 + ", " + $0.0, environment.1, environment.2, $0.1, $0.2, $0.3) }
    }

    @Test(arguments: cases.map(\.0))
    func everyReportIsASCII(name: String) async throws {
        let (_, environment, icons, arguments, file, terminal) = try #require(Self.cases.first { $0.0 == name })
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config(icons: icons))
        let provider = String(file.prefix { $0 != "/" })
        let result = try await runner.run(["--provider", provider, "--weather-replay", Fixtures.url("weather/" + file).path] + arguments,
                                          environment: environment.merging(["PIRATEWEATHER_API_KEY": "k"]) { a, _ in a },
                                          terminal: .init(standardOutput: terminal, standardError: false, columns: 100))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.isEmpty)
        #expect(Self.isASCII(result.stdout), "\(Self.nonASCII(result.stdout))")
        #expect(Self.isASCII(result.stderr), "\(result.stderr)")
        if arguments.first != "--format" || arguments.contains("%l|%L|%a|%O|%A|%R|%%") {
            #expect(result.stdout.contains("Zurich-AEroskobing Strasse - ??"), "\(result.stdout)")
        }
    }

    /// The glyphs `icons = "ascii"` replaces: conditions (emoji and Nerd Font), wind arrows, bars.
    static func isGlyph(_ scalar: Unicode.Scalar) -> Bool {
        (0x2190...0x21FF).contains(scalar.value) || (0x2580...0x259F).contains(scalar.value)
            || (0xE000...0xF8FF).contains(scalar.value) || (scalar.properties.isEmoji && !scalar.isASCII && scalar != "©")
    }

    /// `icons = "ascii"` in a UTF-8 locale draws ASCII glyphs and keeps every word's letters: a
    /// Japanese report stays Japanese, a place keeps "ü" and "東京" (it once folded all text:
    /// every kanji was "?").
    @Test(arguments: outputs.map(\.0))
    func asciiIconsInAUTF8LocaleChangeOnlyTheGlyphs(name: String) async throws {
        let (_, arguments, file, terminal) = try #require(Self.outputs.first { $0.0 == name })
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config(icons: "ascii"))
        let provider = String(file.prefix { $0 != "/" })
        let run = { (language: String) in
            try await runner.run(["--provider", provider, "--lang", language, "--weather-replay", Fixtures.url("weather/" + file).path]
                                 + arguments, environment: ["PIRATEWEATHER_API_KEY": "k"],
                                 terminal: .init(standardOutput: terminal, standardError: false, columns: 100))
        }
        for language in ["en", "ja"] {
            let result = try await run(language)
            #expect(result.status == 0, "\(result.stderr)")
            let glyphs = result.stdout.unicodeScalars.filter(Self.isGlyph)
            #expect(glyphs.isEmpty, "\(language): \(String(String.UnicodeScalarView(glyphs))) in \(result.stdout)")
            #expect(!result.stdout.contains("?"), "\(language): folded: \(result.stdout)")
            if arguments.first != "--format" || arguments.contains("%l|%L|%a|%O|%A|%R|%%") {
                #expect(result.stdout.contains(Self.place), "\(result.stdout)")
            }
            if language == "ja" {
                #expect(result.stdout.unicodeScalars.contains { (0x3040...0x30FF).contains($0.value) || (0x4E00...0x9FFF).contains($0.value) },
                        "Japanese words: \(result.stdout)")
            }
        }
    }

    /// `where`, `doctor`, the help and a failure line, in a C locale.
    @Test(arguments: [["where"], ["doctor"], ["--help"], ["report", "--help"], ["--format", "%c %t", "--lat", "91", "--lon", "0"],
                      ["--waybar", "--config", "/nonexistent/c.toml"], ["where", "--lat", "91", "--lon", "0"]])
    func everyOtherOutputIsASCII(arguments: [String]) async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config())
        let result = try await runner.run(arguments, environment: ["LANG": "C"], killAfter: .seconds(60))
        #expect(!result.killed)
        #expect(!(result.stdout + result.stderr).isEmpty)
        #expect(Self.isASCII(result.stdout), "\(Self.nonASCII(result.stdout))")
        #expect(Self.isASCII(result.stderr), "\(result.stderr)")
        // The same run in a UTF-8 locale does draw other characters: the test could fail.
        let utf8 = try await runner.run(arguments, killAfter: .seconds(60))
        #expect(!Self.isASCII(utf8.stdout + utf8.stderr) || arguments.contains("91"), "\(utf8.stdout)")
    }

    /// `--verbose` echoes each request as sent, including text from the config (a base URL
    /// whose path has letters outside ASCII): in a C locale those lines are ASCII too.
    @Test func verboseRequestLinesAreASCII() async throws {
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let runner = try InProcessCommand()
        try runner.writeConfig(ProviderSetup.fixedLocation(named: "Tampa") + """

            [weather]
            provider = "open-meteo"
            [weather.open-meteo]
            base_url = "\(closed.baseURL)/wetter/größe"
            """)
        let plain = try await runner.run(["--verbose", "--no-cache"], environment: ["LANG": "C"])
        #expect(plain.stderr.contains("GET http://"), "\(plain.stderr)")
        #expect(plain.stderr.contains("/wetter/grosse/v1/forecast?"), "\(plain.stderr)")
        #expect(Self.isASCII(plain.stderr), "\(Self.nonASCII(plain.stderr))")
        // In a UTF-8 locale the same line keeps its letters: the test could fail.
        let utf8 = try await runner.run(["--verbose", "--no-cache"])
        #expect(utf8.stderr.contains("/wetter/größe/v1/forecast?"), "\(utf8.stderr)")
    }

    /// JSON is UTF-8 by its spec: a C locale changes none of it.
    @Test func jsonIsUnaffected() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config())
        let arguments = ["--json", "--weather-replay", Fixtures.url("weather/open-meteo/tampa-rain-in-30-min.json").path]
        let plain = try await runner.run(arguments, environment: ["LANG": "C"])
        let utf8 = try await runner.run(arguments)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout.contains(Self.place))
        // The fixed location is dated when each run asks for it: the rest is the same.
        let undated = { (json: String) in json.replacing(/"timestamp":"[^"]*"/, with: "") }
        #expect(undated(plain.stdout) == undated(utf8.stdout))
    }

    /// The hourly table's columns still line up in ASCII, and every line fits the width
    /// (ASCII: one column per byte), narrow or wide.
    @Test(arguments: [40, 60, 100])
    func asciiTablesLineUpAndFit(columns: Int) async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config())
        let result = try await runner.run(["--hourly", "--daily", "--weather-replay",
                                           Fixtures.url("weather/open-meteo/tampa-rain-in-30-min.json").path],
                                          environment: ["LANG": "C", "NO_COLOR": "1"],
                                          terminal: .init(standardOutput: true, standardError: false, columns: columns))
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.allSatisfy { $0.utf8.count <= columns }, "\(lines.filter { $0.utf8.count > columns })")
        let header = try #require(lines.firstIndex { $0.hasPrefix("Time  ") })
        let temp = try #require(lines[header].range(of: "Temp")).lowerBound.utf16Offset(in: lines[header])
        let rows = lines[(header + 1)...].prefix { !$0.isEmpty }
        #expect(rows.count > 3)
        for row in rows {
            let characters = Array(row)
            #expect(characters.count > temp && characters[temp - 1] == " " && (characters[temp].isNumber || characters[temp] == "-"),
                    "\(row)")
        }
    }

    @Test func theLocaleIsReadAsTheCLibraryReadsIt() {
        #expect(TextCharset.locale([:]) == .ascii)
        #expect(TextCharset.locale(["LANG": "C"]) == .ascii)
        #expect(TextCharset.locale(["LANG": "C.UTF-8"]) == .utf8)
        #expect(TextCharset.locale(["LANG": "en_US.utf8"]) == .utf8)
        #expect(TextCharset.locale(["LANG": "de_DE.UTF-8@euro"]) == .utf8)
        #expect(TextCharset.locale(["LANG": "de_DE@euro"]) == .ascii)
        #expect(TextCharset.locale(["LANG": "en_US"]) == .ascii)
        #expect(TextCharset.locale(["LANG": "en_US.ISO-8859-1"]) == .ascii)
        #expect(TextCharset.locale(["LANG": "C.UTF-8", "LC_CTYPE": "C"]) == .ascii)
        #expect(TextCharset.locale(["LANG": "C", "LC_CTYPE": "C.UTF-8"]) == .utf8)
        #expect(TextCharset.locale(["LC_CTYPE": "C.UTF-8", "LC_ALL": "POSIX"]) == .ascii)
        #expect(TextCharset.locale(["LC_ALL": "", "LANG": "C.UTF-8"]) == .utf8)
        #expect(TextCharset.choose(environment: ["LANG": "C.UTF-8"], icons: .ascii) == .ascii)
        #expect(TextCharset.choose(environment: ["LANG": "C.UTF-8"], icons: .nerd) == .utf8)
    }

    @Test func foldingKeepsWhatASCIICanSay() {
        let ascii = TextCharset.ascii
        #expect(ascii.fold("Zürich, Ærøskøbing, Straße, Łódź, Þórshöfn") == "Zurich, AEroskobing, Strasse, Lodz, Thorshofn")
        #expect(ascii.fold("Cafe\u{301} 東京 ±3 m ≈ 26.8°C · …") == "Cafe ?? +/-3 m ~ 26.8C - ...")
        #expect(ascii.fold("☀️ 26.8°C ↙4.9m/s ⚠️") == "o 26.8C NE 4.9m/s !")
        #expect(TextCharset.utf8.fold("Zürich ±3 m") == "Zürich ±3 m")
        #expect(TextCharset.ascii.temperatureSymbol(.imperial) == "F")
    }

    @Test func anIPFixInASCII() {
        let fix = Location(coordinate: Coordinate(latitude: 27.95, longitude: -82.46), horizontalAccuracy: 25_000,
                           timestamp: Date(), source: .ip, accuracyIsEstimate: true, service: "ipinfo.io")
        #expect(Provenance.text(fix, now: Date()) == "IP lookup via ipinfo.io ≈ city, ≈±25 km")
        #expect(Provenance.text(fix, now: Date(), charset: .ascii) == "IP lookup via ipinfo.io ~ city, ~+/-25 km")
        #expect(Self.isASCII(LocationReport.text(fix, now: Date(), charset: .ascii)))
        #expect(Formatting.coordinate(fix.coordinate, .ascii) == "27.9500N, 82.4600W")
    }
}
