#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the user typed after `--city`: a place name and optional qualifiers.
///
/// `"Melbourne"`, `"Melbourne, AU"`, `"Melbourne, Florida"`, `"Melbourne, Florida, US"`: the
/// text before the first comma is the name sent to the geocoding service; every part after it
/// is a qualifier that a result must match (case-insensitively) by its ISO 3166-1 country code,
/// its country name or its first-level region (state, province). A trailing two-letter
/// qualifier is taken as a country code and also sent to the service, which filters on it.
public struct CityQuery: Sendable, Equatable, CustomStringConvertible {
    /// The place name: "Melbourne".
    public let name: String
    /// The qualifiers after the name, in order: ["Florida", "US"].
    public let qualifiers: [String]

    /// Parses `text`; `nil` when it holds no name.
    public init?(_ text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(Self.trimmed)
        guard let first = parts.first, !first.isEmpty else { return nil }
        name = first
        qualifiers = parts.dropFirst().filter { !$0.isEmpty }
    }

    /// The query as the user would write it: "Melbourne, AU".
    public var description: String { ([name] + qualifiers).joined(separator: ", ") }

    /// The trailing qualifier when it is a two-letter code ("AU"), upper-cased; "UK" reads as "GB".
    public var countryCode: String? {
        guard let last = qualifiers.last, Self.isCountryCode(last) else { return nil }
        return Self.canonicalCode(last)
    }

    /// The first of `places` (the service's best match) that every qualifier matches.
    public func pick(from places: [GeocodedPlace]) -> GeocodedPlace? {
        places.first(where: matches)
    }

    /// Whether every qualifier names `place`'s country code, country or region.
    public func matches(_ place: GeocodedPlace) -> Bool {
        qualifiers.allSatisfy { qualifier in
            if Self.isCountryCode(qualifier), let code = place.countryCode {
                if Self.canonicalCode(qualifier) == code.uppercased() { return true }
            }
            let wanted = qualifier.lowercased()
            return [place.country, place.region].contains { $0?.lowercased() == wanted }
        }
    }

    static func isCountryCode(_ text: String) -> Bool {
        text.utf8.count == 2 && text.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0 & 0xDF) }
    }

    /// "uk" and "UK" are the common name for GB, the ISO code.
    static func canonicalCode(_ text: String) -> String {
        let upper = text.uppercased()
        return upper == "UK" ? "GB" : upper
    }

    static func trimmed(_ part: Substring) -> String {
        String(part.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

/// One place a geocoding service found for a name.
public struct GeocodedPlace: Sendable, Equatable {
    public var name: String
    public var coordinate: Coordinate
    /// ISO 3166-1 alpha-2 ("AU"), when the service gives it.
    public var countryCode: String?
    /// The country's name ("Australia"), when the service gives it (Open-Meteo does).
    public var country: String?
    /// The first-level region: state, province ("Victoria").
    public var region: String?

    public init(name: String, coordinate: Coordinate, countryCode: String? = nil, country: String? = nil,
                region: String? = nil) {
        self.name = name
        self.coordinate = coordinate
        self.countryCode = countryCode
        self.country = country
        self.region = region
    }

    /// The name shown for the place, with its region and country: "Melbourne, Florida, US".
    public var displayName: String {
        var parts = [name]
        if let region, !region.isEmpty, region != name { parts.append(region) }
        if let place = countryCode ?? country, !place.isEmpty { parts.append(place) }
        return parts.joined(separator: ", ")
    }
}
