/// Every exit status the program uses, in one place (values from BSD `sysexits.h`).
///
/// `meaning` is the one line each status is documented with: the "Exit status:" list of
/// `here-weather --help` is `helpList`, and the man page's EXIT STATUS section is generated
/// from that list (scripts/make-manual), so a new case is documented everywhere by adding it here.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// The report was printed.
    case ok = 0
    /// `doctor`: at least one check failed.
    case checkFailed = 1
    /// The command line was wrong.
    case usage = 64
    /// An input file could not be used: a `--weather-replay` recording that is missing,
    /// unreadable, or not weather data of the chosen `--provider`.
    case noInput = 66
    /// The weather service could not be reached or did not answer usefully.
    case serviceUnavailable = 69
    /// The system refused what a run needs to start: threads or descriptors (`StartupLimits`).
    case system = 71
    /// A file could not be written (e.g. `config init` without `--force`).
    case cannotCreate = 73
    /// The output could not be written (a full disk, `> /dev/full`, a closed stdout).
    case ioError = 74
    /// No location could be had.
    case noLocation = 75
    /// Location is off or not permitted.
    case notPermitted = 77
    /// The configuration is wrong (bad file, bad value, missing or rejected API key).
    case configuration = 78

    /// A stable name for scripts, used as `error.code` in JSON output.
    public var code: String {
        switch self {
        case .ok: return "ok"
        case .checkFailed: return "check_failed"
        case .usage: return "usage"
        case .serviceUnavailable: return "service_unavailable"
        case .noInput: return "no_input"
        case .system: return "system"
        case .cannotCreate: return "cannot_create"
        case .ioError: return "io_error"
        case .noLocation: return "no_location"
        case .notPermitted: return "not_permitted"
        case .configuration: return "configuration"
        }
    }

    /// What the status means, in one line of at most 72 characters (the `--help` list and the
    /// man page's EXIT STATUS).
    public var meaning: String {
        switch self {
        case .ok: return "done: the report (or what the command was asked for) was printed"
        case .checkFailed: return "doctor: at least one check failed"
        case .usage: return "bad command line: unknown option or command, bad or conflicting values"
        case .noInput: return "an input file cannot be read (--replay, --weather-replay, --config)"
        case .serviceUnavailable: return "weather or geocoding service unreachable or failing, no cached report"
        case .system: return "the system refused threads or descriptors (ulimit -u, -n, -v)"
        case .cannotCreate: return "a file was not written (config init without --force, a full disk)"
        case .ioError: return "the output could not be written (a full disk, a closed stdout)"
        case .noLocation: return "no location: no fix by the deadline, or no place found for --city"
        case .notPermitted: return "location not permitted: off, denied, restricted, or no terminal to ask"
        case .configuration: return "configuration error: bad file or value, missing or rejected API key"
        }
    }

    /// The "Exit status:" paragraph of `here-weather --help`: a heading, then one line per
    /// status in numeric order, `  <status>  <meaning>`. scripts/make-manual turns exactly this
    /// paragraph into the man page's EXIT STATUS section.
    public static var helpList: String {
        let lines = allCases.sorted { $0.rawValue < $1.rawValue }.map { status in
            let number = String(status.rawValue)
            return "  " + number + String(repeating: " ", count: 4 - number.count) + status.meaning
        }
        return (["Exit status:"] + lines).joined(separator: "\n")
    }
}

/// An error a user reads: one line saying what happened and what to do next.
///
/// Every error that reaches the command line conforms, so the front end needs no knowledge
/// of where it came from. Messages never contain an API key.
public protocol UserFacingError: Error, CustomStringConvertible, Sendable {
    /// The one-line message shown to the user.
    var message: String { get }
    /// The process exit status this error ends the program with.
    var exitStatus: ExitStatus { get }
}

extension UserFacingError {
    public var description: String { message }
}

/// A usage error found after argument parsing (e.g. `--lat` without `--lon`).
public struct UsageError: UserFacingError {
    public let message: String
    public var exitStatus: ExitStatus { .usage }
    public init(_ message: String) { self.message = message }
}
