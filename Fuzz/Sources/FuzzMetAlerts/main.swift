#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FuzzSupport
import HereWeatherCore

/// MET Norway's MetAlerts 2.0 body (`current.json`, GeoJSON) at a point near Bergen
/// (`AlertChecks`).
let source = MetAlertsSource(baseURL: "https://api.met.no", contact: nil, http: CannedHTTPClient.unused)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    AlertChecks.check(FuzzInput(data, size).data, source: source, at: Coordinate(latitude: 60.39, longitude: 5.32), country: "NO")
    return 0
}
