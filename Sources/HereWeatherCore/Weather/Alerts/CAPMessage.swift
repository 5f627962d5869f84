#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A Common Alerting Protocol 1.2 message as JSON carries it (MeteoAlarm's feeds: CAP's
/// element names as keys, repeated elements as arrays): the message's identity and kind, and
/// one `Info` per language.
struct CAPMessage: Equatable {
    var identifier: String
    var sender: String?
    var sent: String?
    /// "Alert", "Update", "Cancel" (also "Ack", "Error").
    var messageType: String
    /// "Actual", "Exercise", "System", "Test", "Draft".
    var status: String
    /// The messages this one updates or cancels: CAP's "sender,identifier,sent" triples.
    var references: [String]
    var infos: [Info]

    /// One language's version of the message.
    struct Info: Equatable {
        var language: String
        var event: String?
        var urgency: String?
        var severity: String?
        var certainty: String?
        var onset: Date?
        var effective: Date?
        var expires: Date?
        var senderName: String?
        var headline: String?
        var description: String?
        var instruction: String?
        var web: String?
        /// CAP `parameter`s by `valueName` (MeteoAlarm's `awareness_level`, `awareness_type`).
        var parameters: [String: String]
        var areas: [Area]
    }

    /// One area of an info: its description, polygons (each a ring of latitude, longitude
    /// pairs) and geocodes.
    struct Area: Equatable {
        var description: String
        var polygons: [[Coordinate]]
        var geocodes: [String: [String]]
    }

    /// The identifier CAP's `references` name this message by: "sender,identifier,sent".
    var reference: String { [sender ?? "", identifier, sent ?? ""].joined(separator: ",") }
}

/// Reads CAP 1.2 in JSON (`alert` objects, MeteoAlarm's form). A value CAP allows more than
/// once may be an array or a single value; a message without an identifier or an info with
/// no language is skipped.
enum CAPDecoder {
    static func message(_ alert: JSONValue?) -> CAPMessage? {
        guard let alert, alert.isObject, let identifier = alert["identifier"]?.lineText, !identifier.isEmpty else { return nil }
        let references = (alert["references"]?.string ?? "").split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
            .map(String.init)
        return CAPMessage(identifier: identifier, sender: alert["sender"]?.lineText, sent: alert["sent"]?.lineText,
                          messageType: alert["msgType"]?.string ?? "Alert", status: alert["status"]?.string ?? "Actual",
                          references: references, infos: many(alert["info"]).compactMap(info))
    }

    static func info(_ value: JSONValue) -> CAPMessage.Info? {
        guard value.isObject else { return nil }
        var parameters: [String: String] = [:]
        for parameter in many(value["parameter"]) {
            if let name = parameter["valueName"]?.string, let text = parameter["value"]?.string { parameters[name] = text }
        }
        return CAPMessage.Info(
            language: value["language"]?.string ?? "en-US", event: value["event"]?.lineText,
            urgency: value["urgency"]?.lineText, severity: value["severity"]?.lineText, certainty: value["certainty"]?.lineText,
            onset: NWSTime.date(value["onset"]), effective: NWSTime.date(value["effective"]),
            expires: NWSTime.date(value["expires"]), senderName: value["senderName"]?.lineText,
            headline: value["headline"]?.lineText, description: value["description"]?.string,
            instruction: value["instruction"]?.string, web: value["web"]?.string,
            parameters: parameters, areas: many(value["area"]).compactMap(area))
    }

    static func area(_ value: JSONValue) -> CAPMessage.Area? {
        guard value.isObject else { return nil }
        var geocodes: [String: [String]] = [:]
        for code in many(value["geocode"]) {
            if let name = code["valueName"]?.string, let text = code["value"]?.string { geocodes[name, default: []].append(text) }
        }
        return CAPMessage.Area(description: value["areaDesc"]?.lineText ?? "",
                               polygons: many(value["polygon"]).compactMap { $0.string.flatMap(polygon) },
                               geocodes: geocodes)
    }

    /// CAP's polygon: "lat,lon lat,lon ..." (at least four pairs, the first repeated last);
    /// `nil` when a pair is not two numbers in range or there are fewer than three points.
    static func polygon(_ text: String) -> [Coordinate]? {
        var ring: [Coordinate] = []
        for pair in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
            let parts = pair.split(separator: ",")
            guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
                  (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
            ring.append(Coordinate(latitude: latitude, longitude: longitude))
            guard ring.count <= 100_000 else { return nil }
        }
        return ring.count >= 3 ? ring : nil
    }

    /// A CAP element that may repeat: an array's elements, or the one value.
    static func many(_ value: JSONValue?) -> [JSONValue] {
        guard let value else { return [] }
        if let array = value.array { return array }
        if case .null = value { return [] }
        return [value]
    }

    /// Whether `point` lies inside `ring` (even-odd rule, in degrees; rings of warning areas
    /// are small enough for that).
    static func contains(_ ring: [Coordinate], _ point: Coordinate) -> Bool {
        var inside = false
        var previous = ring[ring.count - 1]
        for vertex in ring {
            if (vertex.latitude > point.latitude) != (previous.latitude > point.latitude) {
                let crossing = (previous.longitude - vertex.longitude) * (point.latitude - vertex.latitude)
                    / (previous.latitude - vertex.latitude) + vertex.longitude
                if point.longitude < crossing { inside.toggle() }
            }
            previous = vertex
        }
        return inside
    }
}
