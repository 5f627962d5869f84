#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A 429's `Retry-After`, parsed (RFC 9110 section 10.2.3): a number of seconds, or an HTTP
/// date (`Wed, 21 Oct 2026 07:28:00 GMT`). Only what parses is shown, as a time here-weather
/// writes itself; the header's own text never reaches a message, whatever the service put
/// there (a key, a page, escape sequences).
enum RetryAfter: Equatable {
    case seconds(Int)
    case date(Date)

    /// The longest wait shown, in seconds (a week): anything longer is not a real answer.
    static let longestWait = 7 * 86_400

    /// The value of a `Retry-After` header; `nil` for anything else.
    init?(_ value: String) {
        let text = HTTPFreshness.trimmed(Substring(value))
        if !text.isEmpty, text.count <= 10, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            guard let seconds = Int(text), seconds <= Self.longestWait else { return nil }
            self = .seconds(seconds)
        } else if let date = HTTPFreshness.parseDate(text) {
            self = .date(date)
        } else {
            return nil
        }
    }

    /// "120 s", or the date in UTC: "2026-10-21 07:28 UTC".
    var text: String {
        switch self {
        case .seconds(let seconds): return "\(seconds) s"
        case .date(let date):
            let time = LocalTime(date, utcOffset: 0)
            return "\(time.dateString) \(time.clockString) UTC"
        }
    }
}
