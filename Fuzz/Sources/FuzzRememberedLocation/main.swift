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
/// back the same place to the 6 decimals every JSON number is written with (0.11 m), and
/// then stay exactly the same through every further save. (A file written by hand with more
/// decimals, 13.41053555..., reads back as 13.410536: not a change of place.)
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let location = LastLocationStore.decode(Array(FuzzInput(data, size).bytes)) else { return 0 }
    LocationChecks.check(location)
    require((location.horizontalAccuracy ?? 0) <= 20_000_000, "accuracy \(location.horizontalAccuracy ?? 0)")
    let saved = LastLocationStore.decode(Array(LastLocationStore.encode(location).utf8))
    guard let again = saved else { fatalError("invariant broken: a saved location does not read back at all") }
    require(abs(again.coordinate.latitude - location.coordinate.latitude) <= 0.000_000_6
                && abs(again.coordinate.longitude - location.coordinate.longitude) <= 0.000_000_6,
            "the location moved when saved: \(location.coordinate) read back as \(again.coordinate)")
    let third = LastLocationStore.decode(Array(LastLocationStore.encode(again).utf8))
    require(third?.coordinate == again.coordinate, "a saved location does not read back the same: \(String(describing: third))")
    return 0
}
