#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Weather alerts in words, for the text report, the status-bar tooltip and `%A`.
enum AlertText {
    /// How many alerts the text report and the tooltip list (the most severe: a report's
    /// alerts are in that order, `WeatherReport.shown(at:)`); JSON lists them all.
    static let listed = 5

    /// After the listed alerts: "and 3 more alerts (--json lists them all)".
    static func more(_ count: Int, locale: UserLocale = .english) -> String {
        locale.text(.alertsAndMore, count: count)
    }

    /// The alerts a text lists, and how many more there are.
    static func listed(_ alerts: [WeatherAlert]) -> (shown: ArraySlice<WeatherAlert>, more: Int) {
        (alerts.prefix(listed), max(0, alerts.count - listed))
    }

    /// "Small Craft Advisory (Moderate), until Sun 22 Nov 23:00, from NWS Tampa Bay".
    /// The title is translated where it is one of the NWS's known events, the severity where
    /// it is one of CAP's words; the issuer is as the service wrote it.
    static func line(_ alert: WeatherAlert, utcOffset: Int, clock: ClockFormat,
                     locale: UserLocale = .english) -> String {
        var text = locale.alertTitle(alert.title)
        if let severity = alert.severity, !severity.isEmpty, severity.lowercased() != "unknown" {
            text = locale.text(.alertSeverity, text, locale.severity(severity))
        }
        var parts = [text]
        if let end = alert.end, let time = locale.clock(end, utcOffset: utcOffset, clock) {
            parts.append(locale.text(.alertUntil, locale.dayLabel(LocalTime(end, utcOffset: utcOffset).dateString), time))
        }
        if let source = alert.source, !source.isEmpty { parts.append(locale.text(.alertFrom, source)) }
        return parts.joined(separator: locale.text(.listSeparator))
    }

    /// What the alert is about, for the text report's detail line: the "WHAT..." part of an
    /// NWS-style description ("* WHAT...Flooding caused by excessive rainfall. * WHERE..."),
    /// else its first paragraph, on one line; `nil` without a description. The time is not
    /// repeated: the alert's line says until when.
    static func detail(_ alert: WeatherAlert) -> String? {
        guard let description = alert.description else { return nil }
        var text = Substring(description)
        if let what = text.firstRange(of: "WHAT...") {
            text = text[what.upperBound...]
            if let next = text.firstRange(of: "* ") { text = text[..<next.lowerBound] }
        }
        if let paragraph = text.firstRange(of: "\n\n") { text = text[..<paragraph.lowerBound] }
        let line = (JSONValue.string(String(text)).lineText ?? "").split(separator: " ").joined(separator: " ")
        return line.isEmpty ? nil : line
    }

    /// After the local warnings: "3 more warnings elsewhere in the country (Croatia), highest
    /// level: red" for the warnings of the point's country that are not local (MeteoAlarm);
    /// `nil` when there are none. Without any awareness level among them, the highest severity.
    static func elsewhere(_ report: WeatherReport, locale: UserLocale = .english) -> String? {
        let others = report.alertsElsewhere
        guard !others.isEmpty, let code = report.elsewhereCountry else { return nil }
        let country = locale.conventions.countryName(code) ?? code
        let level: String
        if let highest = others.compactMap(\.level).max() {
            level = locale.text([AwarenessLevel.yellow: Message.levelYellow, .orange: .levelOrange, .red: .levelRed][highest] ?? .levelRed)
        } else {
            level = others.min { $0.severityRank < $1.severityRank }?.severity.map { locale.severity($0) } ?? "?"
        }
        return locale.text(.alertsElsewhere, count: others.count, country, level)
    }

    /// The first alert's title, with "+N" for the others; "" when there are none, so that a
    /// status bar shows nothing on a quiet day.
    static func short(_ alerts: [WeatherAlert], locale: UserLocale = .english) -> String {
        guard let first = alerts.first else { return "" }
        let title = locale.alertTitle(first.title)
        return alerts.count == 1 ? title : locale.text(.alertsMore, count: alerts.count - 1, title)
    }

    /// The warning sign in the glyph set.
    static func mark(_ icons: GlyphSet) -> String {
        icons == .emoji ? "⚠️" : icons == .nerd ? "\u{F071}" : "!"
    }
}
