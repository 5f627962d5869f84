/// Decodes api.weather.gov's active alerts (`/alerts/active?point=lat,lon`, GeoJSON): one
/// `WeatherAlert` per feature whose `properties` name an `event`.
///
/// The title is the event ("Flood Warning"); the `headline` ("Flood Warning issued November
/// 26 at 9:12AM EST until November 28 at 2:00PM EST by NWS Tampa Bay Ruskin FL"), the
/// `description` and the `instruction` are kept beside it. The alert runs from `onset` (else
/// `effective`) to `ends` (else `expires`). Only real alerts are kept: `status` "Test",
/// "Exercise", "System" or "Draft" messages are not shown.
enum NWSAlertsDecoder {
    /// The alerts of a body; none for a body that is not a GeoJSON feature collection.
    static func alerts(_ body: JSONValue?) -> [WeatherAlert] {
        (body?["features"]?.array ?? []).compactMap { alert($0["properties"]) }
    }

    static func alert(_ properties: JSONValue?) -> WeatherAlert? {
        guard let properties, let event = properties["event"]?.lineText, !event.isEmpty else { return nil }
        if let status = properties["status"]?.string, status != "Actual" { return nil }
        return WeatherAlert(
            title: event,
            severity: properties["severity"]?.lineText,
            start: NWSTime.date(properties["onset"]) ?? NWSTime.date(properties["effective"]),
            end: NWSTime.date(properties["ends"]) ?? NWSTime.date(properties["expires"]),
            source: properties["senderName"]?.lineText,
            description: properties["description"]?.string,
            uri: properties["@id"]?.string ?? properties["id"]?.string,
            headline: properties["headline"]?.lineText,
            instruction: properties["instruction"]?.string)
    }
}
