#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FuzzSupport
import HereWeatherCore

/// The NWS's active alerts body (`/alerts/active?point=`, GeoJSON), as a report from another
/// provider carries it: the input is the `alerts` of the recording that
/// `NWSAlertsWeatherProvider` stores around a fixed Open-Meteo body, read back through its
/// public `report(fromRecording:units:)` in every unit system; any report must have finite
/// numbers and render in every output format (alert titles, details and times included).
let provider = NWSAlertsWeatherProvider(
    base: OpenMeteoWeatherProvider(baseURL: "https://api.open-meteo.com", http: CannedHTTPClient.unused, clock: ContinuousClock()),
    alerts: NWSAlertsFetcher(baseURL: "https://api.weather.gov", contact: nil, http: CannedHTTPClient.unused, clock: ContinuousClock()),
    grace: CompanionGrace(clock: ContinuousClock()))

/// A small Open-Meteo body: the alerts are what varies.
let base = #"{"latitude":27.95,"longitude":-82.46,"utc_offset_seconds":-18000,"current_units":{"temperature_2m":"°C"},"current":{"time":"2026-11-26T14:00","temperature_2m":26.1,"weather_code":1,"is_day":1}}"#

/// `base` as a JSON string: its quotes escaped.
let quoted = "\"" + base.replacing("\"", with: "\\\"") + "\""

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let recording = Data(#"{"here_weather":"nws-alerts","report":"#.utf8) + Data(quoted.utf8) + Data(#","alerts":"#.utf8)
        + FuzzInput(data, size).data + Data("}".utf8)
    ReportChecks.decodeRecording(recording, with: provider)
    return 0
}
