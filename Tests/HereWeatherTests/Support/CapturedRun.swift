import Foundation
import HereWeatherCore

/// A program run to its end from the repository root with stdout and stderr together: for the
/// tools whose whole output a test reads (make, dpkg, ldd, mandoc, groff, scripts/).
struct CapturedRun: Sendable {
    var status: Int32
    var text: String

    /// Runs `executable` (a path, or a name looked up in PATH through /usr/bin/env) with only
    /// `environment`, stdin from /dev/null, on a thread of its own: some take minutes, and must
    /// not hold one of the cooperative threads the other tests run on.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]) async throws -> CapturedRun {
        try await BlockingCall.run { Result { try blocking(executable, arguments, environment: environment) } }
    }

    /// The same, waiting on the calling thread.
    static func blocking(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> CapturedRun {
        let command = executable.hasPrefix("/") ? [executable] + arguments : ["/usr/bin/env", executable] + arguments
        let run = try ChildProcess.run(command, environment: environment, directory: Fixtures.root.path, mergingErrors: true)
        return CapturedRun(status: run.termination.code, text: run.stdoutText)
    }
}
