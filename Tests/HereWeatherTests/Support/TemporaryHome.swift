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
    ///
    /// A config that says nothing of the NWS alerts gets `[alerts] nws = false`: most tests
    /// report Tampa, a US point, and would otherwise ask api.weather.gov for its alerts, which
    /// a test must never do (on a machine with internet, real alerts would reach the output).
    /// The warnings outside the US (`metno`, `dwd`, `meteoalarm`) likewise, for points in Europe
    /// (a report, and `doctor`, would ask api.met.no, maps.dwd.de or MeteoAlarm).
    /// Tests of the alerts configure `[alerts]` or `[weather.nws] base_url` themselves. Likewise
    /// the air quality (every provider, every point): a config that does not name
    /// `[air_quality]` gets `enabled = false`; its tests configure it themselves.
    func writeConfig(_ text: String) throws {
        let url = URL(fileURLWithPath: configPath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.withoutRealAlerts(text).write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }

    /// `text` with `[alerts] nws = false` added when it names neither `[alerts]` nor
    /// `[weather.nws]`, and the regional switches off when it names no `[alerts]` table (see
    /// `writeConfig`); an empty file stays empty.
    static func withoutRealAlerts(_ text: String) -> String {
        if text.isEmpty { return text }
        var result = text
        if !text.contains("[alerts]") {
            var switches: [String] = []
            if !text.contains("[weather.nws]") { switches.append("nws = false") }
            // The warnings outside the US (MET Norway, DWD, MeteoAlarm), unless a table of theirs is there.
            if !text.contains("[alerts.") { switches += ["metno = false", "dwd = false", "meteoalarm = false"] }
            if !switches.isEmpty {
                result += (result.hasSuffix("\n") ? "" : "\n") + "[alerts]\n" + switches.joined(separator: "\n") + "\n"
            }
        }
        if !text.contains("[air_quality]") {
            result += (result.hasSuffix("\n") ? "" : "\n") + "[air_quality]\nenabled = false\n"
        }
        return result
    }
}
