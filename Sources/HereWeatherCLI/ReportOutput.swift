import ArgumentParser
import HereWeatherCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// How the report command prints: the text report, JSON, a one-line format or waybar JSON.
enum ReportOutput {
    case text(hourly: Bool, daily: Bool)
    case json
    case format(FormatString)
    case waybar(text: FormatString)

    /// Output for programs (no spinner, no prompts drawn over).
    var isForPrograms: Bool {
        if case .text = self { return false }
        return true
    }

    /// Prints the report for `location` as the run's output settings say; a report that
    /// cannot be written ends the run (exit 74). The nowcast is read at `now` (the run's clock).
    func print(location: Location, report: WeatherReport, run: Run, now: Date) throws {
        let context = run.context
        // What has ended by now (alerts) is not shown, however fresh the cached report is.
        let report = report.shown(at: now)
        if case .text(let hourly, let daily) = self {
            let style = TerminalStyle.forOutput(isTerminal: context.terminals.standardOutput, environment: context.environment,
                                                width: context.reportWidth)
            let text = TextReport(location: location, report: report, style: style, output: run.output, now: now)
            try context.output(text.render(hourly: hourly, daily: daily))
        } else if let line = line(location: location, report: report, output: run.output, now: now) {
            try context.output(line)
        }
    }

    /// The one line of `--json`, `--format` or `--waybar` for the report at `now` (its
    /// alerts that have ended left out, its nowcast read then); `nil` for the text report.
    func line(location: Location, report: WeatherReport, output: Configuration.OutputSettings, now: Date) -> String? {
        let report = report.shown(at: now)
        let fields = ReportFields(location: location, report: report, output: output, now: now)
        switch self {
        case .text: return nil
        case .json: return JSONReport.render(location: location, report: report, now: now, locale: output.locale)
        case .format(let format): return format.render(fields)
        case .waybar(let text): return WaybarReport.render(fields, format: text)
        }
    }

    /// The one line that shows `error` in `--json`, `--format` or `--waybar`; `nil` for the
    /// text report.
    func failureLine(_ error: any UserFacingError, output: Configuration.OutputSettings) -> String? {
        switch self {
        case .text: return nil
        case .json: return JSONReport.error(error)
        case .format: return FailureLine.render(error, output: output)
        case .waybar: return WaybarReport.error(error, output: output)
        }
    }

    /// How a failure shows in this output (`FailureStyle`): a status bar never goes blank.
    /// With `--format` the failure line (`FailureLine`, "⚠️ no location") goes to stdout, the
    /// message to stderr, and the exit status is the error's; with `--waybar` the bar gets a
    /// valid line (class `error`) and the exit status is 0. `settings` are the run's output
    /// settings (the defaults for the locale when the config could not be read).
    func failureStyle(_ settings: Configuration.OutputSettings) -> FailureStyle {
        switch self {
        case .text: return .line
        case .json: return .json
        case .format: return .format(settings)
        case .waybar: return .waybar(settings)
        }
    }
}

/// A weather provider that tells the spinner when the fetch starts.
struct AnnouncedWeatherProvider: WeatherProvider {
    let base: any WeatherProvider
    let spinner: Spinner

    var kind: WeatherProviderKind { base.kind }

    func preconnect(units: Units, until deadline: ContinuousClock.Instant) {
        base.preconnect(units: units, until: deadline)
    }

    func checkConfigured() throws {
        try base.checkConfigured()
    }

    func fetch(_ query: WeatherQuery) async throws -> WeatherFetch {
        spinner.update(SpinnerPolicy.weatherMessage(base.kind))
        return try await base.fetch(query)
    }

    func report(fromRecording data: Data, units: Units) throws -> WeatherReport {
        try base.report(fromRecording: data, units: units)
    }
}
