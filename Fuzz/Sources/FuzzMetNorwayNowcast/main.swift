#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FuzzSupport
import HereWeatherCore

/// MET Norway's radar nowcast body (Nowcast 2.0 `complete`), as the provider records it beside
/// a Locationforecast body (`{"locationforecast": ..., "nowcast": <input>}`), through
/// `report(fromRecording:units:)`: the nowcast decoder and its rules get every input, and the
/// report (with its nowcast, read at several times) must pass `ReportChecks`.
let provider = MetNorwayWeatherProvider(baseURL: "https://api.met.no", contact: "fuzz@example.com", http: CannedHTTPClient.unused, clock: ContinuousClock())
let forecast = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[10.75,59.91,8]},"properties":{"meta":{"units":{"air_temperature":"celsius"}},"timeseries":[{"time":"2026-11-22T10:00:00Z","data":{"instant":{"details":{"air_temperature":2.9}}}}]}}"#

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let recording = Data(#"{"locationforecast":"#.utf8) + Data(forecast.utf8) + Data(#","nowcast":"#.utf8)
        + FuzzInput(data, size).data + Data("}".utf8)
    ReportChecks.decodeRecording(recording, with: provider)
    return 0
}
