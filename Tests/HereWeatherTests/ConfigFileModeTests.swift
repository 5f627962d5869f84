import Foundation
import Testing
@testable import HereWeatherCore

/// A config file that holds a key or token and that other users can read draws one warning
/// line with the `chmod` that fixes it; a private file, or one without a secret, draws none.
@Suite struct ConfigFileModeTests {
    static let withKey = "version = 1\n[weather.openweathermap]\napi_key = \"0123456789abcdef\"\n"

    func file(_ text: String, mode: Int, name: String = "config.toml") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    struct ModeCase: Sendable, CustomTestStringConvertible {
        let text: String
        let mode: Int
        let readers: String?
        var testDescription: String { "mode \(String(mode, radix: 8)), \(readers ?? "no warning")" }
    }

    @Test(arguments: [
        ModeCase(text: withKey, mode: 0o644, readers: "every user"),
        ModeCase(text: withKey, mode: 0o640, readers: "its group"),
        ModeCase(text: withKey, mode: 0o604, readers: "every user"),
        ModeCase(text: withKey, mode: 0o600, readers: nil),
        ModeCase(text: withKey, mode: 0o400, readers: nil),
        ModeCase(text: "version = 1\n[weather.pirateweather]\napi_key = \"k\"\n", mode: 0o644, readers: "every user"),
        ModeCase(text: "version = 1\n[location.ip.ipinfo]\ntoken = \"t\"\n", mode: 0o640, readers: "its group"),
        ModeCase(text: "version = 1\n[location.wifi]\nkey = \"k\"\n", mode: 0o644, readers: "every user"),
        ModeCase(text: "version = 1\n[weather]\nprovider = \"open-meteo\"\n", mode: 0o644, readers: nil),
        ModeCase(text: "version = 1\n[weather.openweathermap]\napi_key = \"\"\n", mode: 0o644, readers: nil),
    ])
    func warnsOnlyForASecretOthersCanRead(_ modeCase: ModeCase) throws {
        let path = try file(modeCase.text, mode: modeCase.mode)
        let warnings = try ConfigurationLoader.load(path: path).warnings
        guard let readers = modeCase.readers else {
            #expect(warnings.isEmpty, "\(warnings)")
            return
        }
        #expect(warnings == ["\(path) holds an API key or token and is readable by \(readers) (mode 0\(String(modeCase.mode, radix: 8))); run `chmod 600 \(path)`"])
    }

    @Test func aPathThatNeedsQuotingIsQuotedForTheShell() throws {
        let path = try file(Self.withKey, mode: 0o644, name: "my config's.toml")
        let warning = try #require(try ConfigurationLoader.load(path: path).warnings.first)
        #expect(warning.hasSuffix("run `chmod 600 '\(path.replacing("'", with: "'\\''"))'`"))
    }

    @Test func theCommandPrintsOneLineAndThenNothingOnceFixed() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.withKey)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: runner.configPath)
        let exposed = try await runner.run(["where", "--lat", "27.95", "--lon", "-82.46"])
        #expect(exposed.status == 0)
        #expect(exposed.stderr == "here-weather: warning: \(runner.configPath) holds an API key or token and is readable by every user (mode 0644); run `chmod 600 \(runner.configPath)`\n")
        #expect(!exposed.stderr.contains("0123456789abcdef"))

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: runner.configPath)
        let fixed = try await runner.run(["where", "--lat", "27.95", "--lon", "-82.46"])
        #expect(fixed.status == 0)
        #expect(fixed.stderr.isEmpty, "\(fixed.stderr)")
    }
}
