#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A warning a weather service passes on from a national weather agency (a flood warning,
/// a small craft advisory). Only the title is always there; the rest is what the service gives.
public struct WeatherAlert: Sendable, Equatable {
    /// What it is, the event's name ("Small Craft Advisory"): OpenWeatherMap's and the NWS's
    /// `event`, the start of Pirate Weather's `title`.
    public var title: String
    /// The service's severity word ("Severe", "Moderate"), when it gives one.
    public var severity: String?
    public var start: Date?
    public var end: Date?
    /// Who issued it ("NWS Tampa Bay Ruskin FL").
    public var source: String?
    public var description: String?
    /// A web page with the full text.
    public var uri: String?
    /// The issuer's one-line summary ("Flood Warning issued November 26 at 9:12AM EST until
    /// ... by NWS Tampa Bay Ruskin FL"), when the service gives one apart from the title.
    public var headline: String?
    /// What to do ("Turn around, don't drown when encountering flooded roads."), when given.
    public var instruction: String?

    public init(title: String, severity: String? = nil, start: Date? = nil, end: Date? = nil,
                source: String? = nil, description: String? = nil, uri: String? = nil,
                headline: String? = nil, instruction: String? = nil) {
        self.headline = headline
        self.instruction = instruction
        self.title = title
        self.severity = severity
        self.start = start
        self.end = end
        self.source = source
        self.description = description
        self.uri = uri
    }
}
