import HereWeatherCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A report as `--follow` shows it: its line at any time, the report's age counted from when
/// the service sent it (`sentAt`) in the texts ("5 min old", "offline 2 h"). `--json` keeps
/// the age the report had when it came (`age_s`), since a number of seconds would change
/// every second: its line changes with what it says, not with its age.
struct ReportPicture: FollowPicture {
    let output: ReportOutput
    let location: Location
    let report: WeatherReport
    let settings: Configuration.OutputSettings
    let sentAt: Date

    func line(at date: Date) -> String {
        var report = report
        if case .json = output {} else { report.freshness.ageSeconds = max(0, date.timeIntervalSince(sentAt)) }
        return output.line(location: location, report: report, output: settings, now: date) ?? ""
    }
}

/// A line that does not change with time (a failure's).
struct FixedPicture: FollowPicture {
    let line: String

    func line(at date: Date) -> String { line }
}
