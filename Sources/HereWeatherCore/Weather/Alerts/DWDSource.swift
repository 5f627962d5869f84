#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The Deutscher Wetterdienst's warnings for the municipality a point in Germany lies in:
/// its GeoServer's WFS layer `dwd:Warnungen_Gemeinden` (GeoJSON), asked with a CQL point
/// filter (`CONTAINS(THE_GEOM, POINT(lat lon))`, latitude first as EPSG:4326 has it), so
/// only the warnings of that municipality come back.
///
/// DWD writes in German. Under German output its words are shown; under any other, the
/// event is named in the output language from its group (`EC_GROUP`: a wind warning, a
/// thunderstorm warning), with the times, severity and area, and DWD's German texts are left
/// out.
public struct DWDSource: AlertSource {
    public static let defaultBaseURL = "https://maps.dwd.de"
    public let baseURL: String
    public let http: any HTTPClient
    public let coordinateDecimals: Int

    public init(baseURL: String = defaultBaseURL, http: any HTTPClient, coordinateDecimals: Int = defaultCoordinateDecimals) {
        self.baseURL = baseURL
        self.http = http
        self.coordinateDecimals = min(coordinateDecimals, 4)
    }

    public var name: String { "dwd" }

    public func covers(country code: String) -> Bool { code == "DE" }

    public func requestURL(for coordinate: Coordinate) -> String {
        let point = coordinate.rounded(toDecimals: coordinateDecimals)
        let filter = "CONTAINS(THE_GEOM,POINT(\(JSONOutput.format(point.latitude)) \(JSONOutput.format(point.longitude))))"
        return URLText.join(baseURL, path: "/geoserver/dwd/ows", query: [
            ("service", "WFS"), ("version", "2.0.0"), ("request", "GetFeature"),
            ("typeName", "dwd:Warnungen_Gemeinden"), ("outputFormat", "application/json"), ("CQL_FILTER", filter),
        ])
    }

    public func alerts(at coordinate: Coordinate, country: String, language: String,
                       deadline: ContinuousClock.Instant) async throws -> RegionalAlerts {
        let body = try await AlertRequest.json(requestURL(for: coordinate), headers: [], http: http, deadline: deadline)
        return try alerts(fromBody: body, at: coordinate, country: country, language: language)
    }

    public func alerts(fromBody body: JSONValue, at coordinate: Coordinate, country: String, language: String) throws -> RegionalAlerts {
        guard body["features"]?.array != nil else { throw AlertSourceFailure("its answer is not a list of warnings (GeoJSON)") }
        return RegionalAlerts(local: DWDDecoder.alerts(body, german: language == "de"), country: country)
    }
}

/// Decodes `dwd:Warnungen_Gemeinden` features (upper-case CAP properties: EVENT, SEVERITY,
/// URGENCY, CERTAINTY, ONSET, EXPIRES, HEADLINE, DESCRIPTION, INSTRUCTION, SENDERNAME,
/// AREADESC, EC_GROUP, STATUS, MSGTYPE). A warning given for several of the municipality's
/// features (the same IDENTIFIER) is kept once; cancellations and non-"Actual" messages
/// are dropped.
enum DWDDecoder {
    static func alerts(_ body: JSONValue?, german: Bool) -> [WeatherAlert] {
        var seen = Set<String>()
        var alerts: [WeatherAlert] = []
        for feature in body?["features"]?.array ?? [] {
            guard let properties = feature["properties"], properties.isObject else { continue }
            if let identifier = properties["IDENTIFIER"]?.string {
                guard seen.insert(identifier).inserted else { continue }
            }
            if let alert = alert(properties, german: german) { alerts.append(alert) }
        }
        return alerts
    }

    static func alert(_ properties: JSONValue, german: Bool) -> WeatherAlert? {
        if let status = properties["STATUS"]?.string, status != "Actual" { return nil }
        if properties["MSGTYPE"]?.string == "Cancel" { return nil }
        guard let event = properties["EVENT"]?.lineText, !event.isEmpty else { return nil }
        let hazard = Hazard(dwdGroup: properties["EC_GROUP"]?.string)
        let title = german || hazard == nil ? capitalized(event) : (hazard?.englishTitle ?? event)
        return WeatherAlert(
            title: title, severity: properties["SEVERITY"]?.lineText,
            start: NWSTime.date(properties["ONSET"]) ?? NWSTime.date(properties["EFFECTIVE"]),
            end: NWSTime.date(properties["EXPIRES"]),
            source: properties["SENDERNAME"]?.lineText ?? "Deutscher Wetterdienst",
            description: german ? properties["DESCRIPTION"]?.string : nil,
            uri: properties["WEB"]?.string,
            headline: german ? properties["HEADLINE"]?.lineText : nil,
            instruction: german ? properties["INSTRUCTION"]?.string : nil,
            urgency: properties["URGENCY"]?.lineText, certainty: properties["CERTAINTY"]?.lineText,
            area: properties["AREADESC"]?.lineText ?? properties["NAME"]?.lineText)
    }

    /// DWD's upper-case event as a German title: "STURMBÖEN" → "Sturmböen".
    static func capitalized(_ event: String) -> String {
        event.split(separator: " ").map { word in word.prefix(1).uppercased() + word.dropFirst().lowercased() }
            .joined(separator: " ")
    }
}
