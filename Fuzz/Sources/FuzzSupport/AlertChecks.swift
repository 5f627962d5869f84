#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HereWeatherCore

/// A warnings service's body (MET Norway, DWD, MeteoAlarm) as the source decodes it for a
/// point, in English and in German, then stored around a fixed Open-Meteo recording as the
/// cache keeps it and read back: every report must pass `ReportChecks`.
public enum AlertChecks {
    static let provider = OpenMeteoWeatherProvider(baseURL: "https://api.open-meteo.com", http: CannedHTTPClient.unused,
                                                   clock: ContinuousClock())
    static let regional = RegionalAlertsWeatherProvider(base: provider, sources: [], grace: CompanionGrace(clock: ContinuousClock()))
    static let base = Data(#"{"latitude":44.55,"longitude":15.37,"utc_offset_seconds":3600,"current_units":{"temperature_2m":"°C"},"current":{"time":"2026-11-28T12:00","temperature_2m":6.1,"weather_code":1,"is_day":1}}"#.utf8)

    public static func check(_ data: Data, source: any AlertSource, at coordinate: Coordinate, country: String) {
        guard let body = try? JSONValue.parse(data) else { return }
        for language in ["en", "de", "nb"] {
            let alerts: RegionalAlerts
            do {
                alerts = try source.alerts(fromBody: body, at: coordinate, country: country, language: language)
            } catch {
                require(error is AlertSourceFailure, "a body failed with \(error)")
                continue
            }
            ReportChecks.decodeRecording(RegionalAlertsWeatherProvider.wrap(base, alerts: alerts), with: regional)
        }
    }
}
