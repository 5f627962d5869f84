import Foundation
import HereWeatherCore
import Synchronization

/// Stand-in libgps libraries (`Fixtures/libgps/fake-libgps.c`), for the versions and faults
/// this machine's real libgps cannot show: another soname, a missing function, a socket kept
/// elsewhere. Each variant is built once per test run with the toolchain's clang (or cc).
enum FakeLibGPS {
    /// One build: the soname it carries and the C defines it is built with.
    struct Variant: Hashable, Sendable {
        var soname: String
        var defines: [String] = []
    }

    private static let built = Mutex<[Variant: Result<String, any Error>]>([:])

    /// The path of `variant`'s library, built on first use on a thread of its own.
    static func library(_ variant: Variant) async throws -> String {
        try await BlockingCall.run {
            built.withLock { libraries in
                if let library = libraries[variant] { return library }
                let library = Result { try build(variant) }
                libraries[variant] = library
                return library
            }
        }
    }

    /// A C compiler: the toolchain's clang on PATH, else the system's.
    static var compiler: String? {
        let candidates = ProcessInfo.processInfo.environment["PATH", default: ""].split(separator: ":").map { "\($0)/clang" }
            + ["/usr/bin/cc", "/usr/bin/clang"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func build(_ variant: Variant) throws -> String {
        guard let compiler else {
            throw CocoaError(.executableNotLoadable, userInfo: [NSLocalizedDescriptionKey: "no C compiler (clang or cc)"])
        }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("here-weather-fake-libgps-\(getpid())-\(UInt(bitPattern: variant.hashValue))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent(variant.soname).path
        let run = try ChildProcess.run([compiler, "-shared", "-fPIC", "-O1", "-Wl,-soname,\(variant.soname)", "-o", output]
                                       + variant.defines.map { "-D\($0)" } + [Fixtures.url("libgps/fake-libgps.c").path],
                                       environment: ProcessInfo.processInfo.environment, mergingErrors: true)
        guard run.termination == .exited(0) else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(compiler) could not build a fake libgps: \(run.stdoutText)"])
        }
        return output
    }
}
