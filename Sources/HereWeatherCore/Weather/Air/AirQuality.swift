#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The air at a place now, from Open-Meteo's Air Quality API (`AirQualityFetcher`): both
/// indexes as the service computes them, the particles, and pollen where the service has it
/// (Europe, in season).
///
/// The indexes follow the scales Open-Meteo documents: the European index's bands of 20
/// (`EuropeanCategory`) and the US EPA's six categories (`USCategory`), both from the
/// pollutants' concentrations, with the service's thresholds (docs/weather.md says which).
public struct AirQuality: Sendable, Equatable {
    /// When the values are for (the service's current hour), if it says.
    public var time: Date?
    /// The European Air Quality Index: 0-20 good ... above 100 extremely poor.
    public var europeanAQI: Double?
    /// The US EPA's AQI: 0-50 good ... 301-500 hazardous.
    public var usAQI: Double?
    /// Fine particles, µg/m³.
    public var pm2_5: Double?
    /// Particles, µg/m³.
    public var pm10: Double?
    /// The pollen counts the service gave, in grains/m³; `nil` when it gave none at all
    /// (outside Europe, where every species is null).
    public var pollen: [Pollen]?

    public init(time: Date? = nil, europeanAQI: Double? = nil, usAQI: Double? = nil, pm2_5: Double? = nil,
                pm10: Double? = nil, pollen: [Pollen]? = nil) {
        self.time = time
        self.europeanAQI = europeanAQI
        self.usAQI = usAQI
        self.pm2_5 = pm2_5
        self.pm10 = pm10
        self.pollen = pollen
    }

    /// One species' count.
    public struct Pollen: Sendable, Equatable {
        public var species: PollenSpecies
        /// Grains per cubic metre.
        public var grains: Double

        public init(species: PollenSpecies, grains: Double) {
            self.species = species
            self.grains = grains
        }

        /// The count's level on the US National Allergy Bureau's scale (`PollenSpecies.level`).
        public var level: PollenLevel { species.level(grains) }
    }

    /// The European index's six bands (Open-Meteo's and the EEA's names).
    public enum EuropeanCategory: String, Sendable, CaseIterable {
        case good, fair, moderate, poor, veryPoor = "very_poor", extremelyPoor = "extremely_poor"

        /// The band of `index`: 0-20 good, 20-40 fair, 40-60 moderate, 60-80 poor, 80-100 very
        /// poor, above 100 extremely poor (a value on a boundary is in the band above it).
        public init(_ index: Double) {
            switch index {
            case ..<20: self = .good
            case ..<40: self = .fair
            case ..<60: self = .moderate
            case ..<80: self = .poor
            case ...100: self = .veryPoor
            default: self = .extremelyPoor
            }
        }
    }

    /// The US EPA's six categories.
    public enum USCategory: String, Sendable, CaseIterable {
        case good, moderate, unhealthyForSensitiveGroups = "unhealthy_for_sensitive_groups", unhealthy,
             veryUnhealthy = "very_unhealthy", hazardous

        /// The category of `index` (rounded to a whole number, as the EPA reports it): 0-50,
        /// 51-100, 101-150, 151-200, 201-300, 301 and up.
        public init(_ index: Double) {
            switch index.rounded() {
            case ...50: self = .good
            case ...100: self = .moderate
            case ...150: self = .unhealthyForSensitiveGroups
            case ...200: self = .unhealthy
            case ...300: self = .veryUnhealthy
            default: self = .hazardous
            }
        }
    }

    /// Whether the air is poor for a status bar's class `air-poor`: the European index 60 or
    /// more ("poor"), or the US AQI 151 or more ("unhealthy").
    public var isPoor: Bool {
        (europeanAQI.map { $0 >= 60 } ?? false) || (usAQI.map { $0.rounded() >= 151 } ?? false)
    }

    /// The species above "low", highest level first (the service's order among equals).
    public var notablePollen: [Pollen] {
        (pollen ?? []).filter { $0.level > .low }.enumerated()
            .sorted { ($0.element.level, -$0.offset) > ($1.element.level, -$1.offset) }.map(\.element)
    }
}

/// The pollen species Open-Meteo's Air Quality API reports (in Europe).
public enum PollenSpecies: String, Sendable, CaseIterable {
    case alder, birch, grass, mugwort, olive, ragweed

    /// The US National Allergy Bureau's (AAAAI) count thresholds, in grains/m³, for the
    /// species' group: trees (alder, birch, olive) low 1-14, moderate 15-89, high 90-1499,
    /// very high 1500+; grass 1-4, 5-19, 20-199, 200+; weeds (mugwort, ragweed) 1-9, 10-49,
    /// 50-499, 500+. Below 1, none.
    public func level(_ grains: Double) -> PollenLevel {
        let bounds: (moderate: Double, high: Double, veryHigh: Double)
        switch self {
        case .alder, .birch, .olive: bounds = (15, 90, 1500)
        case .grass: bounds = (5, 20, 200)
        case .mugwort, .ragweed: bounds = (10, 50, 500)
        }
        switch grains {
        case ..<1: return .none
        case ..<bounds.moderate: return .low
        case ..<bounds.high: return .moderate
        case ..<bounds.veryHigh: return .high
        default: return .veryHigh
        }
    }
}

/// A pollen count's level.
public enum PollenLevel: Int, Sendable, Comparable, CaseIterable {
    case none, low, moderate, high, veryHigh

    public static func < (lhs: PollenLevel, rhs: PollenLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
