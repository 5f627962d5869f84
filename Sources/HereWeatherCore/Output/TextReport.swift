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
    /// The run's time: the nowcast is read at it (`WeatherReport.nowcastOutlook(at:)`), and a
    /// fix's age is counted to it.
    public var now: Date

    public init(location: Location, report: WeatherReport, style: TerminalStyle,
                output: Configuration.OutputSettings = Configuration.OutputSettings(), now: Date) {
        self.location = location
        self.report = report
        self.style = style
        self.output = output
        self.now = now
    }

    /// The place: the location's name, the provider's, or the coordinates.
    var placeName: String { ReportFields(location: location, report: report, output: output, now: now).place }

    /// The characters the report is drawn in (`TextCharset`, from `output`).
    var charset: TextCharset { output.charset }

    /// The report lines (no trailing newline), each at most `style.width` columns. On a
    /// terminal (`style.chart`) the hourly table comes with a chart of temperature and
    /// precipitation above it. Every character is in `charset`.
    public func render(hourly: Bool = false, daily: Bool = false) -> String {
        var lines = summary()
        if hourly && style.chart && !report.hourly.isEmpty {
            let chart = HourlyChart(report: report, clock: output.clock, ascii: charset == .ascii)
            lines += [""] + chart.lines(width: style.width).map { (style.dim($0.label) + $0.bars + style.dim($0.note)).trimmingSuffixSpaces }
        }
        if hourly { lines += [""] + hourlyTable() }
        if daily { lines += [""] + dailyTable() }
        // Everything drawn is in the set already; this only catches text that came in unfolded.
        return charset.fold(lines.joined(separator: "\n"))
    }

    func summary() -> [String] {
        let current = report.current
        let units = report.units
        let width = style.width
        // A named fixed location is already the place shown: say only how it was had.
        let origin = location.source == .fixed && location.name != nil
            ? "fixed location, " + Formatting.accuracy(location.horizontalAccuracy, charset)
            : Provenance.text(location, now: now, charset: charset)
        var lines = headline(origin: "(\(origin))")
        if report.freshness.stale {
            lines.append(TextWidth.cut("offline: from \(LocationReport.ageText(report.freshness.ageSeconds)) ago", width,
                                       ellipsis: charset.ellipsis))
        }

        var sky = charset.fold(current.description.isEmpty ? current.condition.rawValue : current.description)
        if style.glyphs { sky = current.condition.glyph(output.icons, isDay: current.isDay) + "  " + sky }
        var temperature = temperatureText(current.temperature) ?? "temperature unknown"
        temperature = style.temperature(temperature, celsius: celsius(current.temperature))
        lines += TextWidth.flow([sky, temperature, temperatureText(current.feelsLike).map { "feels like \($0)" } ?? ""],
                                separator: ", ", width: width, ellipsis: charset.ellipsis)

        var details: [String] = []
        if let wind = windText(speed: current.windSpeed, direction: current.windDirection) {
            var text = "Wind " + wind
            if let gust = current.windGust { text += ", gusts " + Formatting.fixed(gust, 1) + " " + units.speedSymbol }
            details.append(text)
        }
        if let humidity = current.humidity { details.append("Humidity \(Formatting.fixed(humidity, 0))%") }
        if let pressure = current.pressure { details.append("Pressure \(Formatting.fixed(pressure, 0)) hPa") }
        lines += TextWidth.flow(details, separator: charset.separator, width: width, ellipsis: charset.ellipsis)

        var more: [String] = [precipitationText(current.precipitation)]
        if let low = temperatureText(current.temperatureMin), let high = temperatureText(current.temperatureMax) {
            more.append("Today \(low) to \(high)")
        }
        // Sunrise and sunset stay together on one line.
        more.append([clock(current.sunrise).map { "Sunrise \($0)" }, clock(current.sunset).map { "Sunset \($0)" }]
            .compactMap { $0 }.joined(separator: charset.separator))
        lines += TextWidth.flow(more, separator: charset.separator, width: width, ellipsis: charset.ellipsis)
        if let nowcast = ReportFields(location: location, report: report, output: output, now: now).nowcastText {
            lines += TextWidth.wrap(nowcast.sentence, width, ellipsis: charset.ellipsis) + [style.dim(nowcast.bars(width: width))]
        }
        let alerts = AlertText.listed(report.alerts)
        let label = style.glyphs ? AlertText.mark(output.icons) + "  Alert: " : "Alert: "
        for alert in alerts.shown {
            lines += hanging(label, charset.fold(AlertText.line(alert, utcOffset: report.utcOffset, clock: output.clock)))
            lines += alertDetail(alert)
        }
        if alerts.more > 0 {
            lines += hanging(String(repeating: " ", count: TextWidth.columns(label)), AlertText.Words.more(alerts.more))
        }
        let observed = clock(current.time) ?? ""
        var source = sourceText(observed: observed)
        // A stale report's age is on its "offline: from ... ago" line already: once, in one form.
        if report.freshness.cached && !report.freshness.stale {
            let age = Formatting.age(report.freshness.ageSeconds)
            source += age == "now" ? ", cached just now" : ", cached \(age) ago"
        }
        lines += TextWidth.wrap(source, width, ellipsis: charset.ellipsis).map(style.dim)
        if let replay = replayNote { lines += TextWidth.wrap(replay, width, ellipsis: charset.ellipsis).map(style.dim) }
        return lines
    }

    /// The place in bold and where the location came from, on one line when they fit; else
    /// the origin on a line of its own, each cut to the width.
    func headline(origin: String) -> [String] {
        let width = style.width
        if TextWidth.columns(placeName) + 1 + TextWidth.columns(origin) <= width {
            return [style.bold(placeName) + style.dim(" " + origin)]
        }
        return [style.bold(TextWidth.cut(placeName, width, ellipsis: charset.ellipsis))]
            + TextWidth.wrap(origin, width, ellipsis: charset.ellipsis).map(style.dim)
    }

    /// `text` wrapped after `label` (in bold), its later lines indented under the text.
    func hanging(_ label: String, _ text: String) -> [String] {
        let indent = TextWidth.columns(label)
        let wrapped = TextWidth.wrap(text, max(1, style.width - indent), ellipsis: charset.ellipsis)
        return wrapped.enumerated().map { index, line in
            (index == 0 ? style.bold(label) : String(repeating: " ", count: indent)) + line
        }
    }

    /// "Replayed: NMEA log and recorded Open-Meteo response" when any part of the report
    /// was played back (`--replay`, `--weather-replay`) rather than live.
    var replayNote: String? {
        var parts: [String] = []
        if location.source == .nmea && !location.isLiveNMEA { parts.append("NMEA log") }
        if report.freshness.replayed { parts.append("recorded \(report.provider.displayName) response") }
        return parts.isEmpty ? nil : "Replayed: " + parts.joined(separator: " and ")
    }

    func hourlyTable() -> [String] {
        let stepHours = max(1, report.hourlyStep / 3600)
        let title = stepHours == 1 ? "Next \(report.hourly.count) hours" : "Next \(report.hourly.count * stepHours) hours (\(stepHours)-hour steps)"
        let hours = report.hourly
        let table = TextTable(columns: [
            .init("Time", hours.map { clock($0.time) ?? "" }),
            .init("Temp", hours.map { temperatureText($0.temperature) ?? "-" }),
            .init("Feels", hours.map { temperatureText($0.feelsLike) ?? "-" }, dropOrder: 3),
            .init("Precip", hours.map { amountText($0.precipitation) }, dropOrder: 1),
            .init("Chance", hours.map { $0.precipitationProbability.map { Formatting.fixed($0, 0) + "%" } ?? "-" }, dropOrder: 2),
            .init("Wind", hours.map { windText(speed: $0.windSpeed, direction: $0.windDirection) ?? "-" },
                  short: hours.map { windText(speed: $0.windSpeed, direction: $0.windDirection, short: true) ?? "-" },
                  dropOrder: 0),
            .init("Sky", hours.map { skyText($0.condition, $0.description, isDay: $0.isDay) },
                  short: style.glyphs ? hours.map { $0.condition.glyph(output.icons, isDay: $0.isDay) } : nil, dropOrder: 4),
        ], ellipsis: charset.ellipsis)
        return [style.bold(TextWidth.cut(title, style.width, ellipsis: charset.ellipsis))]
            + styledHeader(table.lines(width: style.width))
    }

    func dailyTable() -> [String] {
        let days = report.daily
        let table = TextTable(columns: [
            .init("Day", days.map { Formatting.dayLabel($0.date) }),
            .init("Low", days.map { temperatureText($0.temperatureMin) ?? "-" }),
            .init("High", days.map { temperatureText($0.temperatureMax) ?? "-" }),
            .init("Precip", days.map { amountText($0.precipitation) }, dropOrder: 2),
            .init("Chance", days.map { $0.precipitationProbability.map { Formatting.fixed($0, 0) + "%" } ?? "-" }, dropOrder: 3),
            .init("Wind", days.map { $0.windSpeedMax.map { Formatting.fixed($0, 1) + " " + report.units.speedSymbol } ?? "-" },
                  dropOrder: 1),
            .init("Sky", days.map { skyText($0.condition, $0.description, isDay: true) },
                  short: style.glyphs ? days.map { $0.condition.glyph(output.icons, isDay: true) } : nil, dropOrder: 4),
        ], ellipsis: charset.ellipsis)
        return [style.bold("Next \(report.daily.count) days")] + styledHeader(table.lines(width: style.width))
    }

    /// The table's lines with its header dimmed.
    func styledHeader(_ lines: [String]) -> [String] {
        lines.enumerated().map { $0.offset == 0 ? style.dim($0.element) : $0.element }
    }

    func temperatureText(_ value: Double?) -> String? {
        value.map { Formatting.fixed($0, 1) + " " + charset.temperatureSymbol(report.units) }
    }

    func windText(speed: Double?, direction: Double?, short: Bool = false) -> String? {
        Self.windWords(speed: speed, direction: direction, units: report.units, short: short)
    }

    /// "4.9 m/s from NNE"; `short`, "4.9 m/s NNE" (for a narrow table column).
    static func windWords(speed: Double?, direction: Double?, units: Units, short: Bool = false) -> String? {
        guard let speed else { return nil }
        let text = Formatting.fixed(speed, 1) + " " + units.speedSymbol
        return Formatting.compass(direction).map { "\(text) \(short ? "" : "from ")\($0)" } ?? text
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
        let words = charset.fold(description.isEmpty ? condition.rawValue : description)
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
