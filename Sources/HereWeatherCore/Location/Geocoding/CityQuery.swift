#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the user typed after `--city`: a place name and optional qualifiers.
///
/// `"Melbourne"`, `"Melbourne, AU"`, `"Melbourne, Florida"`, `"Melbourne, FL"`,
/// `"Melbourne, Florida, US"`: the text before the first comma is the name sent to the
/// geocoding service; every part after it is a qualifier that a result must match
/// (case-insensitively) by its ISO 3166-1 country code, its country name, its first-level
/// region (state, province) or, in the US, the state's postal abbreviation. A trailing
/// two-letter qualifier also goes to the service, which filters on it: a country code as
/// it is, a state's abbreviation as the US (an abbreviation that is also a country code,
/// such as "CA", goes as neither and matches both).
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

    /// The country the service is asked to filter on: the trailing qualifier when it is a
    /// two-letter code ("AU", upper-cased; "UK" reads as "GB"), "US" for a US state's
    /// abbreviation ("FL"); nil for an abbreviation that is also a country code ("CA").
    public var countryCode: String? {
        guard let last = qualifiers.last, Self.isCountryCode(last) else { return nil }
        let code = Self.canonicalCode(last)
        if USStates.alsoCountryCodes.contains(code) { return nil }
        return USStates.name(abbreviated: code) == nil ? code : "US"
    }

    /// The trailing qualifier when it abbreviates a US state and nothing else ("FL"): what
    /// OpenWeatherMap takes as `{state code}`.
    public var stateCode: String? {
        guard let last = qualifiers.last, Self.isCountryCode(last), countryCode == "US",
              USStates.name(abbreviated: last) != nil else { return nil }
        return last.uppercased()
    }

    /// The first of `places` (the service's best match) that every qualifier matches.
    public func pick(from places: [GeocodedPlace]) -> GeocodedPlace? {
        places.first(where: matches)
    }

    /// Whether every qualifier names `place`'s country code, country or region.
    public func matches(_ place: GeocodedPlace) -> Bool {
        qualifiers.allSatisfy { qualifier in
            Self.names(of: place).contains { $0.lowercased() == qualifier.lowercased() }
                || (Self.isCountryCode(qualifier) && place.countryCode?.uppercased() == Self.canonicalCode(qualifier))
        }
    }

    /// When no place matches: the first of `places` that every qualifier nearly names (a
    /// typo by `Suggestion`'s rule: "Florda", "FK"), to offer as "did you mean".
    public func nearestMatch(in places: [GeocodedPlace]) -> GeocodedPlace? {
        places.first { place in
            let names = Self.names(of: place)
            return qualifiers.allSatisfy { Suggestion.nearest(to: $0, among: names) != nil }
        }
    }

    /// What a qualifier may call `place`: its country code, country, region and, in the US,
    /// the state's abbreviation.
    static func names(of place: GeocodedPlace) -> [String] {
        var names = [place.countryCode, place.country, place.region].compactMap { $0 }.filter { !$0.isEmpty }
        if place.countryCode?.uppercased() == "US", let region = place.region, let code = USStates.abbreviation(of: region) {
            names.append(code)
        }
        return names
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
