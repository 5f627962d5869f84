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

/// Writing to the run's streams (`CommandContext.current`).
///
/// Every write to stdout goes through `output`, which checks it: a report that cannot be
/// written (a full disk, `> /dev/full`, a closed stdout) ends the run with exit 74 and one
/// line on stderr, never exit 0 with nothing printed. Every line to stderr goes through
/// `standardError`, which keeps it one line whatever text it echoes.
enum Terminal {
    /// Puts /dev/null on stdin, stdout or stderr where the program was started with one closed,
    /// before anything else opens a file: the kernel hands out the lowest free number, so a
    /// cache or lock file would otherwise become "stdout" and receive the report. Returns the
    /// descriptors that were closed (a closed stdout must stay one for the report's write).
    static func reserveStandardStreams() -> [Int32] {
        var closed: [Int32] = []
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", O_RDWR)
            if opened >= 0, opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
            closed.append(descriptor)
        }
        return closed
    }

    /// Writes `text` and `terminator` to stdout, all of it. When it cannot, reports an
    /// `OutputWriteError` on stderr and throws its exit (74).
    static func output(_ text: String, terminator: String = "\n") throws {
        guard let reason = CommandContext.current.standardOutput.write(text + terminator) else { return }
        throw fail(OutputWriteError(reason: reason), json: false)
    }

    /// Prints the text of a clean exit (help, the version, a completion script) on stdout in
    /// the locale's characters (`TextCharset.locale`: "°C" is "C" under `LANG=C`) and returns
    /// the exit status: 0, or 74 when stdout cannot take it.
    static func finish(output text: String) -> Int32 {
        guard !text.isEmpty else { return ExitStatus.ok.rawValue }
        do { try output(TextCharset.locale(CommandContext.current.environment).fold(text)) } catch { return (error as? ExitCode)?.rawValue ?? ExitStatus.ioError.rawValue }
        return ExitStatus.ok.rawValue
    }

    /// Writes each warning (a bare message from Core) to stderr as one line in the one
    /// warning style: `here-weather: warning: ...` (`WarningStyle`).
    static func warn(_ warnings: [String]) {
        for warning in warnings { standardError(WarningStyle.line(warning)) }
    }

    /// `--verbose`: when the location was had, the receiver's own time, and the note when the
    /// receiver's clock disagrees with this machine's (`LocationReport.verboseLines`).
    static func verboseLocationTime(_ location: Location, now: Date = Date()) {
        for line in LocationReport.verboseLines(location, now: now) { standardError(line) }
    }

    /// Writes `line` to stderr as one line: control characters in any text it echoes (a city
    /// name, a path, a config value) become spaces (`ServiceText.printable`), so no text can
    /// break the line or drive the terminal. In a locale that is not UTF-8 the line is ASCII
    /// (`TextCharset.fold`).
    static func standardError(_ line: String) {
        let context = CommandContext.current
        standardError(line, to: context.standardError, charset: TextCharset.locale(context.environment))
    }

    /// `standardError(_:)` to a given sink, for code that runs outside the run's tasks.
    static func standardError(_ line: String, to sink: any OutputSink, charset: TextCharset = .utf8) {
        _ = sink.write(charset.fold(ServiceText.printable(line)) + "\n")
    }

    /// Where a spinner draws: the run's stderr sink, captured now (the spinner redraws from a
    /// task of its own, outside the run's task-local context).
    static func spinnerOutput() -> @Sendable (String) -> Void {
        let sink = CommandContext.current.standardError
        return { _ = sink.write($0) }
    }

    /// Reports `error` (JSON on stdout too when asked, unless stdout is what failed) and
    /// returns the exit to throw.
    static func fail(_ error: any UserFacingError, json: Bool) -> ExitCode {
        if json && !(error is OutputWriteError) { self.json(error: error) }
        standardError("here-weather: " + error.message)
        return ExitCode(error.exitStatus.rawValue)
    }

    /// Writes `error` to stdout as `{"error":{...}}` (`JSONReport.error`), for `--json`.
    static func json(error: any UserFacingError) {
        // The run already fails with the error's status: a JSON copy that cannot be written
        // (a closed or full stdout) changes nothing, and the error stays the one line.
        _ = CommandContext.current.standardOutput.write(JSONReport.error(error) + "\n")
    }
}

/// The report (or other output) could not be written to stdout: exit 74 (EX_IOERR).
struct OutputWriteError: UserFacingError {
    /// Why, as the system says it: "No space left on device".
    let reason: String

    var message: String {
        "Cannot write the output: \(reason). Check where standard output goes (a full disk, a closed file or pipe)."
    }

    var exitStatus: ExitStatus { .ioError }
}
