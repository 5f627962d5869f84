#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A provider's recording with a companion's answer stored around it, so that a cached report
/// keeps what the companion added: `{"here_weather":"<marker>","report":"<the provider's
/// recording, as a string>","<key>":<the companion's body, or null>}`. The NWS's alerts, the
/// regional warnings and the air quality each wrap with their own marker, one around the other.
struct CompanionRecording: Sendable {
    /// Which companion wrapped the recording ("nws-alerts", "air-quality" ...).
    let marker: String
    /// The key of the companion's body.
    let key: String
    /// What the companion adds, in the words of a file's description ("official alerts").
    let words: String

    /// Every companion's wrapping, for telling what a recording is.
    static var all: [CompanionRecording] {
        [NWSAlertsWeatherProvider.recording, RegionalAlertsWeatherProvider.recording, AirQualityWeatherProvider.recording]
    }

    /// `recording` with `body` (JSON, or none: `null`) around it.
    func wrap(_ recording: Data, body: Data?) -> Data {
        let report = JSONOutput.string(String(decoding: recording, as: UTF8.self)).serialized()
        return Data(#"{"here_weather":"\#(marker)","report":"#.utf8) + Data(report.utf8)
            + Data(#","\#(key)":"#.utf8) + (body ?? Data("null".utf8)) + Data("}".utf8)
    }

    /// The provider's recording and the companion's body of a recording this wrapped; `nil`
    /// for any other (a plain recording, another companion's).
    func unwrap(_ data: Data) -> (report: Data, body: JSONValue?)? {
        // Only a wrapped recording starts with the marker: others are not parsed twice.
        guard data.starts(with: Data(#"{"here_weather":"#.utf8)), let value = try? JSONValue.parse(data),
              value["here_weather"]?.string == marker, let report = value["report"]?.string else { return nil }
        return (Data(report.utf8), value[key])
    }

    /// What a revalidation is given: the provider's own recording inside a stored one.
    func inner(_ stored: StoredWeather?) -> StoredWeather? {
        stored.map { StoredWeather(recording: unwrap($0.recording)?.report ?? $0.recording, lastModified: $0.lastModified) }
    }
}

/// A provider that adds a companion's answer (the NWS's alerts, the regional warnings, the air
/// quality) to `base`'s report: the weather's kind, configuration and connections are `base`'s,
/// unless the companion adds to them.
protocol CompanionWeatherProvider: WeatherProvider {
    var base: any WeatherProvider { get }
}

extension CompanionWeatherProvider {
    public var kind: WeatherProviderKind { base.kind }

    /// The weather's connections: whether the companion is asked may depend on the place.
    public func preconnect(units: Units, until deadline: ContinuousClock.Instant) {
        base.preconnect(units: units, until: deadline)
    }

    public func checkConfigured() throws {
        try base.checkConfigured()
    }

    public func fetch(_ query: WeatherQuery) async throws -> WeatherFetch {
        try await fetch(query, revalidating: nil)
    }
}
