import Foundation
import Testing
@testable import HereWeatherCore

/// Wrapping (issue 35 D26): a number keeps its unit before a comma or a bracket too; an
/// alert's last line is never its issuer's last word alone; `where` fits `COLUMNS`; an ASCII
/// glyph is one column and is followed by one space, not an emoji's two.
@Suite struct WrappingTests {
    /// "about 45 min, up to 1.4 mm/h" at 40 columns broke as "about 45" / "min, up to ...".
    @Test func aNumberKeepsItsUnitBeforePunctuation() {
        #expect(TextWidth.wrap("Rain from 14:45 (in 30 min), about 45 min, up to 1.4 mm/h", 40)
                    == ["Rain from 14:45 (in 30 min), about", "45 min, up to 1.4 mm/h"])
        #expect(TextWidth.wrap("Rain from 14:45 (in 30 min)", 22) == ["Rain from 14:45", "(in 30 min)"])
        #expect(TextWidth.wrap("up to 1.4 mm/h", 12) == ["up to", "1.4 mm/h"])
        #expect(TextWidth.wrap("twelve 12 kilometres", 10) == ["twelve 12", "kilometres"], "a long word is not a unit")
    }

    /// "Rain from 14:45 (in" / "30 min), ..." left a bracket open on a line end at 19 to 21
    /// columns (issue 35 D26's follow-up): a short word after "(" keeps the next.
    @Test func aShortWordAfterABracketKeepsTheNext() {
        for width in 15...40 {
            let lines = TextWidth.wrap("Rain from 14:45 (in 30 min), about 45 min, up to 1.4 mm/h", width)
            #expect(!lines.contains { $0.hasSuffix("(in") }, "\(width): \(lines)")
            #expect(lines.joined(separator: " ") == "Rain from 14:45 (in 30 min), about 45 min, up to 1.4 mm/h", "\(width): \(lines)")
        }
        #expect(TextWidth.wrap("Regen ab 14:45 (in 30 Min.)", 18) == ["Regen ab 14:45", "(in 30 Min.)"])
        #expect(TextWidth.wrap("a (long words) b", 8) == ["a (long", "words) b"], "a longer word after a bracket may end a line")
    }

    @Test func theLastLineIsNotOneWordAlone() {
        let lines = TextWidth.wrap("Flood Warning, from NWS Tampa Bay Ruskin FL", 38)
        #expect(lines == ["Flood Warning, from NWS Tampa Bay", "Ruskin FL"])
        #expect(TextWidth.withoutWidow(["a b c", "d"], width: 10) == ["a b", "c d"])
        #expect(TextWidth.withoutWidow(["abc", "d"], width: 10) == ["abc", "d"], "one word before: nothing to move")
        #expect(TextWidth.withoutWidow(["a bcdefgh", "ijk"], width: 10) == ["a bcdefgh", "ijk"], "what would not fit stays")
        #expect(TextWidth.withoutWidow(["rain in 45 min", "x"], width: 10) == ["rain in", "45 min x"], "a unit moves whole")
    }

    /// The NWS alert at 80 columns left "FL" alone under "... from NWS Tampa Bay Ruskin".
    @Test func anAlertsIssuerStaysTogether() async throws {
        let runner = try InProcessCommand()
        let result = try await runner.run(["--lat", "27.95", "--lon", "-82.46", "--provider", "pirateweather",
                                           "--weather-replay", Fixtures.url("weather/pirateweather/tampa-si.json").path],
                                          environment: ["COLUMNS": "80", "PIRATEWEATHER_API_KEY": "k"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("       Ruskin FL"), "\(result.stdout)")
        #expect(!lines.contains { $0.trimmingCharacters(in: .whitespaces) == "FL" }, "\(result.stdout)")
    }

    /// `where` wraps its values under themselves: its Age line was 83 columns at COLUMNS=40.
    @Test(arguments: [40, 60, 80])
    func whereFitsColumns(_ columns: Int) async throws {
        let runner = try InProcessCommand()
        let result = try await runner.run(["where", "--replay", Fixtures.url("nmea/drive.nmea").path],
                                          environment: ["COLUMNS": "\(columns)"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { TextWidth.columns($0) <= columns }, "\(result.stdout)")
        let age = try #require(lines.firstIndex { $0.hasPrefix("Age:") })
        #expect(lines[age + 1].hasPrefix(String(repeating: " ", count: 11)) && lines[age + 1].count > 11 + 10,
                "continued under the value, more than one word: \(result.stdout)")
    }

    /// With `icons = "ascii"` on a terminal: "o Mainly clear" and "! Alert:" (one space after a
    /// glyph one column wide), the alert's detail under "Alert"; emoji keep their two spaces.
    @Test func anASCIIGlyphIsOneColumnAndOneSpace() throws {
        var report = try FormatStringTests.report()
        report.alerts = [WeatherAlert(title: "Flood Warning", severity: "Severe", source: "NWS Tampa Bay Ruskin FL",
                                      description: "* WHAT...Minor flooding is occurring.")]
        func render(_ icons: GlyphSet) -> [String] {
            var output = Configuration.OutputSettings()
            output.icons = icons
            return TextReport(location: FormatStringTests.tampa, report: report,
                              style: TerminalStyle(colour: false, glyphs: true, width: 80), output: output, now: Date())
                .render().split(separator: "\n").map(String.init)
        }
        let ascii = render(.ascii)
        #expect(ascii.contains("o Mainly clear, 26.8 °C, feels like 26.9 °C"), "\(ascii)")
        #expect(ascii.contains("! Alert: Flood Warning (Severe), from NWS Tampa Bay Ruskin FL"), "\(ascii)")
        #expect(ascii.contains("  Minor flooding is occurring."), "under \"Alert\": \(ascii)")
        let emoji = render(.emoji)
        #expect(emoji.contains("☀️  Mainly clear, 26.8 °C, feels like 26.9 °C"), "\(emoji)")
        #expect(emoji.contains("⚠️  Alert: Flood Warning (Severe), from NWS Tampa Bay Ruskin FL"), "\(emoji)")
        #expect(emoji.contains("    Minor flooding is occurring."), "\(emoji)")
    }
}
