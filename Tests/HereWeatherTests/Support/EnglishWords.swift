import Foundation
@testable import HereWeatherCore

/// The check that a report in another language has no English in it: the words of the English
/// catalogue (every message of po/here-weather.pot) that are not also words of that language's
/// catalogue ("Wind" is German too) must not appear in its output.
///
/// Text a service wrote is shown as it wrote it (an alert's description, its issuer, a place's
/// name), and names are names: those are taken out first (`allowed`, `names`).
enum EnglishWords {
    /// The words of `text`: runs of letters, lower-cased, two letters or more.
    static func words(_ text: String) -> [String] {
        text.split { !$0.isLetter }.map { $0.lowercased() }.filter { $0.count >= 2 }
    }

    /// Every word of a catalogue's messages (all plural forms), also as ASCII writes it
    /// ("Température" is "Temperature" in a locale that is not UTF-8: French still).
    static func catalogueWords(_ code: String) -> Set<String> {
        let catalogue = UserLocale(language: code).catalogue
        let found = Message.allCases.flatMap { catalogue.forms($0) }.flatMap { words(String($0)) }
        return Set(found + found.map { TextCharset.ascii.fold($0) })
    }

    /// The words of a language's CLDR conventions: its day and month names and AM/PM markers,
    /// which may be English words ("ago", agosto in Spanish, Portuguese and Italian).
    static func cldrWords(_ code: String) -> Set<String> {
        let conventions = UserLocale(language: code).conventions
        let found = (conventions.weekdays + conventions.months + [conventions.am, conventions.pm, conventions.amShort, conventions.pmShort])
            .flatMap(words)
        return Set(found + found.map { TextCharset.ascii.fold($0) })
    }

    /// The English words a report in each language must not contain, by catalogue code.
    static let forbiddenWords: [String: Set<String>] = {
        let english = catalogueWords("en")
        return Dictionary(uniqueKeysWithValues: LanguageData.all.map {
            ($0.code, english.subtracting(catalogueWords($0.code)).subtracting(cldrWords($0.code)))
        })
    }()

    /// The English words a report in `code` must not contain.
    static func forbidden(in code: String) -> Set<String> {
        forbiddenWords[code] ?? []
    }

    /// Names that are the same in every language: services, sources, option names.
    static let names: [String] = WeatherProviderKind.allCases.map(\.displayName)
        + [Nowcast.Source.openMeteo, .pirateWeather, .metNorway].map(\.displayName)
        + ["--lat/--lon", "gpsd", "GeoClue", "HDOP", "NMEA", "GPS"]

    /// The English words `text` has that it should not, once `names` are taken out and the words
    /// of `allowed` (a service's own text) are let through.
    static func found(in text: String, language code: String, allowed: Set<String> = []) -> [String] {
        // Lines joined, so that a name wrapped over two ("Pirate / Weather") is still one.
        var plain = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for name in names { plain = plain.replacing(name, with: " ") }
        let forbidden = forbidden(in: code).subtracting(allowed)
        var seen: [String] = []
        for word in words(plain) where forbidden.contains(word) && !seen.contains(word) { seen.append(word) }
        return seen
    }

    /// The words of what services wrote in the recordings the gallery replays: alerts' titles,
    /// descriptions, headlines, instructions and issuers, place names and country codes, and the
    /// nearest towns' names.
    static func serviceWords(_ reports: [(WeatherReport, Location)]) -> Set<String> {
        var texts: [String] = []
        for (report, location) in reports {
            for alert in report.alerts {
                texts += [alert.title, alert.description, alert.headline, alert.instruction, alert.source].compactMap { $0 }
            }
            texts += [report.placeName, report.country, location.nearbyPlace?.title].compactMap { $0 }
        }
        return Set(texts.flatMap(words))
    }
}
