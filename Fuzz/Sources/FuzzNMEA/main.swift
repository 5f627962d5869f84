import FuzzSupport
import HereWeatherCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An NMEA log as `--nmea-replay` reads it: `NMEAStream` (the line reader, the sentence
/// parser and the epoch assembler). Every fix has a finite time, a position on the globe when
/// it has one, and finite, non-negative accuracy figures; the counters add up.
let today = Date(timeIntervalSince1970: 1_795_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    var stream = NMEAStream(bytes: Array(input.bytes), today: today)
    var fixes = 0
    while let fix = stream.nextFix() {
        fixes += 1
        require(fixes <= size + 1, "more fixes (\(fixes)) than the \(size) bytes could hold")
        check(fix)
    }
    require(stream.fixesEmitted == fixes, "fixesEmitted \(stream.fixesEmitted), returned \(fixes)")
    require(stream.bytesRead == size, "read \(stream.bytesRead) of \(size) bytes")
    require(stream.sentencesAccepted + stream.checksumFailures + stream.malformedSentences <= stream.linesRead,
            "more sentences than lines")
    require(stream.nextFix() == nil, "a fix after the end")
    return 0
}

func check(_ fix: NMEAFix) {
    requireFinite(fix.time.timeIntervalSince1970, "the fix time")
    if let coordinate = fix.coordinate {
        require((-90...90).contains(coordinate.latitude), "latitude \(coordinate.latitude)")
        require((-180...180).contains(coordinate.longitude), "longitude \(coordinate.longitude)")
    }
    requireFinite(fix.altitude, "the altitude")
    for (name, value) in [("accuracy", fix.horizontalAccuracy), ("HDOP", fix.hdop)] {
        requireFinite(value, name)
        require((value ?? 0) >= 0, "\(name) \(value ?? 0)")
    }
    require((fix.satellitesUsed ?? 0) >= 0 && (fix.satellitesInView ?? 0) >= 0, "a negative satellite count")
    if fix.isValid { require(fix.coordinate != nil, "a valid fix without a position") }
}
