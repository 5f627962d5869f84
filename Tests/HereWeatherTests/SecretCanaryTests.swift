import Foundation
import Testing

/// The configuration error paths, run with canary secrets in the config: none may appear on
/// stdout, stderr (with `--verbose` too) or in any file under the cache and state folders.
/// (Every HTTP error path is run with the same canaries by `HTTPFaultTests`.)
@Suite struct SecretCanaryTests {
    static let owm = FaultTarget.canaries.openWeatherMap
    static let pirate = FaultTarget.canaries.pirateWeather
    static let token = FaultTarget.canaries.ipinfo

    struct ErrorPath: Sendable, CustomTestStringConvertible {
        let name: String
        /// The config, given the server's base URL.
        let config: @Sendable (String) -> String
        let arguments: [String]
        let status: Int32
        /// What the server answers every request with.
        var fault: HTTPFault = .status500
        var testDescription: String { name }
    }

    /// A config with every secret set to its canary (unless left out), the IP source
    /// permitted, and the weather services at `base`.
    static func config(_ base: String, provider: String, owmKey: String? = "\"\(owm)\"",
                       pirateKey: String? = "\"\(pirate)\"", extra: String = "") -> String {
        """
        \(ProviderSetup.ipLocation(base))
        token = "\(token)"
        [weather]
        provider = "\(provider)"
        timeout = 5
        [weather.open-meteo]
        base_url = "\(base)"
        geocoding_url = "\(base)"
        [weather.openweathermap]
        base_url = "\(base)"
        \(owmKey.map { "api_key = \($0)" } ?? "")
        [weather.pirateweather]
        base_url = "\(base)"
        \(pirateKey.map { "api_key = \($0)" } ?? "")
        \(extra)
        """
    }

    static let paths: [ErrorPath] = [
        ErrorPath(name: "missing OpenWeatherMap key", config: { config($0, provider: "openweathermap", owmKey: nil) },
                  arguments: ["--verbose"], status: 78),
        ErrorPath(name: "missing Pirate Weather key", config: { config($0, provider: "pirateweather", pirateKey: nil) },
                  arguments: ["--verbose", "--json"], status: 78),
        ErrorPath(name: "key that is not valid TOML", config: { config($0, provider: "openweathermap", owmKey: owm) },
                  arguments: ["--verbose"], status: 78),
        ErrorPath(name: "key of the wrong type", config: { config($0, provider: "openweathermap", owmKey: "[\"\(owm)\"]") },
                  arguments: ["--verbose"], status: 78),
        ErrorPath(name: "IP lookup error echoing the token", config: { config($0, provider: "openweathermap") },
                  arguments: ["--verbose", "--json"], status: 75),
        ErrorPath(name: "rejected key in --city", config: { config($0, provider: "openweathermap") },
                  arguments: ["--verbose", "--city", "Tampa"], status: 78, fault: .unauthorized),
        ErrorPath(name: "geocoding error echoing the key", config: { config($0, provider: "openweathermap") },
                  arguments: ["where", "--verbose", "--city", "Tampa"], status: 69),
        ErrorPath(name: "One Call plan refused", config: { config($0, provider: "openweathermap", extra: "api = \"onecall\"") },
                  arguments: ["--verbose", "--lat", "27.95", "--lon", "-82.46"], status: 78, fault: .unauthorized),
        ErrorPath(name: "plain http to a remote host", config: { _ in config("http://weather.example", provider: "pirateweather") },
                  arguments: ["--verbose", "--lat", "27.95", "--lon", "-82.46"], status: 78),
        ErrorPath(name: "MET Norway without a contact", config: { config($0, provider: "metno") },
                  arguments: ["--verbose", "--waybar"], status: 0),
        ErrorPath(name: "doctor with failing services", config: { config($0, provider: "pirateweather") },
                  arguments: ["doctor", "--verbose"], status: 1),
        ErrorPath(name: "config show", config: { config($0, provider: "openweathermap") },
                  arguments: ["config", "show"], status: 0),
    ]

    @Test(arguments: paths)
    func noCanaryLeaves(_ path: ErrorPath) async throws {
        let fault = path.fault
        let server = try FixtureServer.inspecting { fault.response(to: $0, success: Data("{}".utf8)) }
        let runner = try CommandRunner()
        defer { try? FileManager.default.removeItem(at: runner.home) }
        try runner.writeConfig(path.config(server.baseURL))
        let result = try await runner.run(path.arguments, killAfter: .seconds(90))
        #expect(result.status == path.status, "\(result.stderr)")
        let files = FolderSnapshot(home: runner.home)
        for canary in [Self.owm, Self.pirate, Self.token] {
            #expect(!result.stdout.contains(canary), "stdout: \(result.stdout)")
            #expect(!result.stderr.contains(canary), "stderr: \(result.stderr)")
            #expect(files.files(containing: canary).isEmpty)
        }
    }
}
