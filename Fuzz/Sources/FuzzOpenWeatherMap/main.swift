import FuzzSupport
import HereWeatherCore

/// OpenWeatherMap's classic bodies (`/data/2.5/weather`, or it and `/data/2.5/forecast` combined),
/// through the provider's public `report(fromRecording:units:)` (the path of `--weather-replay`
/// and of a cache entry: JSONValueParser, then the decoder), in every unit system; any report
/// must have finite numbers and render in every output format.
/// (A recording needs no request: the HTTP client is never asked.)
let provider = OpenWeatherMapWeatherProvider(baseURL: "https://api.openweathermap.org", apiKey: "fuzz", http: CannedHTTPClient.unused, clock: ContinuousClock())

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    ReportChecks.decodeRecording(FuzzInput(data, size).data, with: provider)
    return 0
}
