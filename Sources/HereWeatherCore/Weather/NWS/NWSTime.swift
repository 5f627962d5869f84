#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The times api.weather.gov writes: ISO 8601 with an offset (`2026-11-26T14:00:00-05:00`,
/// `2026-11-26T18:53:00+00:00`, `...Z`), sometimes with fractional seconds.
enum NWSTime {
    /// The instant and the offset it was written with (seconds east of UTC); `nil` for
    /// anything else.
    static func parse(_ text: String) -> (date: Date, utcOffset: Int)? {
        var body = Substring(text)
        var offset = 0
        if body.hasSuffix("Z") {
            body = body.dropLast()
        } else {
            let tail = body.suffix(6)
            guard tail.count == 6, let sign = tail.first, sign == "+" || sign == "-",
                  tail.dropFirst(3).first == ":",
                  let hours = Int(tail.dropFirst().prefix(2)), let minutes = Int(tail.suffix(2)),
                  (0...14).contains(hours), (0...59).contains(minutes) else { return nil }
            offset = (hours * 3600 + minutes * 60) * (sign == "-" ? -1 : 1)
            body = body.dropLast(6)
        }
        if let dot = body.firstIndex(of: ".") {
            guard body[body.index(after: dot)...].allSatisfy(\.isASCII), body[body.index(after: dot)...].allSatisfy(\.isNumber)
            else { return nil }
            body = body[..<dot]
        }
        guard body.contains("T"), let local = LocalTime(iso8601: String(body)) else { return nil }
        return (local.date(utcOffset: offset), offset)
    }

    /// Only the instant.
    static func date(_ value: JSONValue?) -> Date? {
        value?.string.flatMap(parse)?.date
    }
}
