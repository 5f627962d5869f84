#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HereWeatherPlaces

/// The UV index, the air quality, pollen and the moon as short strings and report lines.
extension ReportFields {
    /// The UV index as a whole number (wttr.in's `%u`): "4"; "-" when the provider gives none.
    public var uvIndex: String {
        report.current.uvIndex.map { locale.number($0, 0) } ?? Self.missing
    }

    /// The moon's phase now, as a glyph (`%m`): "🌔"; with ASCII icons a bracket ("0").
    public var moonGlyph: String {
        let phase = MoonPhase(at: now).phase
        return output.icons == .ascii ? phase.ascii : phase.emoji
    }

    /// The moon's age in whole days (`%M`): "12".
    public var moonDay: String { String(MoonPhase(at: now).day) }

    /// The air quality by the place's convention (`%q`): "32 fair"; "-" without it.
    public var airQuality: String {
        guard let reading = airReading else { return Self.missing }
        return locale.number(reading.index, 0) + " " + reading.category
    }

    /// "UV index 4 (moderate)", with WHO's category; `nil` without an index.
    public var uvLine: String? {
        report.current.uvIndex.map { locale.text(.reportUv, locale.number($0, 0), Self.uvWords($0, locale: locale)) }
    }

    /// WHO's category of `index` in the run's language.
    static func uvWords(_ index: Double, locale: UserLocale) -> String {
        switch UVIndex.category(index) {
        case .low: return locale.text(.uvLow)
        case .moderate: return locale.text(.uvModerate)
        case .high: return locale.text(.uvHigh)
        case .veryHigh: return locale.text(.uvVeryHigh)
        case .extreme: return locale.text(.uvExtreme)
        }
    }

    /// "Air quality: fair (European index 32)" in Europe, "Air quality: moderate (US AQI 62)"
    /// elsewhere (`AirQualityConvention`); `nil` without air quality.
    public var airLine: String? {
        guard let reading = airReading else { return nil }
        let number = locale.number(reading.index, 0)
        return reading.european ? locale.text(.reportAirEuropean, reading.category, number)
            : locale.text(.reportAirUs, reading.category, number)
    }

    /// "Pollen: birch high, grass moderate": the species above "low"; `nil` when none is.
    public var pollenLine: String? {
        let notable = report.airQuality?.notablePollen ?? []
        guard !notable.isEmpty else { return nil }
        let items = notable.map { locale.text(.pollenItem, Self.speciesWords($0.species, locale: locale),
                                              Self.levelWords($0.level, locale: locale)) }
        return locale.text(.reportPollen, items.joined(separator: locale.text(.listSeparator)))
    }

    /// The index of the place's convention, its category in words, and whether it is the
    /// European one; `nil` when the report has no air quality or no index of that kind.
    var airReading: (index: Double, category: String, european: Bool)? {
        guard let air = report.airQuality else { return nil }
        let european = AirQualityConvention.usesEuropeanIndex(location: location, report: report)
        if european, let index = air.europeanAQI {
            return (index, Self.europeanWords(AirQuality.EuropeanCategory(index), locale: locale), true)
        }
        if let index = air.usAQI { return (index, Self.usWords(AirQuality.USCategory(index), locale: locale), false) }
        if let index = air.europeanAQI {
            return (index, Self.europeanWords(AirQuality.EuropeanCategory(index), locale: locale), true)
        }
        return nil
    }

    static func europeanWords(_ category: AirQuality.EuropeanCategory, locale: UserLocale) -> String {
        switch category {
        case .good: return locale.text(.aqiEuGood)
        case .fair: return locale.text(.aqiEuFair)
        case .moderate: return locale.text(.aqiEuModerate)
        case .poor: return locale.text(.aqiEuPoor)
        case .veryPoor: return locale.text(.aqiEuVeryPoor)
        case .extremelyPoor: return locale.text(.aqiEuExtremelyPoor)
        }
    }

    static func usWords(_ category: AirQuality.USCategory, locale: UserLocale) -> String {
        switch category {
        case .good: return locale.text(.aqiUsGood)
        case .moderate: return locale.text(.aqiUsModerate)
        case .unhealthyForSensitiveGroups: return locale.text(.aqiUsSensitive)
        case .unhealthy: return locale.text(.aqiUsUnhealthy)
        case .veryUnhealthy: return locale.text(.aqiUsVeryUnhealthy)
        case .hazardous: return locale.text(.aqiUsHazardous)
        }
    }

    static func speciesWords(_ species: PollenSpecies, locale: UserLocale) -> String {
        switch species {
        case .alder: return locale.text(.pollenAlder)
        case .birch: return locale.text(.pollenBirch)
        case .grass: return locale.text(.pollenGrass)
        case .mugwort: return locale.text(.pollenMugwort)
        case .olive: return locale.text(.pollenOlive)
        case .ragweed: return locale.text(.pollenRagweed)
        }
    }

    static func levelWords(_ level: PollenLevel, locale: UserLocale) -> String {
        switch level {
        case .none, .low: return locale.text(.pollenLevelLow)
        case .moderate: return locale.text(.pollenLevelModerate)
        case .high: return locale.text(.pollenLevelHigh)
        case .veryHigh: return locale.text(.pollenLevelVeryHigh)
        }
    }
}

/// Which air quality index a place reads: the European index in Europe, the US AQI elsewhere.
///
/// "Europe" is decided from the country of the offline place lookup (`Location.nearbyPlace`,
/// GeoNames: nothing is sent), else the provider's country; without either, from the CAMS
/// European model's domain (25° W to 45° E, 30° N to 72° N), where Open-Meteo's European
/// values come from.
public enum AirQualityConvention {
    /// Europe's countries (ISO 3166-1), those of the European Environment Agency's index and
    /// their neighbours on the continent.
    static let europe: Set<String> = [
        "AD", "AL", "AT", "AX", "BA", "BE", "BG", "BY", "CH", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FO", "FR",
        "GB", "GG", "GI", "GR", "HR", "HU", "IE", "IM", "IS", "IT", "JE", "LI", "LT", "LU", "LV", "MC", "MD", "ME",
        "MK", "MT", "NL", "NO", "PL", "PT", "RO", "RS", "RU", "SE", "SI", "SJ", "SK", "SM", "TR", "UA", "VA", "XK",
    ]

    public static func usesEuropeanIndex(location: Location, report: WeatherReport) -> Bool {
        if let country = location.nearbyPlace?.countryCode ?? report.country, country.count == 2 {
            return europe.contains(country.uppercased())
        }
        let point = location.coordinate
        return (-25...45).contains(point.longitude) && (30...72).contains(point.latitude)
    }
}
