#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FuzzSupport
import HereWeatherCore

/// A weather cache file (`WeatherCacheEntry.parse`): a JSON header line, then the service's
/// body. An entry read must be for the key asked, with a finite time and a positive finite
/// max age when it has one, and a body as long as its header says; one that is written again
/// must read back the same. A refusal is an error, never a crash.
let key = WeatherCacheKey(provider: .openMeteo, coordinate: Coordinate(latitude: 27.95, longitude: -82.46),
                          units: .metric, coordinateDecimals: 2)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size).data
    guard let entry = try? WeatherCacheEntry.parse(input, expecting: key) else { return 0 }
    require(entry.key == key, "an entry for another key")
    require(entry.fetchedAt.timeIntervalSince1970.isFinite, "fetched at \(entry.fetchedAt)")
    requireFinite(entry.serviceMaxAge, "the max age")
    require((entry.serviceMaxAge ?? 1) > 0, "max age \(entry.serviceMaxAge ?? 0)")
    require(entry.recording.count <= input.count, "a body longer than the file")
    let again = try? WeatherCacheEntry.parse(Data(entry.fileBytes()), expecting: key)
    require(again?.recording == entry.recording && again?.lastModified == entry.lastModified, "the entry does not read back")
    return 0
}
