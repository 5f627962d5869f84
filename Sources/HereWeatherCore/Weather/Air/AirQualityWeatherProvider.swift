#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Any provider with the air quality at the place added (`AirQualityFetcher`, Open-Meteo's
/// Air Quality API); `[air_quality] enabled = false` leaves it out.
///
/// The air is asked at the same time as the weather and stored with it: the recording is
/// `{"here_weather":"air-quality","report":"<the provider's recording, as a string>",
/// "air_quality":<the air quality body or null>}`, so a cached report keeps its air. A plain
/// recording of the provider (an older cache entry, `--weather-replay`) reads as before,
/// without air. A failed air request costs only the air line, and so does one still going
/// when the weather's grace is over (`CompanionGrace`).
public struct AirQualityWeatherProvider: CompanionWeatherProvider {
    public let base: any WeatherProvider
    public let air: AirQualityFetcher
    /// How long the air may take once the weather has answered.
    public let grace: CompanionGrace

    public init(base: any WeatherProvider, air: AirQualityFetcher, grace: CompanionGrace) {
        self.base = base
        self.air = air
        self.grace = grace
    }

    /// The weather's connections, and one to the air quality service.
    public func preconnect(units: Units, until deadline: ContinuousClock.Instant) {
        base.preconnect(units: units, until: deadline)
        air.http.preconnect(to: air.baseURL, connections: 1, until: deadline)
    }

    public func fetch(_ query: WeatherQuery, revalidating stored: StoredWeather?) async throws -> WeatherFetch {
        let inner = Self.recording.inner(stored)
        let (base, air) = (base, air)
        let (fetched, body) = try await grace.run(.airQuality, deadline: query.deadline) {
            try await base.fetch(query, revalidating: inner)
        } companion: {
            try await air.body(for: query.coordinate, deadline: query.deadline)
        }
        var answer = fetched
        answer.report.airQuality = AirQualityDecoder.decode(body.flatMap { try? JSONValue.parse($0) })
        answer.recording = Self.recording.wrap(answer.recording, body: body)
        return answer
    }

    public func report(fromRecording data: Data, units: Units) throws -> WeatherReport {
        guard let (report, airBody) = Self.recording.unwrap(data) else { return try base.report(fromRecording: data, units: units) }
        var answer = try base.report(fromRecording: report, units: units)
        answer.airQuality = AirQualityDecoder.decode(airBody)
        return answer
    }

    static let recording = CompanionRecording(marker: "air-quality", key: "air_quality", words: "the air quality")
}
