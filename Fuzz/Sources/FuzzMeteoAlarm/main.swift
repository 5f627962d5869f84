#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FuzzSupport
import HereWeatherCore

/// A MeteoAlarm country feed (`/api/v1/warnings/feeds-croatia`: CAP in JSON), matched to a
/// point in Gospić (`AlertChecks`).
let source = MeteoAlarmSource(http: CannedHTTPClient.unused)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    AlertChecks.check(FuzzInput(data, size).data, source: source, at: Coordinate(latitude: 44.55, longitude: 15.37), country: "HR")
    return 0
}
