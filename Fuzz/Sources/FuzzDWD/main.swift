#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FuzzSupport
import HereWeatherCore

/// The DWD GeoServer's `dwd:Warnungen_Gemeinden` body (GeoJSON) for a point in Munich
/// (`AlertChecks`).
let source = DWDSource(http: CannedHTTPClient.unused)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    AlertChecks.check(FuzzInput(data, size).data, source: source, at: Coordinate(latitude: 48.14, longitude: 11.58), country: "DE")
    return 0
}
