import FuzzSupport
import HereWeatherCore

/// The NWS recording (`{"points", "forecast_hourly", "forecast", "observation", "alerts"}`,
/// the bodies of api.weather.gov as a run stores them), through the provider's public
/// `report(fromRecording:units:)` (the path of `--weather-replay` and of a cache entry:
/// JSONValueParser, then the decoder with its times, quantities, wind strings, icons and
/// alerts), in every unit system; any report must have finite numbers and render in every
/// output format. (A recording needs no request: the HTTP client is never asked.)
let provider = NWSWeatherProvider(baseURL: "https://api.weather.gov", contact: "fuzz@example.com", http: CannedHTTPClient.unused, clock: ContinuousClock())

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    ReportChecks.decodeRecording(FuzzInput(data, size).data, with: provider)
    return 0
}
