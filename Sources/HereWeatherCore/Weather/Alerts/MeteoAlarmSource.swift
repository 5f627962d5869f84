#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// MeteoAlarm's country feeds (`{base}/api/v1/warnings/feeds-<country>`): the official
/// warnings of 30-odd European services in CAP, each in the languages its service writes.
///
/// The feed holds the whole country, so each warning is matched to the point
/// (`MeteoAlarmMatch`): by its polygon when it has one, else by its area's name against the
/// offline place data's names around the point. A warning that cannot be matched is never
/// local: it is counted apart (`RegionalAlerts.elsewhere`). Cancellations are dropped, and
/// so is every message a later one updates or cancels (CAP `references`); expired warnings,
/// which the feed keeps, are left out where the report is shown (`WeatherReport.shown(at:)`).
public struct MeteoAlarmSource: AlertSource {
    public static let defaultBaseURL = "https://feeds.meteoalarm.org"
    public let baseURL: String
    public let http: any HTTPClient

    public init(baseURL: String = defaultBaseURL, http: any HTTPClient) {
        self.baseURL = baseURL
        self.http = http
    }

    public var name: String { "meteoalarm" }

    /// The feed of each country MeteoAlarm carries, by ISO 3166-1 code.
    public static let feeds: [String: String] = [
        "AT": "austria", "BA": "bosnia-herzegovina", "BE": "belgium", "BG": "bulgaria", "CH": "switzerland",
        "CY": "cyprus", "CZ": "czechia", "DE": "germany", "DK": "denmark", "EE": "estonia", "ES": "spain",
        "FI": "finland", "FR": "france", "GB": "united-kingdom", "GR": "greece", "HR": "croatia", "HU": "hungary",
        "IE": "ireland", "IL": "israel", "IS": "iceland", "IT": "italy", "LT": "lithuania", "LU": "luxembourg",
        "LV": "latvia", "MD": "moldova", "ME": "montenegro", "MK": "republic-of-north-macedonia", "MT": "malta",
        "NL": "netherlands", "NO": "norway", "PL": "poland", "PT": "portugal", "RO": "romania", "RS": "serbia",
        "SE": "sweden", "SI": "slovenia", "SK": "slovakia", "UA": "ukraine",
    ]

    public func covers(country code: String) -> Bool { Self.feeds[code] != nil }

    public func requestURL(country: String) -> String? {
        Self.feeds[country].map { URLText.join(baseURL, path: "/api/v1/warnings/feeds-" + $0, query: []) }
    }

    public func alerts(at coordinate: Coordinate, country: String, language: String,
                       deadline: ContinuousClock.Instant) async throws -> RegionalAlerts {
        guard let url = requestURL(country: country) else { return RegionalAlerts(local: [], country: country) }
        let body = try await AlertRequest.json(url, headers: [], http: http, deadline: deadline)
        return try alerts(fromBody: body, at: coordinate, country: country, language: language)
    }

    public func alerts(fromBody body: JSONValue, at coordinate: Coordinate, country: String, language: String) throws -> RegionalAlerts {
        guard body["warnings"]?.array != nil else { throw AlertSourceFailure("its answer is not a list of warnings") }
        return MeteoAlarmDecoder.alerts(body, at: MeteoAlarmMatch.Point(coordinate), language: language, country: country)
    }
}

/// Decodes a MeteoAlarm feed (`{"warnings":[{"alert":<CAP>}, ...]}`) into the warnings at a
/// point and those elsewhere in the country.
enum MeteoAlarmDecoder {
    static func alerts(_ body: JSONValue?, at point: MeteoAlarmMatch.Point, language: String, country: String) -> RegionalAlerts {
        let messages = (body?["warnings"]?.array ?? []).prefix(10_000).compactMap { CAPDecoder.message($0["alert"]) }
        var answer = RegionalAlerts(local: [], country: country)
        for message in current(messages) {
            guard let info = chosenInfo(message.infos, language: language), let alert = alert(info) else { continue }
            if MeteoAlarmMatch.matches(info.areas, point) {
                answer.local.append(alert)
            } else {
                answer.elsewhere.append(alert)
            }
        }
        return answer
    }

    /// The messages in force: real ("Actual"), not a cancellation, and not updated or
    /// cancelled by another message of the feed.
    static func current(_ messages: [CAPMessage]) -> [CAPMessage] {
        var replaced = Set<String>()
        for message in messages {
            for reference in message.references {
                replaced.insert(reference)
                // Some services name the message by its identifier alone.
                let parts = reference.split(separator: ",", omittingEmptySubsequences: false)
                if parts.count >= 2 { replaced.insert(String(parts[1])) }
            }
        }
        return messages.filter { message in
            message.status == "Actual" && message.messageType != "Cancel"
                && !replaced.contains(message.identifier) && !replaced.contains(message.reference)
        }
    }

    /// The info in the output language (`nb` also takes `no`), else English, else the first.
    static func chosenInfo(_ infos: [CAPMessage.Info], language: String) -> CAPMessage.Info? {
        let wanted = Set(language == "nb" ? ["nb", "no", "nn"] : [String(language.lowercased().prefix { $0 != "-" })])
        func base(_ info: CAPMessage.Info) -> String { String(info.language.lowercased().prefix { $0 != "-" && $0 != "_" }) }
        if language == "pt-BR", let brazil = infos.first(where: { $0.language.lowercased() == "pt-br" }) { return brazil }
        return infos.first { wanted.contains(base($0)) } ?? infos.first { base($0) == "en" } ?? infos.first
    }

    static func alert(_ info: CAPMessage.Info) -> WeatherAlert? {
        let level = AwarenessLevel(info.parameters["awareness_level"])
        guard let title = info.event ?? info.headline, !title.isEmpty else { return nil }
        // Green ("1; green; Minor") is MeteoAlarm's "no warning".
        if let text = info.parameters["awareness_level"], level == nil, text.lowercased().contains("green") { return nil }
        let areas = info.areas.map(\.description).filter { !$0.isEmpty }
        return WeatherAlert(
            title: title, severity: info.severity ?? level?.severity, start: info.onset ?? info.effective, end: info.expires,
            source: info.senderName, description: info.description, uri: info.web, headline: info.headline,
            instruction: info.instruction, urgency: info.urgency, certainty: info.certainty,
            area: areas.isEmpty ? nil : areas.joined(separator: "; "), level: level)
    }
}
