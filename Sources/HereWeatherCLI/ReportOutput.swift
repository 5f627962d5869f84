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

    /// Prints the report for `location`; a report that cannot be written ends the run (exit 74).
    /// The nowcast is read at `now` (the run's clock).
    func print(location: Location, report: WeatherReport, output settings: Configuration.OutputSettings,
               environment: [String: String], now: Date = Date()) throws {
        // What has ended by now (alerts) is not shown, however fresh the cached report is.
        let report = report.shown(at: now)
        let fields = ReportFields(location: location, report: report, output: settings, now: now)
        switch self {
        case .text(let hourly, let daily):
            let context = CommandContext.current
            let style = TerminalStyle.forOutput(isTerminal: context.standardOutputIsTerminal, environment: environment,
                                                width: context.reportWidth)
            var text = TextReport(location: location, report: report, style: style, output: settings)
            text.now = now
            try Terminal.output(text.render(hourly: hourly, daily: daily))
        case .json:
            try Terminal.output(JSONReport.render(location: location, report: report, now: now, locale: settings.locale))
        case .format(let format):
            try Terminal.output(format.render(fields))
        case .waybar(let text):
            try Terminal.output(WaybarReport.render(fields, format: text))
        }
    }

    /// Reports `error` and returns the exit to throw. A status bar never goes blank: with
    /// `--format` the failure line (`FailureLine`, "⚠️ no location") goes to stdout, the
    /// message to stderr, and the exit status is the error's; with `--waybar` the bar gets a
    /// valid line (class `error`) and the exit status is 0, because waybar hides a custom
    /// module whose command exits non-zero. The message also goes to stderr, which waybar
    /// logs. A line that cannot be written is exit 74.
    func fail(_ error: any UserFacingError, output settings: Configuration.OutputSettings) -> ExitCode {
        let line: String
        switch self {
        case .text: return Terminal.fail(error, json: false)
        case .json: return Terminal.fail(error, json: true)
        case .format: line = FailureLine.render(error, output: settings)
        case .waybar: line = WaybarReport.error(error, output: settings)
        }
        do {
            try Terminal.output(line)
        } catch {
            return error as? ExitCode ?? ExitCode(ExitStatus.ioError.rawValue)
        }
        guard case .waybar = self else { return Terminal.fail(error, json: false) }
        Terminal.standardError("here-weather: " + error.message)
        return .success
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
