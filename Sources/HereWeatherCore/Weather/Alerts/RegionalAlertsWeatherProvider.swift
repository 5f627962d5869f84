import HereWeatherPlaces
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A provider without alerts of its own with the official warnings of the point's country
/// added: MET Norway for Norway, DWD for Germany, MeteoAlarm for the rest of Europe (the
/// sources in `sources`, asked in that order: the first that covers the country is the only
/// one asked). The country is the nearest populated place's in the offline place data
/// (`PlaceIndex`): nothing is sent to choose it. A US point (`USRegion`), or one with no place
/// within 100 km, asks none.
///
/// Like the NWS's alerts (`NWSAlertsWeatherProvider`), the warnings are a companion: asked at
/// the same time as the weather, given `CompanionGrace` once it has answered, and a failed or
/// late source costs only the warnings (one `--verbose` line). The recording is
/// `{"here_weather":"regional-alerts","report":"<the provider's recording, as a string>",
/// "alerts":<AlertRecording or null>}`: what was matched to the point at fetch time.
public struct RegionalAlertsWeatherProvider: CompanionWeatherProvider {
    public let base: any WeatherProvider
    public let sources: [any AlertSource]
    public let grace: CompanionGrace

    public init(base: any WeatherProvider, sources: [any AlertSource], grace: CompanionGrace) {
        self.base = base
        self.sources = sources
        self.grace = grace
    }

    /// The country of `coordinate` for the warnings: `nil` in the NWS's area or far from any place.
    public static func country(of coordinate: Coordinate) -> String? {
        guard !USRegion.contains(coordinate) else { return nil }
        return PlaceIndex.nearest(latitude: coordinate.latitude, longitude: coordinate.longitude)?.countryCode
    }

    /// The source asked for a point in `country`: the first that covers it.
    public func source(for country: String?) -> (any AlertSource)? {
        guard let country else { return nil }
        return sources.first { $0.covers(country: country) }
    }

    public func fetch(_ query: WeatherQuery, revalidating stored: StoredWeather?) async throws -> WeatherFetch {
        let inner = Self.recording.inner(stored)
        let country = Self.country(of: query.coordinate)
        guard let country, let source = source(for: country) else { return try await base.fetch(query, revalidating: inner) }
        let (base, log) = (base, grace.log)
        let (fetched, found) = try await grace.run(.alerts, deadline: query.deadline) {
            try await base.fetch(query, revalidating: inner)
        } companion: { () async throws -> RegionalAlerts? in
            do {
                return try await source.alerts(at: query.coordinate, country: country, language: query.language,
                                               deadline: query.deadline)
            } catch let failure as AlertSourceFailure {
                log("alerts (\(source.name)): \(failure.reason); shown without them")
                return nil
            }
        }
        var answer = fetched
        Self.add(found, to: &answer.report)
        answer.recording = Self.wrap(answer.recording, alerts: found)
        return answer
    }

    public func report(fromRecording data: Data, units: Units) throws -> WeatherReport {
        guard let (report, alerts) = Self.recording.unwrap(data) else { return try base.report(fromRecording: data, units: units) }
        var answer = try base.report(fromRecording: report, units: units)
        Self.add(AlertRecording.alerts(alerts), to: &answer)
        return answer
    }

    static func add(_ alerts: RegionalAlerts?, to report: inout WeatherReport) {
        guard let alerts else { return }
        report.alerts += alerts.local
        report.alertsElsewhere += alerts.elsewhere
        report.elsewhereCountry = alerts.country
    }

    static let recording = CompanionRecording(marker: "regional-alerts", key: "alerts", words: "official warnings")

    /// `recording` with `alerts` around it, as the cache stores it.
    public static func wrap(_ recording: Data, alerts: RegionalAlerts?) -> Data {
        Self.recording.wrap(recording, body: alerts.map { Data(AlertRecording.object($0).serialized().utf8) })
    }
}
