#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A warning a weather service passes on from a national weather agency (a flood warning,
/// a small craft advisory, a yellow wind warning): CAP's fields, where the service gives them.
/// Only the title is always there.
public struct WeatherAlert: Sendable, Equatable {
    /// What it is, the event's name ("Small Craft Advisory"): CAP's `event` (OpenWeatherMap's,
    /// the NWS's, MeteoAlarm's), MET Norway's `eventAwarenessName`, DWD's EVENT, the start of
    /// Pirate Weather's `title`.
    public var title: String
    /// CAP's severity word ("Extreme", "Severe", "Moderate", "Minor"), when given.
    public var severity: String?
    /// CAP's onset (else `effective`).
    public var start: Date?
    /// CAP's `ends` (the NWS), else `expires`.
    public var end: Date?
    /// Who issued it, CAP's `senderName` ("NWS Tampa Bay Ruskin FL", "Deutscher Wetterdienst").
    public var source: String?
    public var description: String?
    /// A web page with the full text.
    public var uri: String?
    /// The issuer's one-line summary ("Flood Warning issued November 26 at 9:12AM EST until
    /// ... by NWS Tampa Bay Ruskin FL"), when the service gives one apart from the title.
    public var headline: String?
    /// What to do ("Turn around, don't drown when encountering flooded roads."), when given.
    public var instruction: String?
    /// CAP's urgency ("Immediate", "Expected", "Future", "Past"), when given.
    public var urgency: String?
    /// CAP's certainty ("Observed", "Likely", "Possible", "Unlikely"), when given.
    public var certainty: String?
    /// The area the issuer named (CAP's `areaDesc`: "Gospić region", "Stadt München").
    public var area: String?
    /// MeteoAlarm's awareness level (MET Norway and MeteoAlarm say it; DWD's and the NWS's
    /// severity maps to none).
    public var level: AwarenessLevel?

    public init(title: String, severity: String? = nil, start: Date? = nil, end: Date? = nil,
                source: String? = nil, description: String? = nil, uri: String? = nil,
                headline: String? = nil, instruction: String? = nil, urgency: String? = nil,
                certainty: String? = nil, area: String? = nil, level: AwarenessLevel? = nil) {
        self.headline = headline
        self.instruction = instruction
        self.title = title
        self.severity = severity
        self.start = start
        self.end = end
        self.source = source
        self.description = description
        self.uri = uri
        self.urgency = urgency
        self.certainty = certainty
        self.area = area
        self.level = level
    }
}

/// MeteoAlarm's awareness levels, which European services share: yellow (be aware), orange
/// (be prepared), red (take action). Green (no warning) is never a warning.
public enum AwarenessLevel: Int, Sendable, Comparable, CaseIterable {
    case yellow = 2
    case orange = 3
    case red = 4

    /// The name JSON gives ("yellow").
    public var name: String {
        switch self {
        case .yellow: return "yellow"
        case .orange: return "orange"
        case .red: return "red"
        }
    }

    /// The CAP severity a level goes with (MeteoAlarm's own table): yellow Moderate, orange
    /// Severe, red Extreme.
    public var severity: String {
        switch self {
        case .yellow: return "Moderate"
        case .orange: return "Severe"
        case .red: return "Extreme"
        }
    }

    /// A level as services write it: MeteoAlarm's and MET Norway's `"3; orange; Severe"`,
    /// `"orange"`, `"3"`; `nil` for green, unknown or anything else.
    public init?(_ text: String?) {
        guard let text else { return nil }
        for part in text.split(separator: ";") {
            let word = part.filter { $0 != " " }.lowercased()
            if let number = Int(word), let level = AwarenessLevel(rawValue: number) { self = level; return }
            if let level = Self.allCases.first(where: { $0.name == word }) { self = level; return }
        }
        return nil
    }

    public static func < (lhs: AwarenessLevel, rhs: AwarenessLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
