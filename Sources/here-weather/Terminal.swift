import ArgumentParser
import HereWeatherCore
#if canImport(Glibc)
import Glibc
#endif

/// Writing to the terminal's streams.
enum Terminal {
    /// Writes `lines` to stderr.
    static func warn(_ lines: [String]) {
        for line in lines { standardError(line) }
    }

    static func standardError(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            guard result > 0 else { return }
            written += result
        }
    }

    /// Reports `error` (JSON on stdout too when asked) and returns the exit to throw.
    static func fail(_ error: any UserFacingError, json: Bool) -> ExitCode {
        if json { print(JSONReport.error(error)) }
        standardError("here-weather: " + error.message)
        return ExitCode(error.exitStatus.rawValue)
    }
}
