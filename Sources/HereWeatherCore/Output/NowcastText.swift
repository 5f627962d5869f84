#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The nowcast in words and bars, for the text report, the waybar tooltip and `%R`.
///
/// - `sentence`: "Rain from 14:45 (in 30 min), about 45 min, up to 1.4 mm/h", "Rain stopping
///   in 40 min (14:55)", "No rain or snow in the next 2 hours". Only what the data says: the
///   length when the spell ends within the horizon, the peak when intensities are given, and
///   the horizon the data covers (not always two hours).
/// - `bars`: "14:15 ▁▁▂▅▇▆▃▁ 16:15  Open-Meteo": one bar per step on a fixed scale (see
///   `levels`), the times at both ends, the source after when it fits.
/// - `short` (`%R`): "🌧️ in 30 min", "rain stops in 40 min"; empty when nothing changes.
public struct NowcastText: Sendable {
    public var outlook: NowcastOutlook
    public var units: Units
    public var utcOffset: Int
    public var output: Configuration.OutputSettings

    public init(_ outlook: NowcastOutlook, units: Units, utcOffset: Int,
                output: Configuration.OutputSettings = Configuration.OutputSettings()) {
        self.outlook = outlook
        self.units = units
        self.utcOffset = utcOffset
        self.output = output
    }

    /// The bar for an intensity at or above each of these (mm/h) is one higher: below
    /// 0.1 is the lowest bar (dry), 16 or more the highest. Fixed, so bars compare between runs.
    static let levels = [0.1, 0.5, 1, 2, 4, 8, 16]
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    static let asciiBlocks: [Character] = ["_", ",", "-", "~", "=", "+", "*", "#"]
    /// Rain starting within this many seconds is "soon" (waybar's `rain-soon` class).
    public static let soonSeconds = 1800.0

    /// "Rain", "Snow", "Rain and snow", or "Precipitation" when the service does not say.
    var noun: String {
        switch outlook.kind {
        case .rain: return "Rain"
        case .snow: return "Snow"
        case .mixed: return "Rain and snow"
        case nil: return "Precipitation"
        }
    }

    public var sentence: String {
        let horizon = "the next " + Self.span(outlook.horizonSeconds, hours: true)
        if outlook.isDry { return "No rain or snow in \(horizon)" }
        var parts: [String] = []
        if let starts = outlook.startsAt {
            parts.append("\(noun) from \(clock(starts)) (in \(Self.span(starts.timeIntervalSince(outlook.now))))")
            if let duration = outlook.duration {
                parts.append("about \(Self.span(duration))")
            } else {
                parts.append("lasting past \(clock(outlook.horizonEnd))")
            }
        } else if let ends = outlook.endsAt {
            parts.append("\(noun) stopping in \(Self.span(ends.timeIntervalSince(outlook.now))) (\(clock(ends)))")
        } else {
            parts.append("\(noun) for \(horizon)")
        }
        if let peak = outlook.peak { parts.append("up to \(rate(peak))") }
        return parts.joined(separator: ", ")
    }

    /// The `%R` text; "" when precipitation neither starts nor stops within the horizon.
    public var short: String {
        if let starts = outlook.startsAt {
            let when = "in " + Self.span(starts.timeIntervalSince(outlook.now))
            guard output.icons != .ascii else { return noun.lowercased() + " " + when }
            let condition: Condition = outlook.kind == .snow ? .snow : outlook.kind == .mixed ? .sleet : .rain
            return condition.glyph(output.icons, isDay: nil) + " " + when
        }
        if outlook.wetNow, let ends = outlook.endsAt {
            return noun.lowercased() + " stops in " + Self.span(ends.timeIntervalSince(outlook.now))
        }
        return ""
    }

    /// Whether precipitation starts within `soonSeconds`, as the minutes shown round it
    /// ("in 30 min" is soon).
    public var startsSoon: Bool {
        guard let starts = outlook.startsAt else { return false }
        return (starts.timeIntervalSince(outlook.now) / 60).rounded() <= Self.soonSeconds / 60
    }

    /// The bar line in at most `width` columns: steps are merged (the wettest counts) when
    /// there are more than fit, and the source is left out when it does not fit.
    public func bars(width: Int) -> String {
        let left = clock(outlook.now) + " "
        let right = " " + clock(outlook.horizonEnd)
        let source = "  " + outlook.source.displayName
        let frame = TextWidth.columns(left) + TextWidth.columns(right)
        let count = outlook.steps.count
        let withSource = width - frame - TextWidth.columns(source)
        let room = withSource >= min(count, 8) ? withSource : width - frame
        let perBar = max(1, (count + max(1, room) - 1) / max(1, room))
        let intensities = outlook.steps.map { $0.intensity ?? 0 }
        let symbols = output.icons == .ascii ? Self.asciiBlocks : Self.blocks
        let drawn = stride(from: 0, to: count, by: perBar).map { start -> Character in
            let wettest = intensities[start..<min(count, start + perBar)].max() ?? 0
            return symbols[Self.levels.filter { wettest >= $0 }.count]
        }
        let line = left + String(drawn) + right
        return room == withSource ? line + source : line
    }

    func clock(_ date: Date) -> String {
        Formatting.clock(date, utcOffset: utcOffset, output.clock) ?? ""
    }

    /// "1.4 mm/h", "0.06 in/h".
    func rate(_ millimetresPerHour: Double) -> String {
        let value = units.precipitation(fromMillimetres: millimetresPerHour)
        return Formatting.fixed(value, units == .imperial ? 2 : 1) + " " + units.precipitationSymbol + "/h"
    }

    /// "30 min", "1 h 25 min", "2 h"; with `hours`, whole hours as "2 hours" / "hour". Spans
    /// round to the minute, at least 1; horizons (`hours`) round down.
    static func span(_ seconds: Double, hours: Bool = false) -> String {
        let exact = seconds.isFinite ? max(0, min(seconds, 1e9)) / 60 : 0
        let minutes = hours ? Int(exact.rounded(.down)) : max(1, Int(exact.rounded()))
        if minutes < 60 { return "\(minutes) min" }
        let (whole, rest) = (minutes / 60, minutes % 60)
        if rest == 0 { return hours ? (whole == 1 ? "hour" : "\(whole) hours") : "\(whole) h" }
        return "\(whole) h \(rest) min"
    }
}

extension ReportFields {
    /// The nowcast read now, as text; `nil` without a current one.
    public var nowcastText: NowcastText? {
        report.nowcastOutlook(at: now).map { NowcastText($0, units: report.units, utcOffset: report.utcOffset, output: output) }
    }

    /// `%R`: "🌧️ in 30 min", "rain stops in 40 min"; "" when nothing changes or there is no nowcast.
    public var nowcastShort: String { nowcastText?.short ?? "" }
}
