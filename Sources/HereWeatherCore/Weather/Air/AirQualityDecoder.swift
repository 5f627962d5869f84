#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes an Open-Meteo Air Quality API body (`/v1/air-quality?current=...`) into
/// `AirQuality`: its `current` block, times in the place's local time (`utc_offset_seconds`).
///
/// A value that is not a finite number in the service's range is absent: an index below 0 or
/// above 1000, a concentration below 0 or above 100,000. A body with neither index is none.
enum AirQualityDecoder {
    static func decode(_ body: JSONValue?) -> AirQuality? {
        guard let current = body?["current"], current.isObject else { return nil }
        let offset = LocalTime.utcOffset(seconds: body?["utc_offset_seconds"]?.double) ?? 0
        var air = AirQuality(
            time: current["time"]?.date(utcOffset: offset),
            europeanAQI: reading(current["european_aqi"], limit: 1000),
            usAQI: reading(current["us_aqi"], limit: 1000),
            pm2_5: reading(current["pm2_5"], limit: 100_000),
            pm10: reading(current["pm10"], limit: 100_000))
        guard air.europeanAQI != nil || air.usAQI != nil else { return nil }
        let pollen = PollenSpecies.allCases.compactMap { species in
            reading(current["\(species.rawValue)_pollen"], limit: 100_000).map { AirQuality.Pollen(species: species, grains: $0) }
        }
        air.pollen = pollen.isEmpty ? nil : pollen
        return air
    }

    static func reading(_ value: JSONValue?, limit: Double) -> Double? {
        guard let number = value?.double, number.isFinite, number >= 0, number <= limit else { return nil }
        return number
    }
}
