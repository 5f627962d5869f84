import ArgumentParser
import HereWeatherCore
#if canImport(Glibc)
import Glibc
#endif

/// Writing to the terminal's streams.
///
/// Every write to stdout goes through `output`, which checks it: a report that cannot be
/// written (a full disk, `> /dev/full`, a closed stdout) ends the run with exit 74 and one
/// line on stderr, never exit 0 with nothing printed. Every line to stderr goes through
/// `standardError`, which keeps it one line whatever text it echoes.
enum Terminal {
    /// Whether stdout was closed when the program started (`here-weather >&-`).
    nonisolated(unsafe) private static var standardOutputWasClosed = false

    /// Puts /dev/null on stdin, stdout or stderr where the program was started with one closed,
    /// before anything else opens a file: the kernel hands out the lowest free number, so a
    /// cache or lock file would otherwise become "stdout" and receive the report. A closed
    /// stdout is remembered, and writing the report then fails as it should.
    static func reserveStandardStreams() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", O_RDWR)
            if opened >= 0, opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
            if descriptor == STDOUT_FILENO { standardOutputWasClosed = true }
        }
    }

    /// Writes `text` and `terminator` to stdout, all of it. When it cannot, reports an
    /// `OutputWriteError` on stderr and throws its exit (74).
    static func output(_ text: String, terminator: String = "\n") throws {
        let failure: OutputWriteError
        if standardOutputWasClosed {
            failure = OutputWriteError(reason: "standard output is closed")
        } else if let code = writeAll(STDOUT_FILENO, text + terminator) {
            failure = OutputWriteError(reason: String(cString: strerror(code)))
        } else {
            return
        }
        throw fail(failure, json: false)
    }

    /// Prints the text of a clean exit (help, the version, a completion script) on stdout and
    /// returns the exit status: 0, or 74 when stdout cannot take it.
    static func finish(output text: String) -> Int32 {
        guard !text.isEmpty else { return ExitStatus.ok.rawValue }
        do { try output(text) } catch { return (error as? ExitCode)?.rawValue ?? ExitStatus.ioError.rawValue }
        return ExitStatus.ok.rawValue
    }

    /// Writes each warning (a bare message from Core) to stderr as one line in the one
    /// warning style: `here-weather: warning: ...` (`WarningStyle`).
    static func warn(_ warnings: [String]) {
        for warning in warnings { standardError(WarningStyle.line(warning)) }
    }

    /// Writes `line` to stderr as one line: control characters in any text it echoes (a city
    /// name, a path, a config value) become spaces (`ServiceText.printable`), so no text can
    /// break the line or drive the terminal.
    static func standardError(_ line: String) {
        _ = writeAll(STDERR_FILENO, ServiceText.printable(line) + "\n")
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
        // changes nothing, and the error stays the one line.
        guard !standardOutputWasClosed else { return }
        _ = writeAll(STDOUT_FILENO, JSONReport.error(error) + "\n")
    }

    /// Writes every byte of `text` to `descriptor`; the `errno` of a write that failed, else `nil`.
    private static func writeAll(_ descriptor: Int32, _ text: String) -> Int32? {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return result < 0 ? errno : EIO }
            written += result
        }
        return nil
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
