#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A report as it reads at an instant: alerts that have ended are left out (the rest most
/// severe first).
///
/// Applied where a report is printed (`ReportOutput`), so that it holds for a report fresh
/// from the service, one from the cache (minutes or hours old) and one replayed from a
/// recording (read at its own time).
extension WeatherReport {
    /// The most alerts a report keeps, most severe first (JSON lists them all, up to this).
    public static let alertLimit = 100

    /// When alerts are judged: the run's clock `now`, or a replayed recording's own time.
    public func alertTime(now: Date) -> Date {
        freshness.replayed ? issued : now
    }

    /// The report as it reads at `now` (the run's clock).
    public func shown(at now: Date) -> WeatherReport {
        var shown = self
        shown.alerts = WeatherAlert.inForce(alerts, at: alertTime(now: now), limit: Self.alertLimit)
        return shown
    }
}

extension WeatherAlert {
    /// The alerts still in force at `time` (no `end`, or an end after it), most severe first
    /// (the service's order among equals), at most `limit`.
    public static func inForce(_ alerts: [WeatherAlert], at time: Date, limit: Int = WeatherReport.alertLimit) -> [WeatherAlert] {
        let live = alerts.enumerated().filter { $0.element.end.map { $0 > time } ?? true }
        let ordered = live.sorted { ($0.element.severityRank, $0.offset) < ($1.element.severityRank, $1.offset) }
        return ordered.prefix(max(0, limit)).map(\.element)
    }

    /// The CAP severity's rank: Extreme 0, Severe 1, Moderate 2, Minor 3, anything else 4.
    var severityRank: Int {
        switch severity?.lowercased() {
        case "extreme": return 0
        case "severe": return 1
        case "moderate": return 2
        case "minor": return 3
        default: return 4
        }
    }
}
