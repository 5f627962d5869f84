import Foundation
import Testing
@testable import HereWeatherCore

/// `[output] icons` (emoji, nerd, ascii; day and night) and `[output] clock` (24h, 12h) in
/// the text report, `--format` and the waybar tooltip; JSON keeps ISO 8601.
@Suite struct IconAndClockTests {
    // MARK: Glyph sets

    @Test func clearSkyInEachSet() {
        #expect(Condition.clear.glyph(.emoji, isDay: true) == "☀️")
        #expect(Condition.clear.glyph(.emoji, isDay: false) == "🌙")
        #expect(Condition.clear.glyph(.nerd, isDay: true) == "\u{E30D}")    // nf-weather-day_sunny
        #expect(Condition.clear.glyph(.nerd, isDay: false) == "\u{E32B}")   // nf-weather-night_clear
        #expect(Condition.clear.glyph(.ascii, isDay: true) == "o")
        #expect(Condition.clear.glyph(.ascii, isDay: false) == ")")
    }

    @Test func unknownDayOrNightShowsTheDayGlyph() {
        for set in GlyphSet.allCases {
            #expect(Condition.clear.glyph(set, isDay: nil) == Condition.clear.glyph(set, isDay: true))
        }
    }

    @Test(arguments: Condition.allCases)
    func everyConditionHasAGlyphInEverySet(_ condition: Condition) {
        for isDay in [true, false] {
            let nerd = condition.glyph(.nerd, isDay: isDay)
            #expect(nerd.unicodeScalars.count == 1)
            #expect((0xE300...0xE3EB).contains(nerd.unicodeScalars.first!.value), "\(condition) is a Nerd Fonts weather icon")
            let ascii = condition.glyph(.ascii, isDay: isDay)
            #expect(!ascii.isEmpty && ascii.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 })
            #expect(!condition.glyph(.emoji, isDay: isDay).isEmpty)
        }
    }

    @Test func nerdSetHasNightVariants() {
        let withNight: [ConditionGroup] = [.clear, .partlyCloudy, .drizzle, .rain, .snow, .thunderstorm]
        for condition in withNight {
            #expect(condition.glyph(.nerd, isDay: true) != condition.glyph(.nerd, isDay: false), "\(condition)")
        }
    }

    @Test func textReportUsesTheConfiguredSet() throws {
        let report = try FormatStringTests.report()
        let style = TerminalStyle(colour: false, glyphs: true)
        let nerd = TextReport(location: FormatStringTests.tampa, report: report, style: style, output: .init(icons: .nerd), now: Date()).render()
        // A glyph one column wide is followed by one space, an emoji by two (issue 35 D26).
        #expect(nerd.contains("\u{E30D} Mainly clear"))
        let ascii = TextReport(location: FormatStringTests.tampa, report: report, style: style, output: .init(icons: .ascii), now: Date()).render()
        #expect(ascii.contains("o Mainly clear"))
    }

    // MARK: Clock

    @Test(arguments: [(0, 5, "12:05 AM", "00:05"), (9, 30, "9:30 AM", "09:30"), (12, 0, "12:00 PM", "12:00"), (17, 35, "5:35 PM", "17:35"), (23, 59, "11:59 PM", "23:59")])
    func twelveAndTwentyFourHourClocks(_ hour: Int, _ minute: Int, _ twelve: String, _ twentyFour: String) {
        let date = LocalTime(year: 2026, month: 11, day: 22, hour: hour, minute: minute).date(utcOffset: -18000)
        #expect(Formatting.clock(date, utcOffset: -18000, .twelveHour) == twelve)
        #expect(Formatting.clock(date, utcOffset: -18000, .twentyFourHour) == twentyFour)
    }

    @Test func twelveHourClockInTheTextReport() throws {
        let report = try FormatStringTests.report()
        let text = TextReport(location: FormatStringTests.tampa, report: report, style: .plain,
                              output: .init(clock: .twelveHour), now: Date()).render(hourly: true)
        #expect(text.contains("Sunrise 6:56 AM"))
        #expect(text.contains("Sunset 5:35 PM"))
        #expect(text.contains("Open-Meteo, 2:15 PM local time"))
        #expect(text.contains("\n2:00 PM   26.7 °C"), "hourly rows start with the 12-hour time, aligned")
        #expect(!text.contains("14:00"))
    }

    @Test func twelveHourClockInFormatAndTooltip() throws {
        let fields = ReportFields(location: FormatStringTests.tampa, report: try FormatStringTests.report(),
                                  output: .init(clock: .twelveHour), now: Date())
        #expect(try FormatString("%S-%s").render(fields) == "6:56 AM-5:35 PM")
        #expect(WaybarReport.tooltip(fields).contains("Sunrise 6:56 AM · Sunset 5:35 PM"))
    }

    @Test func textReportSaysWhenTheReportIsCached() throws {
        var report = try FormatStringTests.report()
        let fresh = TextReport(location: FormatStringTests.tampa, report: report, style: .plain, now: Date()).render()
        #expect(fresh.hasSuffix("Open-Meteo, 14:15 local time"))
        report.freshness = Freshness(cached: true, ageSeconds: 300, stale: false)
        let cached = TextReport(location: FormatStringTests.tampa, report: report, style: .plain, now: Date()).render()
        #expect(cached.hasSuffix("Open-Meteo, 14:15 local time, cached 5 min ago"))
        report.freshness = Freshness(cached: true, ageSeconds: 4 * 3600, stale: true)
        let stale = TextReport(location: FormatStringTests.tampa, report: report, style: .plain, now: Date()).render()
        #expect(stale.hasSuffix("Open-Meteo, 14:15 local time"), "a stale report's age is said once, on its offline line")
        #expect(stale.contains("\noffline: from 4 h ago\n"))
        // Seconds old and stale (a short max age): never "from 10 s ago" beside "cached just now".
        report.freshness = Freshness(cached: true, ageSeconds: 10, stale: true)
        let recent = TextReport(location: FormatStringTests.tampa, report: report, style: .plain, now: Date()).render()
        #expect(recent.contains("\noffline: from 10 s ago\n") && !recent.contains("just now") && !recent.contains("cached"), "\(recent)")
    }

    @Test func waybarTooltipSaysAStaleReportsAgeAsTheTextReportDoes() throws {
        var report = try FormatStringTests.report()
        report.freshness = Freshness(cached: true, ageSeconds: 10, stale: true)
        let tooltip = WaybarReport.tooltip(ReportFields(location: FormatStringTests.tampa, report: report, now: Date()))
        #expect(tooltip.hasSuffix("\nOpen-Meteo, from 10 s ago (stale: the service could not be reached)"), "\(tooltip)")
        #expect(!tooltip.contains("updated now"))
        report.freshness = Freshness(cached: true, ageSeconds: 10, stale: false)
        let fresh = WaybarReport.tooltip(ReportFields(location: FormatStringTests.tampa, report: report, now: Date()))
        #expect(fresh.hasSuffix("\nOpen-Meteo, updated now"), "\(fresh)")
    }

    @Test func configFileChoosesIconsAndClock() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("version = 1\n[output]\nicons = \"nerd\"\nclock = \"12h\"\n")
        let replay = Fixtures.url("weather/open-meteo/tampa-metric.json").path
        let base = ["--lat", "27.95", "--lon", "-82.46", "--weather-replay", replay]
        let line = try await runner.run(base + ["--format", "%c %S %s"])
        #expect(line.status == 0, "\(line.stderr)")
        #expect(line.stdout == "\u{E30D} 6:56 AM 5:35 PM\n")
        let text = try await runner.run(base)
        #expect(text.stdout.contains("Sunrise 6:56 AM"))
        // JSON keeps ISO 8601 whatever the clock.
        let json = try await runner.run(base + ["--json"])
        let current = try #require((json.json?["weather"] as? [String: Any])?["current"] as? [String: Any])
        #expect(current["sunrise"] as? String == "2026-11-22T06:56:00-05:00")
    }
}
