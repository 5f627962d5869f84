import ArgumentParser
import HereWeatherCore

/// How a command shows a failure: the one place that maps a `UserFacingError` to what the
/// user sees and to the exit status (`CommandContext.fail`).
enum FailureStyle {
    /// One line on stderr, `here-weather: <message>`; the error's exit status.
    case line
    /// `--json`: `{"error":{...}}` on stdout too.
    case json
    /// `--format`: the failure line (`FailureLine`, "⚠️ no location") on stdout, so a status
    /// bar never goes blank; the error's exit status.
    case format(Configuration.OutputSettings)
    /// `--waybar`: a valid line (class `error`) on stdout and exit 0, because waybar hides a
    /// custom module whose command exits non-zero.
    case waybar(Configuration.OutputSettings)
    /// `doctor`: a failed `config` check (text or `--json`), with the error's exit status.
    case doctorCheck(json: Bool)
}

extension CommandContext {
    /// Reports `error` as `style` says and returns the exit to throw. The progress line, if
    /// one runs, ends first. The message always goes to stderr (waybar logs it); a line
    /// that cannot be written to stdout is exit 74.
    func fail(_ error: any UserFacingError, as style: FailureStyle = .line) -> ExitCode {
        console.endProgress()
        let line: String
        switch style {
        case .line:
            return failureLine(error)
        case .json:
            if !(error is OutputWriteError) { json(error: error) }
            return failureLine(error)
        case .format(let settings):
            line = FailureLine.render(error, output: settings)
        case .waybar(let settings):
            line = WaybarReport.error(error, output: settings)
        case .doctorCheck(let json):
            let checks = [Doctor.Check(name: "config", status: .fail, detail: error.message)]
            let charset = TextCharset.choose(environment: environment, icons: .emoji)
            line = json ? Doctor.json(checks) : Doctor.render(checks, width: reportWidth, charset: charset)
        }
        do {
            try output(line)
        } catch {
            return error as? ExitCode ?? ExitCode(ExitStatus.ioError.rawValue)
        }
        switch style {
        case .waybar:
            console.line("here-weather: " + error.message)
            return .success
        case .doctorCheck:
            return ExitCode(error.exitStatus.rawValue)
        default:
            return failureLine(error)
        }
    }

    /// Writes `error` on stderr and returns its exit status.
    private func failureLine(_ error: any UserFacingError) -> ExitCode {
        console.line("here-weather: " + error.message)
        return ExitCode(error.exitStatus.rawValue)
    }
}
