import Foundation
import Testing
@testable import HereWeatherCore

/// A misspelt key or table in the config file, the system policy or the decisions file: one
/// warning line with the file, the line and the valid key it most likely meant, through the
/// release binary as users see it.
@Suite struct ConfigKeyTypoTests {
    static let path = "/home/u/.config/here-weather/config.toml"

    func warnings(_ text: String) throws -> [String] {
        try ConfigurationLoader.parse(text, path: Self.path).1
    }

    @Test func aMisspeltKeyNamesItsLineAndTheKeyMeant() throws {
        let text = """
        version = 1
        [location]
        soruces = ["fixed"]
        """
        #expect(try warnings(text) == [
            "unknown key location.soruces at \(Self.path):3 (ignored); did you mean 'location.sources'?",
        ])
    }

    @Test(arguments: [
        ("[locaton]\nenabled = true\n", "unknown key locaton at \(path):1 (ignored); did you mean 'location'?"),
        ("[weather.open-meteoo]\nbase_url = \"https://x.example\"\n",
         "unknown key weather.open-meteoo at \(path):1 (ignored); did you mean 'weather.open-meteo'?"),
        ("\n\n[weather]\nprovider = \"metno\"\n[weather.metno]\ncontakt = \"x\"\n",
         "unknown key weather.metno.contakt at \(path):6 (ignored); did you mean 'weather.metno.contact'?"),
        ("[location.ip.ipinfo]\ntokn = \"x\"\n",
         "unknown key location.ip.ipinfo.tokn at \(path):2 (ignored); did you mean 'location.ip.ipinfo.token'?"),
        // A dotted key names its table where it is written.
        ("[location]\nfixd.latitude = 1\n", "unknown key location.fixd at \(path):2 (ignored); did you mean 'location.fixed'?"),
        // Keys are case-sensitive: the right word in the wrong case is still suggested.
        ("[output]\nIcons = \"ascii\"\n", "unknown key output.Icons at \(path):2 (ignored); did you mean 'output.icons'?"),
        // Nothing near: no suggestion.
        ("[cache]\ncolour = \"blue\"\n", "unknown key cache.colour at \(path):2 (ignored)"),
    ])
    func misspeltTablesAndKeys(_ text: String, _ expected: String) throws {
        #expect(try warnings(text) == [expected])
    }

    @Test func warningsComeInTheOrderOfTheFile() throws {
        // A misspelt table at the top level comes after the keys above it in nested tables.
        #expect(try warnings("[location]\nsoruces = []\n[locaton]\n[weather]\ncolour = 1\n") == [
            "unknown key location.soruces at \(Self.path):2 (ignored); did you mean 'location.sources'?",
            "unknown key locaton at \(Self.path):3 (ignored); did you mean 'location'?",
            "unknown key weather.colour at \(Self.path):5 (ignored)",
        ])
    }

    @Test func onlyTheKeysOfTheSameTableAreSuggested() throws {
        // `port` is a key of [location.gpsd], not of [location]: no suggestion that would not load.
        #expect(try warnings("[location]\nport = 2947\n") == ["unknown key location.port at \(Self.path):2 (ignored)"])
        // ipinfo alone takes a token.
        #expect(try warnings("[location.ip.ipapi]\ntoken = \"x\"\n") == ["unknown key location.ip.ipapi.token at \(Self.path):2 (ignored)"])
    }

    @Test func everyKeyTheLoaderReadsLoadsWithoutWarnings() throws {
        let text = String(decoding: Fixtures.data("config/every-key.toml"), as: UTF8.self)
        #expect(try warnings(text).isEmpty)
    }

    @Test func theParserKeepsTheLineAndColumnOfEveryKey() throws {
        let members = try ConfigNode.parse("a = 1\r\n  [t]\nx.y = 2\n\"é\" = { k = 3 }\n[[arr]]\nz = 4\n")
        func position(_ members: [ConfigMember], _ key: String) -> TOMLPosition? {
            members.first { $0.key == key }?.position
        }
        #expect(position(members, "a") == TOMLPosition(line: 1, column: 1))
        #expect(position(members, "t") == TOMLPosition(line: 2, column: 4))
        #expect(position(members, "arr") == TOMLPosition(line: 5, column: 3))
        guard case .table(let t)? = members.first(where: { $0.key == "t" })?.value,
              case .table(let x)? = t.first(where: { $0.key == "x" })?.value,
              case .table(let inline)? = t.first(where: { $0.key == "é" })?.value else {
            Issue.record("tables missing")
            return
        }
        #expect(position(t, "x") == TOMLPosition(line: 3, column: 1))
        #expect(position(x, "y") == TOMLPosition(line: 3, column: 3))
        #expect(position(t, "é") == TOMLPosition(line: 4, column: 1))
        #expect(position(inline, "k") == TOMLPosition(line: 4, column: 9))
    }

    @Test func manyKeysOnOneLongLineParseInLinearTime() throws {
        // 20,000 keys in one inline table on one line (about 200 KB): counting each key's
        // column from the start of its line would be quadratic; the parser must not hang.
        let keys = (0..<20_000).map { "k\($0) = \($0)" }.joined(separator: ", ")
        let members = try ConfigNode.parse("t = { \(keys) }\n")
        guard case .table(let table)? = members.first?.value else {
            Issue.record("no table")
            return
        }
        #expect(table.count == 20_000)
        #expect(table.last?.position.line == 1)
        #expect(table.last?.position.column == 1 + "t = { ".count + keys.count - "k19999 = 19999".count)
    }

    // MARK: The other files that use the same machinery

    @Test func systemPolicyTyposNameTheLineAndTheKeyMeant() throws {
        let policy = try SystemPolicy.parse("[location]\n[location.gpds]\npermission = \"restricted\"\n", path: "/etc/p.toml")
        #expect(policy.warnings == [
            "unknown key location.gpds in the system policy /etc/p.toml:2 (ignored); did you mean 'location.gpsd'?",
        ])
    }

    @Test func decisionsFileTyposNameTheLineAndTheSourceMeant() {
        let store = PermissionStore(path: "/s/permissions.toml")
        let loaded = store.parse("version = 1\n\n[decisions]\ngspd = \"allow\"\nip = \"deny\"\n")
        #expect(loaded.decisions == [.ip: .deny])
        #expect(loaded.warnings == ["unknown key decisions.gspd at /s/permissions.toml:4 (ignored); did you mean 'decisions.gpsd'?"])
        let table = store.parse("[decision]\ngpsd = \"allow\"\n")
        #expect(table.warnings == ["unknown key decision at /s/permissions.toml:1 (ignored); did you mean 'decisions'?"])
    }

    // MARK: The binary

    @Test func theBinaryPrintsOneWarningLineInTheOneStyle() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("""
        version = 1
        [location]
        soruces = ["fixed"]
        [weather.open-meteoo]
        base_url = "https://example.org"
        """)
        let result = try await runner.run(["where", "--lat", "-37.81", "--lon", "144.96", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == """
            here-weather: warning: unknown key location.soruces at \(runner.configPath):3 (ignored); did you mean 'location.sources'?
            here-weather: warning: unknown key weather.open-meteoo at \(runner.configPath):4 (ignored); did you mean 'weather.open-meteo'?

            """)
    }

    @Test func policyAndDecisionsWarningsThroughTheBinary() async throws {
        let runner = try InProcessCommand()
        let state = runner.home.path + "/state"
        let policy = runner.home.path + "/policy.toml"
        try "[location.gpds]\npermission = \"restricted\"\n".write(toFile: policy, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: state + "/here-weather", withIntermediateDirectories: true)
        let store = state + "/here-weather/permissions.toml"
        try "version = 1\n[decisions]\nwfi = \"allow\"\n".write(toFile: store, atomically: true, encoding: .utf8)
        let result = try await runner.run(["permissions"], environment: ["XDG_STATE_HOME": state, SystemPolicy.pathVariable: policy],
                                          asRoot: true)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains("here-weather: warning: unknown key location.gpds in the system policy \(policy):1 (ignored); did you mean 'location.gpsd'?"))
        #expect(lines.contains("here-weather: warning: unknown key decisions.wfi at \(store):3 (ignored); did you mean 'decisions.wifi'?"))
        #expect(lines.allSatisfy { $0.hasPrefix("here-weather: warning: ") }, "\(lines)")
    }
}
