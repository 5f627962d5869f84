#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FuzzSupport
import HereWeatherCore

/// The remembered location (`LastLocationStore.decode`, what `load` makes of the file's
/// bytes). A location read must be on the globe with a finite, positive accuracy of at most
/// half the Earth's circumference, and render (`LocationChecks`); saved again, it must read
/// back the same place.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let location = LastLocationStore.decode(Array(FuzzInput(data, size).bytes)) else { return 0 }
    LocationChecks.check(location)
    require((location.horizontalAccuracy ?? 0) <= 20_000_000, "accuracy \(location.horizontalAccuracy ?? 0)")
    let again = LastLocationStore.decode(Array(LastLocationStore.encode(location).utf8))
    require(again?.coordinate == location.coordinate, "the location does not read back: \(String(describing: again))")
    return 0
}
