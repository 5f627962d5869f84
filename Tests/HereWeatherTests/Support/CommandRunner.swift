import Foundation
import HereWeatherCore

/// Runs the built `here-weather` binary as a user would: a temporary HOME and XDG
/// folders, no inherited config, stdin from /dev/null, stdout and stderr captured.
struct CommandRunner {
    struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// A fresh home folder with empty XDG directories under it.
    let home: URL

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("here-weather-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    /// The binary beside the test bundle in the build folder.
    static let executable: URL = {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("here-weather")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        fatalError("here-weather binary not found near \(testBinary.path): run `swift build` first")
    }()

    var configPath: String { home.appendingPathComponent(".config/here-weather/config.toml").path }

    /// Writes `text` as the user's config file.
    func writeConfig(_ text: String) throws {
        let url = URL(fileURLWithPath: configPath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// Runs the binary with `arguments` and extra `environment` values.
    ///
    /// The child is waited for on a thread of its own: hundreds of these run in parallel, and
    /// blocking waits on the few cooperative threads would stall the tests whose point is a
    /// deadline.
    func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> Result {
        try await BlockingCall.run { Swift.Result { try runBlocking(arguments, environment: extra) } }
    }

    private func runBlocking(_ arguments: [String], environment extra: [String: String]) throws -> Result {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        var environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}

extension CommandRunner.Result {
    /// stdout parsed as a JSON object.
    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
    }
}
