#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `weather.nowcast` in `--json`: `null` when the provider sent none; else the nowcast read at
/// the run's time. Times are RFC 3339 at the location's offset; intensities are per hour in the
/// report's precipitation unit (mm/h, or in/h for imperial).
///
/// `precipitation_starts` and `precipitation_ends` are the first spell's ends within the
/// horizon, or `null`: both `null` for a dry horizon, `starts` `null` when it is already
/// wet, `ends` `null` when the spell lasts past the horizon. A nowcast that is not current
/// (`current` false: fetched more than 15 minutes ago) says nothing about now: `null`s too.
enum NowcastJSON {
    static func object(_ report: WeatherReport, now: Date) -> JSONOutput {
        guard let nowcast = report.nowcast else { return .null }
        let offset = report.utcOffset
        let outlook = report.nowcastOutlook(at: now)
        let steps: [Nowcast.Step] = outlook?.steps ?? nowcast.steps.sorted { $0.start < $1.start }
        let stepObjects: [JSONOutput] = steps.map { stepObject($0, report) }
        let horizon: JSONOutput = .number(outlook.map { $0.horizonSeconds.rounded() })
        let horizonEnd: JSONOutput = outlook.map { time($0.horizonEnd, offset) } ?? .null
        let starts: JSONOutput = outlook?.startsAt.map { time($0, offset) } ?? .null
        let ends: JSONOutput = outlook?.endsAt.map { time($0, offset) } ?? .null
        let peak: JSONOutput = outlook?.peak.map { rate($0, report.units) } ?? .null
        let members: [(String, JSONOutput)] = [
            ("source", .string(nowcast.source.rawValue)),
            ("issued", time(nowcast.issued, offset)),
            ("current", .bool(report.nowcastIsCurrent)),
            ("step_s", .number(Double(nowcast.stepSeconds))),
            ("horizon_s", horizon),
            ("horizon_end", horizonEnd),
            ("threshold", rate(Nowcast.threshold, report.units)),
            ("precipitation_now", .bool(outlook?.wetNow)),
            ("precipitation_starts", starts),
            ("precipitation_ends", ends),
            ("kind", .string(outlook?.kind?.rawValue)),
            ("peak_intensity", peak),
            ("steps", .array(stepObjects)),
        ]
        return .object(members)
    }

    static func stepObject(_ step: Nowcast.Step, _ report: WeatherReport) -> JSONOutput {
        let intensity: JSONOutput = step.intensity.map { rate($0, report.units) } ?? .null
        let probability: Double? = step.probability.map { ($0 * 100).rounded() / 100 }
        return .object([
            ("time", time(step.start, report.utcOffset)),
            ("intensity", intensity),
            ("probability", .number(probability)),
            ("kind", .string(step.kind?.rawValue)),
        ])
    }

    /// mm/h in the report's unit: 2 decimals of mm/h, 3 of in/h.
    static func rate(_ millimetresPerHour: Double, _ units: Units) -> JSONOutput {
        let value = units.precipitation(fromMillimetres: millimetresPerHour)
        let scale = units == .imperial ? 1000.0 : 100.0
        return .number((value * scale).rounded() / scale)
    }

    static func time(_ date: Date, _ offset: Int) -> JSONOutput {
        .string(LocalTime.iso8601(date, utcOffset: offset))
    }
}
