import Foundation
import Testing
@testable import HereWeatherCore

/// The `--hourly` chart: bars under their hours, scaled to the period; ASCII with ASCII
/// icons; only on a terminal (piped output keeps the plain table).
@Suite struct HourlyChartTests {
    func melbourne() throws -> WeatherReport {
        try FormatStringTests.provider.report(fromRecording: Fixtures.data("weather/open-meteo/melbourne-au-metric.json"), units: .metric)
    }

    @Test func barsAlignUnderTheHours() throws {
        let rows = HourlyChart(report: try FormatStringTests.report()).lines()
        #expect(rows.count == 3)
        #expect(rows[0].bars.hasPrefix("14 15 16 "))
        for row in rows {
            #expect(row.label.count == rows[0].label.count)
            #expect(row.bars.count == rows[0].bars.count, "\(row.label) is as wide as the hour row")
        }
        // Column i starts at 3 * i in every row: a bar or a mark, never a space.
        for row in rows.dropFirst() {
            let characters = Array(row.bars)
            for column in 0..<12 { #expect(characters[column * 3] != " ", "\(row.label) column \(column)") }
        }
    }

    @Test func temperatureIsScaledBetweenLowAndHigh() throws {
        let report = try FormatStringTests.report()
        let rows = HourlyChart(report: report).lines()
        let temperatures = report.hourly.map { $0.temperature ?? 0 }
        let bars = Array(rows[1].bars)
        let highest = try #require(temperatures.firstIndex(of: temperatures.max()!))
        let lowest = try #require(temperatures.firstIndex(of: temperatures.min()!))
        #expect(bars[highest * 3] == "█")
        #expect(bars[lowest * 3] == "▁")
        #expect(rows[1].note == " 21.0 to 27.2 °C")
    }

    @Test func precipitationRowShowsChanceAndAmount() throws {
        let rows = HourlyChart(report: try melbourne()).lines()
        #expect(rows[2].note.contains("up to 80%"))
        #expect(rows[2].note.contains("mm in all"))
        // Tampa: no chance at all is a row of dots.
        let dry = HourlyChart(report: try FormatStringTests.report()).lines()[2]
        #expect(dry.bars.replacingOccurrences(of: " ", with: "").allSatisfy { $0 == "·" })
        #expect(dry.note == " none expected")
    }

    @Test func asciiChartUsesOnlyASCII() throws {
        let rows = HourlyChart(report: try melbourne(), clock: .twelveHour, ascii: true).lines()
        for row in rows { #expect(row.bars.unicodeScalars.allSatisfy { $0.isASCII }, "\(row.bars)") }
        #expect(rows[0].bars.hasPrefix("12a 1a  2a  "))
    }

    @Test func chartOnlyOnATerminal() throws {
        let report = try FormatStringTests.report()
        let terminal = TextReport(location: FormatStringTests.tampa, report: report,
                                  style: TerminalStyle.forOutput(isTerminal: true, environment: ["NO_COLOR": "1"]), now: Date())
        #expect(terminal.render(hourly: true).contains("█"))
        #expect(terminal.render(hourly: true).contains("Next 12 hours"), "the table stays under the chart")
        let piped = TextReport(location: FormatStringTests.tampa, report: report,
                               style: TerminalStyle.forOutput(isTerminal: false, environment: [:]), now: Date())
        #expect(!piped.render(hourly: true).contains("█"))
        #expect(!terminal.render().contains("█"), "no chart without --hourly")
    }
}
