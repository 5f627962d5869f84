#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A provider without alerts of its own (Open-Meteo, MET Norway, OpenWeatherMap's classic
/// API) with the US National Weather Service's official alerts added for points in the US
/// (`USRegion.contains`); `[alerts] nws = false` leaves it out.
///
/// The alerts are asked at the same time as the weather and stored with it: the recording is
/// `{"here_weather":"nws-alerts","report":"<the provider's recording, as a string>",
/// "alerts":<the alerts body or null>}`, so a cached report keeps its alerts. A plain
/// recording of the provider (an older cache entry, `--weather-replay`) reads as before,
/// without alerts. A failed alerts fetch costs only the alerts (`NWSAlertsFetcher`), and so
/// does one still going when the weather's grace is over (`CompanionGrace`).
public struct NWSAlertsWeatherProvider: CompanionWeatherProvider {
    public let base: any WeatherProvider
    public let alerts: NWSAlertsFetcher
    /// How long the alerts may take once the weather has answered.
    public let grace: CompanionGrace

    public init(base: any WeatherProvider, alerts: NWSAlertsFetcher, grace: CompanionGrace) {
        self.base = base
        self.alerts = alerts
        self.grace = grace
    }

    public func fetch(_ query: WeatherQuery, revalidating stored: StoredWeather?) async throws -> WeatherFetch {
        let inner = Self.recording.inner(stored)
        guard USRegion.contains(query.coordinate) else { return try await base.fetch(query, revalidating: inner) }
        let (base, alerts) = (base, alerts)
        let (fetched, body) = try await grace.run(.alerts, deadline: query.deadline) {
            try await base.fetch(query, revalidating: inner)
        } companion: {
            try await alerts.body(for: query.coordinate, deadline: query.deadline)
        }
        var answer = fetched
        answer.report.alerts += NWSAlertsDecoder.alerts(body.flatMap { try? JSONValue.parse($0) })
        answer.recording = Self.recording.wrap(answer.recording, body: body)
        return answer
    }

    public func report(fromRecording data: Data, units: Units) throws -> WeatherReport {
        guard let (report, alertsBody) = Self.recording.unwrap(data) else { return try base.report(fromRecording: data, units: units) }
        var answer = try base.report(fromRecording: report, units: units)
        answer.alerts += NWSAlertsDecoder.alerts(alertsBody)
        return answer
    }

    static let recording = CompanionRecording(marker: "nws-alerts", key: "alerts", words: "official alerts")
}
