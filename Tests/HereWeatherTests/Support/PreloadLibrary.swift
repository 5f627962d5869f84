import Foundation
import HereWeatherCore
import Synchronization

/// An `LD_PRELOAD` library from a C file in Fixtures (`tls/count-ca-loads.c`,
/// `faults/refuse-sockets.c`), built once per test run with the toolchain's clang (or cc).
enum PreloadLibrary {
    /// The built library's path, by fixture.
    private static let libraries = Mutex<[String: Result<String, any Error>]>([:])

    /// The library built from `fixture`; the first call builds it, on a thread of its own (the
    /// compiler takes seconds, which must not hold one of the few cooperative threads).
    static func built(_ fixture: String) async throws -> String {
        try await BlockingCall.run {
            libraries.withLock { built in
                if let library = built[fixture] { return library }
                let library = Result { try build(fixture) }
                built[fixture] = library
                return library
            }
        }
    }

    private static func build(_ fixture: String) throws -> String {
        let name = URL(fileURLWithPath: fixture).deletingPathExtension().lastPathComponent
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("here-weather-\(name)-\(getpid()).so").path
        let compilers = ProcessInfo.processInfo.environment["PATH", default: ""].split(separator: ":").map { "\($0)/clang" }
            + ["/usr/bin/cc", "/usr/bin/clang"]
        guard let compiler = compilers.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw CocoaError(.executableNotLoadable, userInfo: [NSLocalizedDescriptionKey: "no C compiler (clang or cc) to build \(fixture)"])
        }
        let run = try ChildProcess.run([compiler, "-shared", "-fPIC", "-O1", "-o", output, Fixtures.url(fixture).path, "-ldl"],
                                       environment: ProcessInfo.processInfo.environment, mergingErrors: true)
        guard run.termination == .exited(0) else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(compiler) could not build \(fixture): \(run.stdoutText)"])
        }
        return output
    }
}
