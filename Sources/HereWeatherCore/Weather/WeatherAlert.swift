#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A warning a weather service passes on from a national weather agency (a flood warning,
/// a small craft advisory). Only the title is always there; the rest is what the service gives.
public struct WeatherAlert: Sendable, Equatable {
    /// What it is: Pirate Weather's `title`, OpenWeatherMap's `event`.
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

    public init(title: String, severity: String? = nil, start: Date? = nil, end: Date? = nil,
                source: String? = nil, description: String? = nil, uri: String? = nil) {
        self.title = title
        self.severity = severity
        self.start = start
        self.end = end
        self.source = source
        self.description = description
        self.uri = uri
    }
}
