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

    /// The words this component adds, in one place.
    enum Words {
        /// After the listed alerts: "and 3 more alerts (--json lists them all)".
        static func more(_ count: Int) -> String {
            "and \(count) more alert\(count == 1 ? "" : "s") (--json lists them all)"
        }
    }

    /// The alerts a text lists, and how many more there are.
    static func listed(_ alerts: [WeatherAlert]) -> (shown: ArraySlice<WeatherAlert>, more: Int) {
        (alerts.prefix(listed), max(0, alerts.count - listed))
    }

    /// "Small Craft Advisory (Moderate), until Sun 22 Nov 23:00, from NWS Tampa Bay".
    static func line(_ alert: WeatherAlert, utcOffset: Int, clock: ClockFormat) -> String {
        var text = alert.title
        if let severity = alert.severity, !severity.isEmpty, severity.lowercased() != "unknown" { text += " (\(severity))" }
        if let end = alert.end, let time = Formatting.clock(end, utcOffset: utcOffset, clock) {
            let day = Formatting.dayLabel(LocalTime(end, utcOffset: utcOffset).dateString).replacing("  ", with: " ")
            text += ", until \(day) \(time)"
        }
        if let source = alert.source, !source.isEmpty { text += ", from \(source)" }
        return text
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

    /// The first alert's title, with "+N" for the others; "" when there are none, so that a
    /// status bar shows nothing on a quiet day.
    static func short(_ alerts: [WeatherAlert]) -> String {
        guard let first = alerts.first else { return "" }
        return alerts.count == 1 ? first.title : "\(first.title) +\(alerts.count - 1)"
    }

    /// The warning sign in the glyph set.
    static func mark(_ icons: GlyphSet) -> String {
        icons == .emoji ? "⚠️" : icons == .nerd ? "\u{F071}" : "!"
    }
}
