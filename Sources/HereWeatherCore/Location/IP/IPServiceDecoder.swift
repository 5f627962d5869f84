/// Reads one IP-lookup service's JSON: its own failure flag, and its position.
///
/// Most of these services report failure as HTTP 200 with a flag in the body, so a body is
/// checked for `failure(in:)` before `fix(from:)` is read; error statuses are read with
/// `failure(in:)` too, for the service's own words.
protocol IPServiceDecoder {
    /// The failure the body reports, in a few words ("reserved range"); `nil` when it reports none.
    static func failure(in body: JSONValue) -> String?
    /// The position in a successful body; `nil` when it has none.
    static func fix(from body: JSONValue) -> IPFix?
}

/// What an IP-lookup service said about the caller's address.
struct IPFix: Sendable, Equatable {
    var coordinate: Coordinate
    /// Metres.
    var accuracy: Double
    /// Whether `accuracy` is the service's own radius rather than the city-level default.
    var accuracyReported: Bool
    /// "Tampa, Florida, US".
    var name: String?

    /// A fix at `latitude`/`longitude` (both required, valid and not exactly 0,0, which these
    /// services send for an address they cannot place), named from its parts.
    ///
    /// Accuracy is MaxMind's `accuracy_radius` (kilometres) when the body has one, otherwise
    /// `IPLocationProvider.cityLevelAccuracy`.
    init?(latitude: JSONValue?, longitude: JSONValue?, body: JSONValue, nameParts: [JSONValue?]) {
        guard let latitude = latitude?.double, let longitude = longitude?.double else { return nil }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid, !(latitude == 0 && longitude == 0) else { return nil }
        self.coordinate = coordinate
        if let radius = body["accuracy_radius"]?.double, radius > 0 {
            accuracy = radius * 1000
            accuracyReported = true
        } else {
            accuracy = IPLocationProvider.cityLevelAccuracy
            accuracyReported = false
        }
        name = Self.placeName(nameParts.map { $0?.lineText })
    }

    /// City, region and country joined with ", ", skipping empty parts and repeats
    /// ("Singapore, Singapore, SG" becomes "Singapore, SG"); `nil` when nothing is left.
    static func placeName(_ parts: [String?]) -> String? {
        var kept: [String] = []
        for part in parts {
            guard let text = part.map(IPFailureText.trim), !text.isEmpty, !kept.contains(text) else { continue }
            kept.append(text)
        }
        return kept.isEmpty ? nil : kept.joined(separator: ", ")
    }
}

/// Short, uniform reasons from the services' own failure texts.
enum IPFailureText {
    /// Characters kept of a service's own text: a reason is one of several on the line.
    static let maximumLength = 160

    /// Maps the services' spellings of common failures to one wording each; other texts
    /// are kept, trimmed (`IPLookupResponse` shortens them once the secrets are out).
    static func normalize(_ text: String) -> String {
        let lower = text.lowercased()
        if has(lower, "reserved") { return "reserved range" }
        if has(lower, "private range") { return "private range" }
        if has(lower, "ratelimited") || has(lower, "rate limit") { return "rate limited" }
        return trim(text)
    }

    /// `text` without leading and trailing spaces, tabs and line breaks.
    static func trim(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(String(text.drop(while: isSpace).reversed()).drop(while: isSpace).reversed())
    }

    /// Whether `part` occurs in `text` (byte-wise: no Foundation string search in the core).
    static func has(_ text: String, _ part: String) -> Bool {
        text.utf8.firstRange(of: part.utf8) != nil
    }
}
