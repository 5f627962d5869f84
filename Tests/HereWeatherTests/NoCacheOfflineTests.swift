import Foundation
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore

/// `--no-cache` asks for a fresh answer: when the service cannot give one, the cached report
/// (still within its lifetime) is shown marked as not refreshed, stale in every output form
/// with the failure in one warning line, or, with `--no-stale`, the run fails. Never unmarked.
@Suite struct NoCacheOfflineTests {
    /// The cache tests' config, with the longest weather timeout: on a `TestClock` the deadline
    /// counts from the clock's frozen start, the transfer on real time.
    static func config(_ baseURL: String) -> String {
        CacheCommandTests().config(baseURL: baseURL, ttl: 3600).replacing("timeout = 30", with: "timeout = 300")
    }

    @Test func aFreshEntryShownInPlaceOfAFailedRefreshIsMarked() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": CacheCommandTests.forecast])
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let runner = try InProcessCommand()
        let clock = TestClock()
        let assembly = SystemAssembly.test(.test(clock: clock))
        try runner.writeConfig(Self.config(server.baseURL))
        #expect(try await runner.run(["--json"], assembly: assembly).status == 0)
        clock.advance(3 * 60)
        try runner.writeConfig(Self.config("http://127.0.0.1:\(closed.port)"))

        let text = try await runner.run(["--no-cache"], assembly: assembly)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("offline: from 3 min ago"), "\(text.stdout)")
        let warnings = text.stderr.split(separator: "\n")
        #expect(warnings.count == 1, "\(text.stderr)")
        #expect(warnings.first?.hasPrefix("here-weather: warning: not refreshed, showing the report from 3 min ago: Cannot reach Open-Meteo: connection refused by 127.0.0.1:\(closed.port)") == true,
                "\(text.stderr)")
        let json = try await runner.run(["--no-cache", "--json"], assembly: assembly)
        let weather = try #require(json.json?["weather"] as? [String: Any])
        #expect(weather["stale"] as? Bool == true && weather["cached"] as? Bool == true)
        let format = try await runner.run(["--no-cache", "--format", "%t %O"], assembly: assembly)
        #expect(format.stdout == "26.8°C (offline 3 min)\n")
        let waybar = try await runner.run(["--no-cache", "--waybar"], assembly: assembly)
        #expect(waybar.json?["class"] as? [String] == ["clear", "stale"])

        let strict = try await runner.run(["--no-cache", "--no-stale"], assembly: assembly)
        #expect(strict.status == 69, "\(strict.stderr)")
        #expect(strict.stdout.isEmpty)
        #expect(server.requests.count == 1)
    }
}
