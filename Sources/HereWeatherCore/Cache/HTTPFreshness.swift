#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How long a service says its response stays fresh, from its headers (RFC 9111 § 4.2.1).
///
/// `Cache-Control: max-age=N` wins (less the `Age` the response already spent in caches);
/// without it, `Expires` less `Date` (or less now when `Date` is missing). Only the
/// IMF-fixdate form of HTTP dates is read (`Sun, 06 Nov 1994 08:49:37 GMT`); other forms,
/// `no-cache`/`no-store` and anything unparsable give `nil`: the cache then uses its own TTL.
/// The service can only lengthen the configured TTL, never shorten it.
public enum HTTPFreshness {
    /// Seconds of freshness `headers` (lower-cased names) declare; `nil` when none or zero.
    public static func lifetime(of headers: [String: String], now: Date) -> Double? {
        if let control = headers["cache-control"] {
            let directives = control.split(separator: ",").map { trimmed($0).lowercased() }
            if directives.contains("no-store") || directives.contains("no-cache") { return nil }
            if let maxAge = directives.lazy.compactMap(maxAgeValue).first {
                let age = headers["age"].flatMap { Double(trimmed(Substring($0))) } ?? 0
                let remaining = maxAge - max(0, age)
                return remaining > 0 ? remaining : nil
            }
        }
        guard let expires = headers["expires"].flatMap(parseDate) else { return nil }
        let sent = headers["date"].flatMap(parseDate) ?? now
        let remaining = expires.timeIntervalSince(sent)
        return remaining > 0 ? remaining : nil
    }

    /// `N` from a `max-age=N` directive (quotes allowed), else `nil`.
    static func maxAgeValue(_ directive: String) -> Double? {
        guard directive.hasPrefix("max-age=") else { return nil }
        let value = directive.dropFirst("max-age=".count).filter { $0 != "\"" }
        guard let seconds = Int(value), seconds >= 0 else { return nil }
        return Double(seconds)
    }

    /// `text` without surrounding spaces and tabs.
    static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) in `LocalTime.years`, else `nil`.
    static func parseDate(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT",
              let day = Int(parts[1]), (1...31).contains(day),
              let month = months.firstIndex(of: parts[2].lowercased()),
              let year = Int(parts[3]), LocalTime.years.contains(year) else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (0..<24).contains(clock[0]), (0..<60).contains(clock[1]), (0...60).contains(clock[2]) else {
            return nil
        }
        return LocalTime(year: year, month: month + 1, day: day, hour: clock[0], minute: clock[1], second: clock[2])
            .date(utcOffset: 0)
    }
}
