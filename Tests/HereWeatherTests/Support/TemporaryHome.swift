import Foundation

/// A runner's user: a fresh HOME folder for one test, and the config file under it. Shared by
/// `CommandRunner` (the binary) and `InProcessCommand` (the command in the test process), so
/// the two runners set a test's user up alike.
protocol TemporaryHome {
    /// A fresh home folder with empty XDG directories under it.
    var home: URL { get }
}

extension TemporaryHome {
    /// A new, empty folder to be a test's HOME.
    static func makeHome() throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("here-weather-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return home
    }

    var configPath: String { home.appendingPathComponent(".config/here-weather/config.toml").path }

    /// Writes `text` as the user's config file, readable by its owner only (as `config init`
    /// writes it: a file with a key that others can read draws a warning).
    func writeConfig(_ text: String) throws {
        let url = URL(fileURLWithPath: configPath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }
}
