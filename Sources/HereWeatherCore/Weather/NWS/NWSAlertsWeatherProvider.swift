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
public struct NWSAlertsWeatherProvider: WeatherProvider {
    public let base: any WeatherProvider
    public let alerts: NWSAlertsFetcher
    /// How long the alerts may take once the weather has answered.
    public let grace: CompanionGrace

    public init(base: any WeatherProvider, alerts: NWSAlertsFetcher, grace: CompanionGrace = CompanionGrace()) {
        self.base = base
        self.alerts = alerts
        self.grace = grace
    }

    public var kind: WeatherProviderKind { base.kind }

    /// The weather's connections only: whether alerts are asked depends on the place.
    public func preconnect(units: Units, until deadline: ContinuousClock.Instant) {
        base.preconnect(units: units, until: deadline)
    }

    public func checkConfigured() throws {
        try base.checkConfigured()
    }

    public func fetch(_ query: WeatherQuery) async throws -> WeatherFetch {
        try await fetch(query, revalidating: nil)
    }

    public func fetch(_ query: WeatherQuery, revalidating stored: StoredWeather?) async throws -> WeatherFetch {
        let inner = stored.map { StoredWeather(recording: Self.unwrap($0.recording)?.report ?? $0.recording, lastModified: $0.lastModified) }
        guard USRegion.contains(query.coordinate) else { return try await base.fetch(query, revalidating: inner) }
        let (base, alerts) = (base, alerts)
        let (fetched, body) = try await grace.run(.alerts, deadline: query.deadline) {
            try await base.fetch(query, revalidating: inner)
        } companion: {
            try await alerts.body(for: query.coordinate, deadline: query.deadline)
        }
        var answer = fetched
        answer.report.alerts += NWSAlertsDecoder.alerts(body.flatMap { try? JSONValue.parse($0) })
        answer.recording = Self.wrap(answer.recording, alerts: body)
        return answer
    }

    public func report(fromRecording data: Data, units: Units) throws -> WeatherReport {
        guard let (report, alertsBody) = Self.unwrap(data) else { return try base.report(fromRecording: data, units: units) }
        var answer = try base.report(fromRecording: report, units: units)
        answer.alerts += NWSAlertsDecoder.alerts(alertsBody)
        return answer
    }

    static let marker = "nws-alerts"

    static func wrap(_ recording: Data, alerts: Data?) -> Data {
        let report = JSONOutput.string(String(decoding: recording, as: UTF8.self)).serialized()
        return Data(#"{"here_weather":"\#(marker)","report":"#.utf8) + Data(report.utf8)
            + Data(#","alerts":"#.utf8) + (alerts ?? Data("null".utf8)) + Data("}".utf8)
    }

    /// The provider's recording and the alerts body of a wrapped recording; `nil` for any other.
    static func unwrap(_ data: Data) -> (report: Data, alerts: JSONValue?)? {
        // Only a wrapped recording starts with the marker: others are not parsed twice.
        guard data.starts(with: Data(#"{"here_weather":"#.utf8)), let value = try? JSONValue.parse(data),
              value["here_weather"]?.string == marker, let report = value["report"]?.string else { return nil }
        return (Data(report.utf8), value["alerts"])
    }
}
