import Foundation
import Testing
@testable import HereWeatherCore
#if canImport(Glibc)
import Glibc
#endif

/// The text report fits the terminal: 80 columns by default, `COLUMNS` when set, the
/// terminal's own width on a terminal, never under 40. Long lines are wrapped or cut
/// cleanly and the tables keep their columns aligned, measured in display columns (emoji
/// are two wide).
@Suite struct TerminalWidthTests {
    /// The README's offline demo ("Try it offline").
    static let demo = ["--replay", Fixtures.url("nmea/southern-eastern.nmea").path,
                       "--weather-replay", Fixtures.url("weather/open-meteo/melbourne-au-metric.json").path,
                       "--hourly", "--daily"]

    /// The display columns of each line as the terminal leaves it (escape sequences take none).
    /// The run's stderr shares the terminal: on a loaded machine the progress line is drawn, then
    /// erased with a carriage return and an erase-line sequence before the report; only what
    /// follows a line's last carriage return stays (a frame counted in made a 60-column run 75).
    func widths(_ text: String) -> [Int] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            TextWidth.columns(String(line.split(separator: "\r", omittingEmptySubsequences: false).last ?? line))
        }
    }

    /// The lines of the table whose header starts with `header`, the header first.
    func table(_ text: String, header: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { stripped(String($0)) }
        guard let start = lines.firstIndex(where: { $0.hasPrefix(header) }) else { return [] }
        return Array(lines[start...].prefix { !$0.isEmpty })
    }

    /// The display column where each cell of a table line starts (cells are two or more spaces apart).
    func cellStarts(_ line: String) -> [Int] {
        var starts: [Int] = []
        var column = 0
        var spaces = 2
        for character in line {
            if character == " " {
                spaces += 1
            } else {
                if spaces >= 2 { starts.append(column) }
                spaces = 0
            }
            column += TextWidth.columns(String(character))
        }
        return starts
    }

    /// Every row's cells start where the header's do.
    func expectAligned(_ rows: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        guard let header = rows.first else {
            Issue.record("no table", sourceLocation: sourceLocation)
            return
        }
        let starts = cellStarts(header)
        for row in rows.dropFirst() {
            #expect(cellStarts(row) == starts, "\(row) is not aligned with \(header)", sourceLocation: sourceLocation)
        }
    }

    func stripped(_ line: String) -> String {
        line.replacing(/\x{1B}\[[0-9;]*m/, with: "")
    }

    // MARK: Narrow tables

    /// At 40 columns the Sky column never cuts a word beside its glyph (`☁️ Overca…`): it shows
    /// the glyph alone when the words do not fit, and without glyphs, where no shorter form
    /// exists, it is left out as the other columns are.
    @Test(arguments: [40, 44, 50, 60, 80, 120])
    func skyColumnNeverCutsAWord(width: Int) throws {
        let report = try FormatStringTests.report("melbourne-au-metric.json")
        for glyphs in [true, false] {
            let style = TerminalStyle(colour: false, glyphs: glyphs, width: width)
            let text = TextReport(location: FormatStringTests.tampa, report: report, style: style, now: Date()).render(hourly: true, daily: true)
            #expect(widths(text).allSatisfy { $0 <= width }, "\(text)")
            for header in ["Day ", "Time "] {
                let rows = table(text, header: header)
                try #require(rows.count > 1, "no table \(header) at \(width):\n\(text)")
                expectAligned(rows)
                #expect(!rows.contains { $0.contains("…") }, "a cut cell at \(width), glyphs \(glyphs):\n\(rows.joined(separator: "\n"))")
                if glyphs {
                    #expect(rows[0].hasSuffix("Sky"), "glyphs always fit at \(width):\n\(rows.joined(separator: "\n"))")
                }
            }
        }
        let narrow = TextReport(location: FormatStringTests.tampa, report: report,
                                style: TerminalStyle(colour: false, glyphs: true, width: 40), now: Date()).render(daily: true)
        let days = table(narrow, header: "Day ")
        #expect(days.dropFirst().allSatisfy { $0.last.map { !$0.isASCII } ?? false }, "the glyph alone ends each row:\n\(narrow)")
    }

    // MARK: Piped output

    @Test func theOfflineDemoFitsEightyColumns() async throws {
        let result = try await InProcessCommand().run(Self.demo, environment: ["COLUMNS": "80"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(widths(result.stdout).max() ?? 0 <= 80, "\(result.stdout)")
        #expect(result.stdout.contains("Sunset 20:17"), "nothing is lost: \(result.stdout)")
        #expect(result.stdout.contains("Moderate rain showers"), "the sky still fits in words: \(result.stdout)")
        let hourly = table(result.stdout, header: "Time")
        #expect(hourly.count == 13)
        expectAligned(hourly)
        let daily = table(result.stdout, header: "Day")
        #expect(daily.count == 8)
        expectAligned(daily)
    }

    @Test func eightyColumnsIsTheDefault() async throws {
        let result = try await InProcessCommand().run(Self.demo)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(widths(result.stdout).max() ?? 0 <= 80, "\(result.stdout)")
    }

    @Test func aWiderTerminalGetsTheLongForms() async throws {
        let result = try await InProcessCommand().run(Self.demo, environment: ["COLUMNS": "120"])
        #expect(result.status == 0, "\(result.stderr)")
        let longest = widths(result.stdout).max() ?? 0
        #expect(longest > 80 && longest <= 120, "\(result.stdout)")
        #expect(result.stdout.contains("5.2 m/s from WSW  Moderate rain showers"), "\(result.stdout)")
        #expect(result.stdout.contains("Today 12.6 °C to 17.8 °C · Sunrise 05:55 · Sunset 20:17"), "one line: \(result.stdout)")
        expectAligned(table(result.stdout, header: "Time"))
    }

    @Test func anImpossiblyNarrowWidthIsFortyColumns() async throws {
        let result = try await InProcessCommand().run(Self.demo + ["--units", "imperial"], environment: ["COLUMNS": "12"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(widths(result.stdout).max() ?? 0 <= 40, "\(result.stdout)")
        #expect(widths(result.stdout).max() ?? 0 > 30, "uses the forty: \(result.stdout)")
        expectAligned(table(result.stdout, header: "Time"))
        expectAligned(table(result.stdout, header: "Day"))
    }

    @Test func longAlertsWrapUnderTheirLabel() async throws {
        let runner = try InProcessCommand()
        let result = try await runner.run(["--lat", "27.95", "--lon", "-82.46", "--provider", "pirateweather",
                                           "--weather-replay", Fixtures.url("weather/pirateweather/tampa-si.json").path],
                                          environment: ["COLUMNS": "60", "PIRATEWEATHER_API_KEY": "k"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(widths(result.stdout).max() ?? 0 <= 60, "\(result.stdout)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let alert = try #require(lines.firstIndex { $0.hasPrefix("Alert: ") })
        #expect(lines[alert + 1].hasPrefix(String(repeating: " ", count: 7)), "continued under the text: \(result.stdout)")
    }

    // MARK: On a terminal

    /// Runs the binary with stdout and stderr on a terminal `columns` wide (no `COLUMNS`),
    /// and returns what it showed.
    func runOnTerminal(columns: UInt16, _ arguments: [String]) async throws -> String {
        let terminal = try PseudoTerminal()
        var size = winsize(ws_row: 50, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        #expect(ioctl(terminal.slave, UInt(TIOCSWINSZ), &size) == 0)
        let runner = try CommandRunner()
        let process = try ChildProcess([CommandRunner.executable.path] + arguments,
                                       environment: ["HOME": runner.home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm"],
                                       stdout: .use(terminal.slave), stderr: .use(terminal.slave))
        let master = terminal.master
        let shown = try await BlockingCall.run { Swift.Result { try Self.readUntilExit(master, process) } }
        withExtendedLifetime(terminal) {}
        #expect(process.exitStatus == .exited(0), "\(shown)")
        return shown.replacing("\r\n", with: "\n")
    }

    /// Everything the process shows on the terminal until it exits (bounded: a hung run fails).
    static func readUntilExit(_ master: Int32, _ process: ChildProcess) throws -> String {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 200) == 1 {
                let count = read(master, &buffer, buffer.count)
                if count > 0 { output += buffer[0..<count] }
                continue
            }
            if process.exitStatus != nil { return String(decoding: output, as: UTF8.self) }
        }
        process.terminate()
        throw PseudoTerminal.Failure(description: "the run did not end")
    }

    @Test func aTerminalSixtyColumnsWideGetsSixty() async throws {
        let shown = try await runOnTerminal(columns: 60, Self.demo)
        #expect(shown.contains("🌧️"), "glyphs on a terminal: \(shown)")
        #expect(shown.contains("Temp     "), "the chart is drawn: \(shown)")
        #expect(widths(shown).max() ?? 0 <= 60, "\(shown)")
        #expect(widths(shown).max() ?? 0 > 50, "\(shown)")
        expectAligned(table(shown, header: "Time"))
        expectAligned(table(shown, header: "Day"))
    }

    @Test func aTerminalEightyColumnsWideWithEmojiStillFits() async throws {
        let shown = try await runOnTerminal(columns: 80, Self.demo)
        #expect(widths(shown).max() ?? 0 <= 80, "\(shown)")
        #expect(shown.contains("🌧️ Moderate rain showers"), "\(shown)")
        expectAligned(table(shown, header: "Time"))
    }

    @Test func aWideTerminalIsUsed() async throws {
        let shown = try await runOnTerminal(columns: 150, Self.demo)
        #expect(widths(shown).max() ?? 0 > 80, "\(shown)")
        #expect(widths(shown).max() ?? 0 <= 150, "\(shown)")
    }

    // MARK: The rules

    @Test func displayColumns() {
        #expect(TextWidth.columns("Sunset 20:17") == 12)
        #expect(TextWidth.columns("☀️") == 2, "an emoji asked for with VS16")
        #expect(TextWidth.columns("🌧️ Rain") == 7)
        #expect(TextWidth.columns("⛅") == 2, "emoji presentation by default")
        #expect(TextWidth.columns("e\u{301}") == 1, "a combining accent takes none")
        #expect(TextWidth.columns("雨") == 2)
        #expect(TextWidth.columns("14.2 °C") == 7)
        #expect(TextWidth.columns("\u{1B}[1;31m30 °C\u{1B}[0m") == 5, "colour takes none")
        #expect(TextWidth.columns("\u{E30D}") == 1, "Nerd Font glyphs are one column")
        #expect(TextWidth.columns("·…±≈") == 4)
    }

    @Test func cutFlowAndWrap() {
        #expect(TextWidth.cut("Moderate rain showers", 12) == "Moderate ra…")
        #expect(TextWidth.cut("Moderate rain showers", 10) == "Moderate…", "no space before the ellipsis")
        #expect(TextWidth.cut("🌧️ Rain", 3) == "🌧️…")
        #expect(TextWidth.cut("short", 10) == "short")
        #expect(TextWidth.flow(["aaaa", "bbbb", "cccc"], separator: " · ", width: 11) == ["aaaa · bbbb", "cccc"])
        #expect(TextWidth.flow(["aaaaaaaaaaaa", "", "b"], separator: ", ", width: 8) == ["aaaaaaa…", "b"])
        #expect(TextWidth.wrap("one two three four", 9) == ["one two", "three", "four"])
        #expect(TextWidth.pad("☀️", 4) == "☀️  ")
    }

    /// An item wider than the line is wrapped at its spaces, never cut mid-word (French's
    /// "Lever du soleil 06:56 · Coucher du soleil 17:35" at 40 columns was "... du sole…");
    /// only a single word wider than the line is cut.
    @Test func flowWrapsAnItemWiderThanTheLine() {
        #expect(TextWidth.flow(["Pas de précipitations", "Coucher du soleil 17:35 et lever 06:56"], separator: " · ", width: 24)
                    == ["Pas de précipitations", "Coucher du soleil 17:35", "et lever 06:56"])
        #expect(TextWidth.flow(["a", "Niederschlagswahrscheinlichkeit"], separator: " · ", width: 20)
                    == ["a", "Niederschlagswahrsc…"])
        #expect(TextWidth.flow(["雨 雨 雨 雨 雨 雨"], separator: " ", width: 6) == ["雨 雨", "雨 雨", "雨 雨"], "by display width")
    }

    /// Chinese, Japanese and Korean run without spaces: a line breaks between two wide
    /// characters (a long run was cut with "…"), never before "、" or "）" nor after "（"; a
    /// number keeps its unit ("45 min", "30 分"); a space still breaks where there is one.
    @Test func wrapBreaksBetweenWideCharacters() {
        #expect(TextWidth.wrap("今後２時間は降水の見込みはありません", 10) == ["今後２時間", "は降水の見", "込みはあり", "ません"])
        #expect(TextWidth.wrap("雨、雪、雷", 4) == ["雨、", "雪、", "雷"], "no line starts with 、")
        #expect(TextWidth.wrap("降雨（30 分钟后）", 8) == ["降雨", "（30 分", "钟后）"], "（ stays with what it opens")
        #expect(TextWidth.wrap("rain in 45 min", 10) == ["rain in", "45 min"], "a number keeps its unit")
        #expect(TextWidth.wrap("from 17:35 to 06:56", 12) == ["from 17:35", "to 06:56"])
        #expect(TextWidth.flow(["a", "今後２時間は降水の見込みはありません"], separator: " · ", width: 20)
                    == ["a", "今後２時間は降水の見", "込みはありません"])
        #expect(TextWidth.wrap("Niederschlagswahrscheinlichkeit", 20) == ["Niederschlagswahrsc…"], "a Latin word is still one piece")
    }

    @Test func widthRule() {
        #expect(TerminalWidth.resolve(columnsVariable: nil, terminalColumns: nil) == 80)
        #expect(TerminalWidth.resolve(columnsVariable: nil, terminalColumns: 132) == 132)
        #expect(TerminalWidth.resolve(columnsVariable: "100", terminalColumns: 132) == 100, "COLUMNS first")
        #expect(TerminalWidth.resolve(columnsVariable: "wide", terminalColumns: 132) == 132, "not a number: ignored")
        #expect(TerminalWidth.resolve(columnsVariable: "0", terminalColumns: nil) == 80)
        #expect(TerminalWidth.resolve(columnsVariable: "10", terminalColumns: nil) == 40, "never under 40")
        #expect(TerminalWidth.resolve(columnsVariable: "99999999", terminalColumns: nil) == 1000)
    }
}
