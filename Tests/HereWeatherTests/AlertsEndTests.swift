import Foundation
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore

/// Alerts end: one whose end (the NWS's `ends`, else `expires`) has passed is not shown in
/// the text, `%A`, waybar's `alert` class or JSON, whether the service still lists it or it
/// ended while the cached report was still fresh; the text and the tooltip list the 5 most
/// severe, then "and N more"; JSON keeps them all, up to 100.
@Suite struct AlertsEndTests {
    /// 2026-11-28 18:55 UTC: five minutes before the Flood Warning of
    /// Fixtures/weather/nws/alerts-tampa.json ends (14:00 EST).
    static let beforeTheEnd = Date(timeIntervalSince1970: 1_795_892_100)

    static func alert(_ title: String, _ severity: String?, endsIn seconds: Double?) -> WeatherAlert {
        WeatherAlert(title: title, severity: severity, end: seconds.map { beforeTheEnd.addingTimeInterval($0) })
    }

    @Test func endedAlertsGoAndTheRestAreMostSevereFirst() {
        let alerts = [Self.alert("Over", "Extreme", endsIn: -1), Self.alert("Minor one", "Minor", endsIn: 60),
                      Self.alert("No end", nil, endsIn: nil), Self.alert("Severe one", "Severe", endsIn: 3600),
                      Self.alert("Just over", "Severe", endsIn: 0), Self.alert("Extreme one", "extreme", endsIn: 60)]
        #expect(WeatherAlert.inForce(alerts, at: Self.beforeTheEnd).map(\.title)
            == ["Extreme one", "Severe one", "Minor one", "No end"])
        let many = (0..<150).map { Self.alert("A\($0)", "Moderate", endsIn: 60) }
        #expect(WeatherAlert.inForce(many, at: Self.beforeTheEnd).map(\.title) == (0..<100).map { "A\($0)" })
    }

    static func report(alerts: [WeatherAlert]) throws -> WeatherReport {
        var report = try FormatStringTests.report()
        report.alerts = alerts
        return report
    }

    static let eight = (["Minor", "Moderate", "Severe", "Extreme", "Minor", "Severe", "Moderate", "Minor"] as [String]).enumerated()
        .map { alert("\($1) \($0)", $1, endsIn: 3600) }

    @Test func theTextListsTheFiveMostSevereThenHowManyMore() throws {
        let report = try Self.report(alerts: Self.eight).shown(at: Self.beforeTheEnd)
        let text = TextReport(location: FormatStringTests.tampa, report: report, style: TerminalStyle(colour: false, glyphs: false, width: 200))
            .render()
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("Alert: ") }.map { String($0.dropFirst(7).prefix { $0 != " " }) }
            == ["Extreme", "Severe", "Severe", "Moderate", "Moderate"], "\(text)")
        #expect(lines.contains("       and 3 more alerts (--json lists them all)"), "\(text)")
        let fields = ReportFields(location: FormatStringTests.tampa, report: report, now: Self.beforeTheEnd)
        let tooltip = WaybarReport.tooltip(fields)
        #expect(tooltip.components(separatedBy: "⚠️").count - 1 == 6, "\(tooltip)")
        #expect(tooltip.contains("⚠️ and 3 more alerts"))
        let short = try FormatString("%A").render(fields)
        #expect(short == "Extreme 3 +7", "the most severe first")
        let json = JSONReport.render(location: FormatStringTests.tampa, report: report, now: Self.beforeTheEnd)
        #expect(json.components(separatedBy: #"{"title":"#).count - 1 == 8, "JSON keeps them all")
    }

    @Test func oneMoreIsSingular() throws {
        let report = try Self.report(alerts: Array(Self.eight.prefix(6))).shown(at: Self.beforeTheEnd)
        let text = TextReport(location: FormatStringTests.tampa, report: report, style: TerminalStyle(colour: false, glyphs: false, width: 200)).render()
        #expect(text.contains("and 1 more alert (--json lists them all)"), "\(text)")
    }

    // MARK: The command, on a clock pinned next to the Flood Warning's end

    func server() throws -> FixtureServer {
        try FixtureServer(routes: ["/v1/forecast": .fixture("weather/open-meteo/tampa-metric.json"),
                                   "/alerts/active": .fixture("weather/nws/alerts-tampa.json")])
    }

    /// Every output form at the clock's time, from the cache after the first.
    func outputs(_ runner: InProcessCommand, clock: TestClock) async throws
        -> (text: String, format: String, waybar: [String: Any], alerts: [Any]) {
        let assembly = SystemAssembly.test(.test(clock: clock))
        let text = try await runner.run([], environment: ["COLUMNS": "200"], assembly: assembly)
        let format = try await runner.run(["--format", "[%A]"], assembly: assembly)
        let waybar = try await runner.run(["--waybar"], assembly: assembly)
        let json = try await runner.run(["--json"], assembly: assembly)
        #expect(text.status == 0 && format.status == 0 && waybar.status == 0 && json.status == 0, "\(text.stderr)")
        let alerts = try #require((json.json?["weather"] as? [String: Any])?["alerts"] as? [Any])
        return (text.stdout, format.stdout, waybar.json ?? [:], alerts)
    }

    @Test func anAlertThatEndsWhileTheCachedReportIsFreshIsNoLongerShown() async throws {
        let server = try server()
        let runner = try InProcessCommand()
        try runner.writeConfig(ProviderSetup.all[0].config(server.baseURL, ttl: 3600, timeout: 300))
        let clock = TestClock(date: Self.beforeTheEnd)
        let before = try await outputs(runner, clock: clock)
        #expect(before.text.contains("Alert: Flood Warning (Severe), until Sat 28 Nov 14:00"), "\(before.text)")
        #expect(before.format == "[Flood Warning]\n")
        #expect(before.waybar["class"] as? [String] == ["clear", "alert"])
        #expect(before.alerts.count == 1)

        clock.advance(6 * 60)
        let after = try await outputs(runner, clock: clock)
        #expect(after.text.contains(", cached 6 min ago"), "the same cached report: \(after.text)")
        #expect(!after.text.contains("Flood Warning"), "\(after.text)")
        #expect(after.format == "[]\n")
        #expect(after.waybar["class"] as? String == "clear")
        #expect(!(after.waybar["tooltip"] as? String ?? "Flood").contains("Flood"))
        #expect(after.alerts.isEmpty)
        #expect(server.requests.filter { $0.hasPrefix("/alerts/active") }.count == 1, "\(server.requests)")
    }

    @Test func anEndedAlertTheServiceStillListsIsNotShown() async throws {
        let server = try server()
        let runner = try InProcessCommand()
        try runner.writeConfig(ProviderSetup.all[0].config(server.baseURL, ttl: 0, timeout: 300))
        let after = try await outputs(runner, clock: TestClock(date: Self.beforeTheEnd.addingTimeInterval(3600)))
        #expect(server.requests.contains { $0.hasPrefix("/alerts/active") }, "asked, and listed by the service")
        #expect(!after.text.contains("Flood Warning"), "\(after.text)")
        #expect(after.format == "[]\n")
        #expect(after.waybar["class"] as? String == "clear")
        #expect(after.alerts.isEmpty)
    }
}
