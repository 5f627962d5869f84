/// Every exit status the program uses, in one place (values from BSD `sysexits.h`).
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// The report was printed.
    case ok = 0
    /// The command line was wrong.
    case usage = 64
    /// The weather service could not be reached or did not answer usefully.
    case serviceUnavailable = 69
    /// An input file (e.g. a `--weather-replay` recording) could not be read.
    case noInput = 66
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
        case .usage: return "usage"
        case .serviceUnavailable: return "service_unavailable"
        case .noInput: return "no_input"
        case .cannotCreate: return "cannot_create"
        case .ioError: return "io_error"
        case .noLocation: return "no_location"
        case .notPermitted: return "not_permitted"
        case .configuration: return "configuration"
        }
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
