import Foundation
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore

/// `permissions` and `config` as a new user meets them (issue 35, D28): each alone shows,
/// `permissions show --json` is one object, `permissions allow all` grants every source, and
/// `config show` lists every key, permissions and `remember_days` included.
@Suite struct PermissionsShowTests {
    @Test func permissionsAndConfigAloneShow() async throws {
        let runner = try InProcessCommand()
        let permissions = try await runner.run(["permissions"])
        #expect(permissions.status == 0, "\(permissions.stderr)")
        #expect(permissions.stdout.hasPrefix("Location services: on, by default"), "\(permissions.stdout)")
        let config = try await runner.run(["config"])
        #expect(config.status == 0, "\(config.stderr)")
        #expect(config.stdout.hasPrefix("# \(runner.configPath) (not found: defaults)\nversion = 1\n"), "\(config.stdout)")
        #expect(try await runner.run(["config", "show"]).stdout == config.stdout)
    }

    @Test func permissionsShowJSONIsOneObject() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("[location.ip]\npermission = \"deny\"\n")
        #expect(try await runner.run(["permissions", "allow", "gpsd"]).status == 0)
        let result = try await runner.run(["permissions", "show", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 1)
        let json = try #require(result.json, "\(result.stdout)")
        #expect(json["enabled"] as? Bool == true)
        #expect((json["enabled_from"] as? [String: Any])?["kind"] as? String == "default")
        let sources = try #require(json["sources"] as? [[String: Any]])
        #expect(sources.map { $0["source"] as? String } == LocationSource.allCases.map(\.rawValue))
        let gpsd = try #require(sources.first)
        #expect(gpsd["state"] as? String == "allow")
        #expect((gpsd["from"] as? [String: Any])?["kind"] as? String == "remembered")
        #expect(((gpsd["from"] as? [String: Any])?["path"] as? String)?.hasSuffix("here-weather/permissions.toml") == true)
        let ip = try #require(sources.first { $0["source"] as? String == "ip" })
        #expect(ip["state"] as? String == "deny")
        #expect((ip["from"] as? [String: Any])?["path"] as? String == runner.configPath)
    }

    @Test func allowAllGrantsEverySource() async throws {
        let runner = try InProcessCommand()
        let result = try await runner.run(["permissions", "allow", "all"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == LocationSource.allCases.count, "\(result.stdout)")
        let json = try await runner.run(["permissions", "show", "--json"]).json
        let states = (json?["sources"] as? [[String: Any]])?.map { $0["state"] as? String }
        #expect(states == Array(repeating: "allow", count: LocationSource.allCases.count))
        let mixed = try await runner.run(["permissions", "deny", "all", "gpsd"])
        #expect(mixed.status == 64)
        #expect(mixed.stderr.hasPrefix("here-weather: 'all' names every source: give it alone."), "\(mixed.stderr)")
        let none = try await runner.run(["permissions", "allow"])
        #expect(none.status == 64)
        let help = try await runner.run(["permissions", "allow", "--help"])
        #expect(help.stdout.contains("USAGE: here-weather permissions allow [--config <file>] <source> ..."), "\(help.stdout)")
    }

    /// Every key of `Fixtures/config/every-key.toml` is a line of `config show`, set or not.
    @Test func configShowListsEveryKey() async throws {
        let runner = try InProcessCommand()
        let shown = try await runner.run(["config", "show"])
        #expect(shown.status == 0, "\(shown.stderr)")
        var table = ""
        var keys: Set<String> = []
        for line in shown.stdout.split(separator: "\n").map(String.init) {
            if line.hasPrefix("[") { table = String(line.dropFirst().prefix { $0 != "]" }); continue }
            let text = line.hasPrefix("# ") ? String(line.dropFirst(2)) : line
            guard let key = text.split(separator: " ").first, text.contains(" = ") || text.contains(" not set") else { continue }
            keys.insert(table.isEmpty ? String(key) : table + "." + key)
        }
        let every = try String(contentsOf: Fixtures.url("config/every-key.toml"), encoding: .utf8)
        table = ""
        for line in every.split(separator: "\n").map(String.init) {
            if line.hasPrefix("[") { table = String(line.dropFirst().prefix { $0 != "]" }); continue }
            guard !line.hasPrefix("#"), let key = line.split(separator: " ").first, line.contains(" = ") else { continue }
            let name = table.isEmpty ? String(key) : table + "." + key
            #expect(keys.contains(name), "config show does not list \(name)")
        }
        #expect(keys.contains("location.wifi.remember_days") && keys.contains("location.gpsd.permission"))
    }
}
