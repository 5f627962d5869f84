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
/// - `bars`: "14:15 ▁▁▂▅▇▆▃▁ 16:15  MET Norway radar": one bar per step on a fixed scale (see
///   `levels`), the times at both ends, the source after when it fits and is not the report's
///   own provider.
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

    /// The run's language and customs.
    var locale: UserLocale { output.locale }

    /// "Rain", "Snow", "Rain and snow", or "Precipitation" when the service does not say.
    var noun: String {
        switch outlook.kind {
        case .rain: return locale.text(.kindRain)
        case .snow: return locale.text(.kindSnow)
        case .mixed: return locale.text(.kindRainAndSnow)
        case nil: return locale.text(.kindAny)
        }
    }

    /// The same in the middle of a short text: "rain".
    var lowerNoun: String {
        switch outlook.kind {
        case .rain: return locale.text(.kindRainLower)
        case .snow: return locale.text(.kindSnowLower)
        case .mixed: return locale.text(.kindRainAndSnowLower)
        case nil: return locale.text(.kindAnyLower)
        }
    }

    public var sentence: String {
        let horizon = self.horizon
        if outlook.isDry { return locale.text(.nowcastDry, horizon) }
        var parts: [String] = []
        if let starts = outlook.startsAt {
            parts.append(locale.text(.nowcastStarts, noun, clock(starts), span(starts.timeIntervalSince(outlook.now))))
            if let duration = outlook.duration {
                parts.append(locale.text(.nowcastLasts, span(duration)))
            } else {
                parts.append(locale.text(.nowcastLastsPast, clock(outlook.horizonEnd)))
            }
        } else if let ends = outlook.endsAt {
            parts.append(locale.text(.nowcastStops, noun, span(ends.timeIntervalSince(outlook.now)), clock(ends)))
        } else {
            parts.append(locale.text(.nowcastThroughout, noun, horizon))
        }
        if let peak = outlook.peak { parts.append(locale.text(.upTo, rate(peak))) }
        return parts.joined(separator: locale.text(.listSeparator))
    }

    /// The `%R` text; "" when precipitation neither starts nor stops within the horizon.
    public var short: String {
        if let starts = outlook.startsAt {
            let when = span(starts.timeIntervalSince(outlook.now))
            guard output.icons != .ascii else { return locale.text(.nowcastIn, lowerNoun, when) }
            let condition: Condition = outlook.kind == .snow ? .snow : outlook.kind == .mixed ? .sleet : .rain
            return locale.text(.nowcastIn, condition.glyph(output.icons, isDay: nil), when)
        }
        if outlook.wetNow, let ends = outlook.endsAt {
            return locale.text(.nowcastStopsIn, lowerNoun, span(ends.timeIntervalSince(outlook.now)))
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
    /// there are more than fit, and the source is left out when it does not fit, or when it is
    /// `provider` itself, which the report names on its own line ("MET Norway radar" is kept
    /// beside MET Norway's forecast).
    public func bars(width: Int, besides provider: WeatherProviderKind? = nil) -> String {
        let left = clock(outlook.now) + " "
        let right = " " + clock(outlook.horizonEnd)
        if let provider, sourceName == provider.displayName {
            return bars(left, right, room: width - TextWidth.columns(left) - TextWidth.columns(right))
        }
        let source = "  " + sourceName
        let frame = TextWidth.columns(left) + TextWidth.columns(right)
        let withSource = width - frame - TextWidth.columns(source)
        return withSource >= min(outlook.steps.count, 8) ? bars(left, right, room: withSource) + source
            : bars(left, right, room: width - frame)
    }

    /// The bars between `left` and `right`, at most `room` of them.
    func bars(_ left: String, _ right: String, room: Int) -> String {
        let count = outlook.steps.count
        let perBar = max(1, (count + max(1, room) - 1) / max(1, room))
        let intensities = outlook.steps.map { $0.intensity ?? 0 }
        let symbols = output.icons == .ascii ? Self.asciiBlocks : Self.blocks
        let drawn = stride(from: 0, to: count, by: perBar).map { start -> Character in
            let wettest = intensities[start..<min(count, start + perBar)].max() ?? 0
            return symbols[Self.levels.filter { wettest >= $0 }.count]
        }
        return left + String(drawn) + right
    }

    /// The nowcast's source: a service's name, "MET Norway radar".
    var sourceName: String {
        outlook.source == .metNorway ? locale.text(.nowcastRadar, WeatherProviderKind.metNorway.displayName)
            : outlook.source.displayName
    }

    func clock(_ date: Date) -> String {
        locale.clock(date, utcOffset: utcOffset, output.clock) ?? ""
    }

    /// "1.4 mm/h", "0.06 in/h".
    func rate(_ millimetresPerHour: Double) -> String {
        let value = units.precipitation(fromMillimetres: millimetresPerHour)
        let unit = locale.text(.unitPerHour, locale.text(units == .imperial ? .unitInches : .unitMillimetres))
        return locale.number(value, units == .imperial ? 2 : 1) + " " + unit
    }

    /// A span: "30 min", "1 h 25 min", "2 h" (`NowcastText.minutes`).
    func span(_ seconds: Double) -> String {
        let minutes = Self.minutes(seconds)
        if minutes < 60 { return locale.text(.unitMinutes, count: minutes) }
        let (whole, rest) = (minutes / 60, minutes % 60)
        let hours = locale.text(.unitHours, count: whole)
        return rest == 0 ? hours : locale.text(.spanHoursMinutes, hours, locale.text(.unitMinutes, count: rest))
    }

    /// The span the data covers: "the next 2 hours", "the next hour", "the next 45 min".
    var horizon: String {
        let minutes = Self.minutes(outlook.horizonSeconds, roundingDown: true)
        if minutes < 60 { return locale.text(.horizonMinutes, count: minutes) }
        let (whole, rest) = (minutes / 60, minutes % 60)
        if rest == 0 { return locale.text(.horizonHours, count: whole) }
        return locale.text(.horizonSpan, locale.text(.spanHoursMinutes, locale.text(.unitHours, count: whole),
                                                     locale.text(.unitMinutes, count: rest)))
    }

    /// Whole minutes of a span: rounded, at least 1; a horizon (`roundingDown`) rounds down.
    static func minutes(_ seconds: Double, roundingDown: Bool = false) -> Int {
        let exact = seconds.isFinite ? max(0, min(seconds, 1e9)) / 60 : 0
        return roundingDown ? Int(exact.rounded(.down)) : max(1, Int(exact.rounded()))
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
