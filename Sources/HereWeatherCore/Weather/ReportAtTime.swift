#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A report as it reads at an instant: alerts that have ended are left out (the rest most
/// severe first), the tables start at the current step and today, and a forecast hour that
/// stands for the current conditions (the NWS without a recent observation) is the hour
/// that contains the instant.
///
/// Applied where a report is printed (`ReportOutput`), so that it holds for a report fresh
/// from the service, one from the cache (minutes or hours old) and one replayed from a
/// recording (read at its own time).
extension WeatherReport {
    /// The most alerts a report keeps, most severe first (JSON lists them all, up to this).
    public static let alertLimit = 100
    /// The hours the hourly table covers, whatever the provider's step.
    public static let hourlyHours = 12

    /// When alerts are judged: the run's clock `now`, or a replayed recording's own time.
    public func alertTime(now: Date) -> Date {
        freshness.replayed ? issued : now
    }

    /// When the tables are judged: the service's time for the data (`issued`), as much later
    /// as the report is old (a cached or stale one; a replay is read at its own time).
    public var tableTime: Date {
        issued.addingTimeInterval(freshness.replayed ? 0 : max(0, freshness.ageSeconds))
    }

    /// The report as it reads at `now` (the run's clock).
    public func shown(at now: Date) -> WeatherReport {
        var shown = self
        shown.alerts = WeatherAlert.inForce(alerts, at: alertTime(now: now), limit: Self.alertLimit)
        shown.alertsElsewhere = WeatherAlert.inForce(alertsElsewhere, at: alertTime(now: now), limit: Self.alertLimit)
        let time = tableTime
        let step = TimeInterval(max(1, hourlyStep))
        let steps = max(1, Self.hourlyHours * 3600 / max(1, hourlyStep))
        shown.hourly = Array(hourly.filter { $0.time.addingTimeInterval(step) > time }.prefix(steps))
        let today = LocalTime(time, utcOffset: utcOffset).dateString
        shown.daily = daily.filter { $0.date >= today }
        // The hour that contains `time`, else (all have ended: a stale report) the last one.
        if currentBasis == .forecast, let hour = hourly.last(where: { $0.time <= time }), hour.time > current.time {
            var conditions = CurrentConditions(forecastHour: hour)
            conditions.sunrise = current.sunrise
            conditions.sunset = current.sunset
            shown.current = DailyAggregation.todaysRange(conditions, days: shown.daily, utcOffset: utcOffset)
        }
        return shown
    }

    /// Whether the current conditions are a forecast hour that ended before `time`: the
    /// forecast has nothing newer (a stale report), and the report says so with its date.
    public func currentForecastEnded(at time: Date) -> Bool {
        currentBasis == .forecast && current.time.addingTimeInterval(TimeInterval(max(1, hourlyStep))) <= time
    }
}

extension CurrentConditions {
    /// The conditions a forecast step gives for its hour.
    public init(forecastHour hour: HourlyForecast) {
        self.init(time: hour.time, temperature: hour.temperature, feelsLike: hour.feelsLike, humidity: hour.humidity,
                  windSpeed: hour.windSpeed, windDirection: hour.windDirection,
                  condition: hour.condition, description: hour.description, isDay: hour.isDay)
        uvIndex = hour.uvIndex
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

    /// The CAP severity's rank: Extreme 0, Severe 1, Moderate 2, Minor 3; without a severity,
    /// the awareness level's (red as Extreme, orange as Severe, yellow as Moderate); else 4.
    var severityRank: Int {
        switch severity?.lowercased() {
        case "extreme": return 0
        case "severe": return 1
        case "moderate": return 2
        case "minor": return 3
        default: return level.map { AwarenessLevel.red.rawValue - $0.rawValue } ?? 4
        }
    }
}
