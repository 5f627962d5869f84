#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FuzzSupport
import HereWeatherCore

/// Open-Meteo's Air Quality API body (`/v1/air-quality?current=...`), as a report carries it:
/// the input is the `air_quality` of the recording that `AirQualityWeatherProvider` stores
/// around a fixed Open-Meteo body, read back through its public
/// `report(fromRecording:units:)` in every unit system; any report must have finite,
/// non-negative air values with an index, and render in every output format (the air and
/// pollen lines, `%q`, the waybar classes included).
let provider = AirQualityWeatherProvider(
    base: OpenMeteoWeatherProvider(baseURL: "https://api.open-meteo.com", http: CannedHTTPClient.unused, clock: ContinuousClock()),
    air: AirQualityFetcher(baseURL: "https://air-quality-api.open-meteo.com", http: CannedHTTPClient.unused),
    grace: CompanionGrace(clock: ContinuousClock()))

/// A small Open-Meteo body: the air is what varies.
let base = #"{"latitude":52.52,"longitude":13.41,"utc_offset_seconds":3600,"current_units":{"temperature_2m":"°C"},"current":{"time":"2026-11-22T14:00","temperature_2m":6.1,"weather_code":1,"is_day":1,"uv_index":0.4}}"#

/// `base` as a JSON string: its quotes escaped.
let quoted = "\"" + base.replacing("\"", with: "\\\"") + "\""

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let recording = Data(#"{"here_weather":"air-quality","report":"#.utf8) + Data(quoted.utf8) + Data(#","air_quality":"#.utf8)
        + FuzzInput(data, size).data + Data("}".utf8)
    ReportChecks.decodeRecording(recording, with: provider)
    return 0
}
