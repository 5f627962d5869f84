#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The short human report, with optional hourly and daily tables.
public struct TextReport: Sendable {
    public var location: Location
    public var report: WeatherReport
    public var style: TerminalStyle
    /// `[output]`: the glyph set and the clock.
    public var output: Configuration.OutputSettings

    public init(location: Location, report: WeatherReport, style: TerminalStyle,
                output: Configuration.OutputSettings = Configuration.OutputSettings()) {
        self.location = location
        self.report = report
        self.style = style
        self.output = output
    }

    /// The place: the location's name, the provider's, or the coordinates.
    var placeName: String { ReportFields(location: location, report: report).place }

    /// The report lines (no trailing newline). On a terminal (`style.chart`) the hourly
    /// table comes with a chart of temperature and precipitation above it.
    public func render(hourly: Bool = false, daily: Bool = false) -> String {
        var lines = summary()
        if hourly && style.chart && !report.hourly.isEmpty {
            let chart = HourlyChart(report: report, clock: output.clock, ascii: output.icons == .ascii)
            lines += [""] + chart.lines().map { (style.dim($0.label) + $0.bars + style.dim($0.note)).trimmingSuffixSpaces }
        }
        if hourly { lines += [""] + hourlyTable() }
        if daily { lines += [""] + dailyTable() }
        return lines.joined(separator: "\n")
    }

    func summary() -> [String] {
        let current = report.current
        let units = report.units
        var lines: [String] = []
        // A named fixed location is already the place shown: say only how it was had.
        let origin = location.source == .fixed && location.name != nil
            ? "fixed location, " + Formatting.accuracy(location.horizontalAccuracy) : Provenance.text(location)
        lines.append(style.bold(placeName) + style.dim(" (\(origin))"))
        if report.freshness.stale { lines.append("offline: from \(LocationReport.ageText(report.freshness.ageSeconds)) ago") }

        var sky = current.description.isEmpty ? current.condition.rawValue : current.description
        if style.glyphs { sky = current.condition.glyph(output.icons, isDay: current.isDay) + "  " + sky }
        var temperature = temperatureText(current.temperature) ?? "temperature unknown"
        temperature = style.temperature(temperature, celsius: celsius(current.temperature))
        if let feels = temperatureText(current.feelsLike) { temperature += ", feels like \(feels)" }
        lines.append("\(sky), \(temperature)")

        var details: [String] = []
        if let wind = windText(speed: current.windSpeed, direction: current.windDirection) {
            var text = "Wind " + wind
            if let gust = current.windGust { text += ", gusts " + Formatting.fixed(gust, 1) + " " + units.speedSymbol }
            details.append(text)
        }
        if let humidity = current.humidity { details.append("Humidity \(Formatting.fixed(humidity, 0))%") }
        if let pressure = current.pressure { details.append("Pressure \(Formatting.fixed(pressure, 0)) hPa") }
        if !details.isEmpty { lines.append(details.joined(separator: " · ")) }

        var more: [String] = [precipitationText(current.precipitation)]
        if let low = temperatureText(current.temperatureMin), let high = temperatureText(current.temperatureMax) {
            more.append("Today \(low) to \(high)")
        }
        if let sunrise = clock(current.sunrise) { more.append("Sunrise \(sunrise)") }
        if let sunset = clock(current.sunset) { more.append("Sunset \(sunset)") }
        lines.append(more.joined(separator: " · "))
        for alert in report.alerts {
            let text = AlertText.line(alert, utcOffset: report.utcOffset, clock: output.clock)
            lines.append(style.bold((style.glyphs ? AlertText.mark(output.icons) + "  " : "") + "Alert: ") + text)
        }
        let observed = clock(current.time) ?? ""
        var source = "\(report.provider.displayName), \(observed) local time"
        if report.freshness.cached {
            let age = Formatting.age(report.freshness.ageSeconds)
            source += age == "now" ? ", cached just now" : ", cached \(age) ago"
        }
        lines.append(style.dim(source))
        return lines
    }

    func hourlyTable() -> [String] {
        let stepHours = max(1, report.hourlyStep / 3600)
        let title = stepHours == 1 ? "Next \(report.hourly.count) hours" : "Next \(report.hourly.count * stepHours) hours (\(stepHours)-hour steps)"
        let rows = report.hourly.map { hour -> [String] in
            [clock(hour.time) ?? "",
             temperatureText(hour.temperature) ?? "-",
             temperatureText(hour.feelsLike) ?? "-",
             amountText(hour.precipitation),
             hour.precipitationProbability.map { Formatting.fixed($0, 0) + "%" } ?? "-",
             windText(speed: hour.windSpeed, direction: hour.windDirection) ?? "-",
             skyText(hour.condition, hour.description, isDay: hour.isDay)]
        }
        return [style.bold(title)] + table(header: ["Time", "Temp", "Feels", "Precip", "Chance", "Wind", "Sky"], rows: rows)
    }

    func dailyTable() -> [String] {
        let rows = report.daily.map { day -> [String] in
            [Formatting.dayLabel(day.date),
             temperatureText(day.temperatureMin) ?? "-",
             temperatureText(day.temperatureMax) ?? "-",
             amountText(day.precipitation),
             day.precipitationProbability.map { Formatting.fixed($0, 0) + "%" } ?? "-",
             day.windSpeedMax.map { Formatting.fixed($0, 1) + " " + report.units.speedSymbol } ?? "-",
             skyText(day.condition, day.description, isDay: true)]
        }
        return [style.bold("Next \(report.daily.count) days")]
            + table(header: ["Day", "Low", "High", "Precip", "Chance", "Wind", "Sky"], rows: rows)
    }

    /// Left-aligned columns two spaces apart; the last column is not padded.
    func table(header: [String], rows: [[String]]) -> [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.enumerated().map { index, row in
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : Formatting.pad(cell, widths[column])
            }
            let line = cells.joined(separator: "  ")
            return index == 0 ? style.dim(line) : line
        }
    }

    func temperatureText(_ value: Double?) -> String? {
        value.map { Formatting.fixed($0, 1) + " " + report.units.temperatureSymbol }
    }

    func windText(speed: Double?, direction: Double?) -> String? {
        Self.windWords(speed: speed, direction: direction, units: report.units)
    }

    /// "4.9 m/s from NNE".
    static func windWords(speed: Double?, direction: Double?, units: Units) -> String? {
        guard let speed else { return nil }
        let text = Formatting.fixed(speed, 1) + " " + units.speedSymbol
        return Formatting.compass(direction).map { "\(text) from \($0)" } ?? text
    }

    /// A time at the report's offset on the configured clock.
    func clock(_ date: Date?) -> String? {
        Formatting.clock(date, utcOffset: report.utcOffset, output.clock)
    }

    func amountText(_ value: Double?) -> String {
        guard let value else { return "-" }
        return Formatting.fixed(value, report.units == .imperial ? 2 : 1) + " " + report.units.precipitationSymbol
    }

    func precipitationText(_ precipitation: Precipitation?) -> String {
        guard let precipitation else { return "Precipitation not reported" }
        guard precipitation.total > 0 else { return "No precipitation" }
        let hours = Double(precipitation.periodSeconds) / 3600
        let period = hours == 1 ? "last hour" : hours < 1 ? "last \(precipitation.periodSeconds / 60) min" : "last \(Formatting.fixed(hours, 0)) h"
        var kinds: [String] = []
        if let rain = precipitation.rain, rain > 0 { kinds.append("rain") }
        if let snow = precipitation.snow, snow > 0 { kinds.append("snow") }
        let what = kinds.isEmpty ? "Precipitation" : kinds.joined(separator: " and ").capitalizedFirst
        return "\(what) \(amountText(precipitation.total)) (\(period))"
    }

    func skyText(_ condition: Condition, _ description: String, isDay: Bool?) -> String {
        let words = description.isEmpty ? condition.rawValue : description
        return style.glyphs ? condition.glyph(output.icons, isDay: isDay) + " " + words : words
    }

    /// `value` in °C, for colouring.
    func celsius(_ value: Double?) -> Double? {
        guard let value else { return nil }
        switch report.units {
        case .metric: return value
        case .imperial: return (value - 32) * 5 / 9
        case .standard: return value - 273.15
        }
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
    var trimmingSuffixSpaces: String { String(self[..<(lastIndex { $0 != " " }.map(index(after:)) ?? startIndex)]) }
}
