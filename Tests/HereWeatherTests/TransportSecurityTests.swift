import Foundation
import Testing
@testable import HereWeatherCore
#if canImport(Glibc)
import Glibc
#endif

/// One rule for every web service: https, or plain http to loopback, or plain http where the
/// service's own table says `allow_plain_http = true`; refused before any request is made.
@Suite struct TransportSecurityTests {
    @Test(arguments: [
        ("https://api.open-meteo.com", false, true),
        ("HTTPS://api.met.no", false, true),
        ("http://api.open-meteo.com", false, false),
        ("http://api.open-meteo.com", true, true),
        ("http://127.0.0.1:8080", false, true),
        ("http://127.5.6.7", false, true),
        ("http://localhost:8080/x", false, true),
        ("http://[::1]:8080", false, true),
        ("http://user@127.0.0.1.evil.example", false, false),
        ("http://10.0.0.1", false, false),
        ("ftp://127.0.0.1", true, false),
    ])
    func theRule(url: String, allowPlainHTTP: Bool, permitted: Bool) {
        #expect(TransportSecurity.permits(url, allowPlainHTTP: allowPlainHTTP) == permitted)
    }

    @Test func everyWeatherTableReadsAllowPlainHTTP() throws {
        let text = ["open-meteo", "openweathermap", "metno", "pirateweather"]
            .map { "[weather.\($0)]\nallow_plain_http = true" }.joined(separator: "\n")
        let (config, warnings) = try ConfigurationLoader.parse("version = 1\n" + text, path: "c.toml")
        #expect(warnings.isEmpty)
        #expect(config.weather.openMeteo.allowPlainHTTP && config.weather.openWeatherMap.allowPlainHTTP)
        #expect(config.weather.metNorway.allowPlainHTTP && config.weather.pirateWeather.allowPlainHTTP)
        #expect(!Configuration().weather.openMeteo.allowPlainHTTP, "off by default")
        #expect(ConfigurationText.effective(config, environment: [:]).components(separatedBy: "allow_plain_http = true").count == 5)
    }

    /// A web service configured with a plain-http URL to this machine's non-loopback address.
    struct PlainHTTPCase: Sendable, CustomTestStringConvertible {
        let name: String
        let provider: String
        let table: String
        let key: String
        var settings = ""
        /// `--city` runs ask the geocoder (with `where`, no weather); others the weather service.
        var city = false
        var testDescription: String { name }
    }

    static let cases = [
        PlainHTTPCase(name: "Open-Meteo", provider: "open-meteo", table: "weather.open-meteo", key: "base_url"),
        PlainHTTPCase(name: "Open-Meteo geocoding", provider: "open-meteo", table: "weather.open-meteo",
                      key: "geocoding_url", city: true),
        PlainHTTPCase(name: "OpenWeatherMap", provider: "openweathermap", table: "weather.openweathermap",
                      key: "base_url", settings: "api_key = \"k\""),
        PlainHTTPCase(name: "One Call", provider: "openweathermap", table: "weather.openweathermap",
                      key: "base_url", settings: "api_key = \"k\"\napi = \"onecall\""),
        PlainHTTPCase(name: "OpenWeatherMap geocoding", provider: "openweathermap", table: "weather.openweathermap",
                      key: "base_url", settings: "api_key = \"k\"", city: true),
        PlainHTTPCase(name: "MET Norway", provider: "metno", table: "weather.metno", key: "base_url",
                      settings: "contact = \"ops@example.org\""),
        PlainHTTPCase(name: "Pirate Weather", provider: "pirateweather", table: "weather.pirateweather",
                      key: "base_url", settings: "api_key = \"k\""),
    ]

    @Test(arguments: cases)
    func plainHTTPToARemoteHostIsRefusedBeforeAnyRequest(_ service: PlainHTTPCase) async throws {
        let host = try #require(Self.nonLoopbackHost(), "this machine has a network address besides loopback")
        let server = try FixtureServer.onEveryInterface { request in
            request.target.hasPrefix("/ipinfo") ? .fixture("ip/ipinfo/success.json") : .notFound
        }
        defer { server.stop() }
        let runner = try InProcessCommand()
        func config(allow: Bool) -> String {
            """
            \(ProviderSetup.ipLocation(server.baseURL))
            [weather]
            provider = "\(service.provider)"
            timeout = 10
            [\(service.table)]
            \(service.key) = "http://\(host):\(server.port)"
            \(service.settings)
            \(allow ? "allow_plain_http = true" : "")
            """
        }
        let arguments = service.city ? ["where", "--city", "Tampa"] : []
        try runner.writeConfig(config(allow: false))
        let refused = try await runner.run(arguments)
        #expect(refused.status == 78, "\(refused.stderr)")
        #expect(refused.stderr.contains("\(service.table).\(service.key) is plain http to a remote host"), "\(refused.stderr)")
        #expect(refused.stderr.contains("allow_plain_http = true under [\(service.table)]"))
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(server.requests.isEmpty, "nothing sent, not even the IP lookup: \(server.requests)")

        // The same URL, allowed: the requests do reach the server, so the refusal above is the rule's.
        try runner.writeConfig(config(allow: true))
        let allowed = try await runner.run(arguments)
        #expect(!allowed.stderr.contains("plain http"), "\(allowed.stderr)")
        #expect(server.requests.contains { !$0.hasPrefix("/ipinfo") }, "\(server.requests)")
    }

    /// An IPv4 address of this machine that is not loopback, else its host name (which the
    /// rule treats as remote, whatever it resolves to).
    /// The text of a C buffer up to its first NUL.
    static func string(fromNulTerminated buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func nonLoopbackHost() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        if getifaddrs(&list) == 0, let first = list {
            defer { freeifaddrs(list) }
            var entry: UnsafeMutablePointer<ifaddrs>? = first
            while let current = entry {
                defer { entry = current.pointee.ifa_next }
                guard let address = current.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                      current.pointee.ifa_flags & UInt32(IFF_LOOPBACK) == 0,
                      current.pointee.ifa_flags & UInt32(IFF_UP) != 0 else { continue }
                var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
                let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                var raw = ipv4
                guard inet_ntop(AF_INET, &raw, &text, socklen_t(text.count)) != nil else { continue }
                return Self.string(fromNulTerminated: text)
            }
        }
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count) == 0 else { return nil }
        let host = Self.string(fromNulTerminated: name)
        return host.isEmpty || host == "localhost" ? nil : host
    }
}
