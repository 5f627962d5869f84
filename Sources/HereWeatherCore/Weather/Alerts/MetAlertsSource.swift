#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// MET Norway's MetAlerts 2.0: the warnings in force at a point in Norway, land and sea
/// (`/weatherapi/metalerts/2.0/current.json?lat=&lon=&lang=`), in Norwegian under a
/// Norwegian output language, else in English. MET filters by point itself: what it returns
/// is local.
///
/// MET's terms ask for an identifying User-Agent: `[weather.metno] contact` when set (as the
/// forecast sends), else the program's own, which names its project page.
public struct MetAlertsSource: AlertSource {
    public let baseURL: String
    public let contact: String?
    public let http: any HTTPClient
    /// Decimals of the point sent (`[privacy] coordinate_decimals`, at most 4 as MET asks).
    public let coordinateDecimals: Int

    public init(baseURL: String, contact: String?, http: any HTTPClient, coordinateDecimals: Int = defaultCoordinateDecimals) {
        self.baseURL = baseURL
        self.contact = ContactRule.contact(contact)
        self.http = http
        self.coordinateDecimals = min(coordinateDecimals, 4)
    }

    public var name: String { "metno" }

    public func covers(country code: String) -> Bool {
        // Svalbard and Jan Mayen are MET's too.
        code == "NO" || code == "SJ"
    }

    /// `here-weather/<version> <contact>`, else the program's identifying User-Agent.
    public var userAgent: String {
        contact.map { "here-weather/\(HereWeatherVersion.current) \($0)" } ?? HTTPRequest.defaultUserAgent
    }

    /// "no" for a Norwegian output language (bokmål, nynorsk), else "en".
    public static func language(_ code: String) -> String {
        ["nb", "nn", "no"].contains(code) ? "no" : "en"
    }

    public func requestURL(for coordinate: Coordinate, language: String) -> String {
        let point = coordinate.rounded(toDecimals: coordinateDecimals)
        return URLText.join(baseURL, path: "/weatherapi/metalerts/2.0/current.json", query: [
            ("lat", JSONOutput.format(point.latitude)), ("lon", JSONOutput.format(point.longitude)),
            ("lang", Self.language(language)),
        ])
    }

    public func alerts(at coordinate: Coordinate, country: String, language: String,
                       deadline: ContinuousClock.Instant) async throws -> RegionalAlerts {
        let body = try await AlertRequest.json(requestURL(for: coordinate, language: language),
                                               headers: [("User-Agent", userAgent)], http: http, deadline: deadline)
        return try alerts(fromBody: body, at: coordinate, country: country, language: language)
    }

    public func alerts(fromBody body: JSONValue, at coordinate: Coordinate, country: String, language: String) throws -> RegionalAlerts {
        guard body["features"]?.array != nil else { throw AlertSourceFailure("its answer is not a list of warnings (GeoJSON)") }
        return RegionalAlerts(local: MetAlertsDecoder.alerts(body), country: country)
    }
}

/// Decodes MetAlerts 2.0 GeoJSON: one `WeatherAlert` per feature. The title is the event's
/// name in the language asked (`eventAwarenessName`: "Gale", "Kuling"), the headline MET's
/// `title`; the time is `when.interval`. Only `status` "Actual" warnings that are not a
/// cancellation are kept.
enum MetAlertsDecoder {
    static let sender = "MET Norway"

    static func alerts(_ body: JSONValue?) -> [WeatherAlert] {
        (body?["features"]?.array ?? []).compactMap(alert)
    }

    static func alert(_ feature: JSONValue) -> WeatherAlert? {
        guard let properties = feature["properties"], properties.isObject else { return nil }
        if let status = properties["status"]?.string, status != "Actual" { return nil }
        if properties["type"]?.string == "Cancel" { return nil }
        guard let title = properties["eventAwarenessName"]?.lineText ?? properties["event"]?.lineText, !title.isEmpty else {
            return nil
        }
        let level = AwarenessLevel(properties["awareness_level"]?.string)
        let interval = feature["when"]?["interval"]
        var description = properties["description"]?.string
        if let consequences = properties["consequences"]?.string, !consequences.isEmpty {
            description = [description, consequences].compactMap { $0 }.joined(separator: "\n\n")
        }
        return WeatherAlert(
            title: title, severity: properties["severity"]?.lineText ?? level?.severity,
            start: NWSTime.date(interval?[0]), end: NWSTime.date(interval?[1]) ?? NWSTime.date(properties["eventEndingTime"]),
            source: sender, description: description, uri: properties["web"]?.string,
            headline: properties["title"]?.lineText, instruction: properties["instruction"]?.string,
            urgency: properties["urgency"]?.lineText, certainty: properties["certainty"]?.lineText,
            area: properties["area"]?.lineText, level: level)
    }
}
