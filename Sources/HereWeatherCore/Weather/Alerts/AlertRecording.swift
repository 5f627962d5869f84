#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Warnings as a cache entry keeps them: the decoded alerts in here-weather's own JSON, so
/// that a cached report keeps what was matched to its point at fetch time. Times are Unix
/// seconds; a missing field is absent.
enum AlertRecording {
    static func object(_ alerts: RegionalAlerts) -> JSONOutput {
        .object([
            ("country", .string(alerts.country)),
            ("local", .array(alerts.local.map(object))),
            ("elsewhere", .array(alerts.elsewhere.map(object))),
        ])
    }

    static func object(_ alert: WeatherAlert) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("title", .string(alert.title))]
        let texts: [(String, String?)] = [
            ("severity", alert.severity), ("source", alert.source), ("description", alert.description),
            ("uri", alert.uri), ("headline", alert.headline), ("instruction", alert.instruction),
            ("urgency", alert.urgency), ("certainty", alert.certainty), ("area", alert.area), ("level", alert.level?.name),
        ]
        for (key, value) in texts { if let value { members.append((key, .string(value))) } }
        if let start = alert.start { members.append(("start", .number(start.timeIntervalSince1970))) }
        if let end = alert.end { members.append(("end", .number(end.timeIntervalSince1970))) }
        return .object(members)
    }

    static func alerts(_ value: JSONValue?) -> RegionalAlerts? {
        guard let value, let country = value["country"]?.string else { return nil }
        return RegionalAlerts(local: (value["local"]?.array ?? []).compactMap(alert),
                              elsewhere: (value["elsewhere"]?.array ?? []).compactMap(alert), country: country)
    }

    static func alert(_ value: JSONValue) -> WeatherAlert? {
        guard let title = value["title"]?.string, !title.isEmpty else { return nil }
        return WeatherAlert(title: title, severity: value["severity"]?.string,
                            start: value["start"]?.unixTime, end: value["end"]?.unixTime,
                            source: value["source"]?.string, description: value["description"]?.string,
                            uri: value["uri"]?.string, headline: value["headline"]?.string,
                            instruction: value["instruction"]?.string, urgency: value["urgency"]?.string,
                            certainty: value["certainty"]?.string, area: value["area"]?.string,
                            level: AwarenessLevel(value["level"]?.string))
    }
}
