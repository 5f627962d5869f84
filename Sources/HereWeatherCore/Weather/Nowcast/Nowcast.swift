#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The precipitation of the next two hours in short steps, as a service forecast it: Open-Meteo's
/// 15-minute data, Pirate Weather's minutes, MET Norway's radar nowcast.
///
/// Intensities are in mm/h whatever the report's units (the rain threshold is one number);
/// the outputs convert them. The rules that read it (when precipitation starts or stops,
/// for how long, how hard) are in `NowcastOutlook`, apart from any I/O.
public struct Nowcast: Sendable, Equatable {
    /// What falls in a step.
    public enum Kind: String, Sendable, Equatable {
        case rain, snow, mixed
    }

    /// One step: from `start` for the nowcast's `stepSeconds`.
    public struct Step: Sendable, Equatable {
        public var start: Date
        /// mm/h; `nil` when the service gave none for the step (a gap in the data).
        public var intensity: Double?
        /// Chance of precipitation, percent, when the service gives one.
        public var probability: Double?
        public var kind: Kind?

        public init(start: Date, intensity: Double?, probability: Double? = nil, kind: Kind? = nil) {
            self.start = start
            self.intensity = intensity
            self.probability = probability
            self.kind = kind
        }
    }

    /// Which data the nowcast is: the name in JSON (`source`) and the words in the text report.
    public enum Source: String, Sendable, Equatable {
        /// Open-Meteo's `minutely_15` (native in Central Europe and North America, interpolated elsewhere).
        case openMeteo = "open-meteo-minutely-15"
        /// Pirate Weather's `minutely` block (Dark Sky format).
        case pirateWeather = "pirateweather-minutely"
        /// MET Norway's radar nowcast (Nowcast 2.0), Nordic countries only.
        case metNorway = "metno-nowcast"

        public var displayName: String {
            switch self {
            case .openMeteo: return "Open-Meteo"
            case .pirateWeather: return "Pirate Weather"
            case .metNorway: return "MET Norway radar"
            }
        }
    }

    /// A step is wet at this intensity or more, in mm/h: what radar and models separate from
    /// a dry sky (Dark Sky called less "very light"; MET Norway's nowcast reports 0.1 steps).
    public static let threshold = 0.1
    /// How far ahead a nowcast is read: two hours.
    public static let horizonSeconds = 7200
    /// A nowcast fetched longer ago than this (15 minutes) is not shown as current.
    public static let currentSeconds = 900.0
    /// The least a nowcast must cover from now (15 minutes): a shorter horizon (steps all at
    /// one time, data that ends in a minute) says nothing worth a line, and is no nowcast.
    public static let minimumHorizonSeconds = 900.0
    /// The most precipitation a step may report, in mm/h: above the heaviest rain measured
    /// (a few hundred mm/h, for minutes), so a step over it is unknown, as a gap is.
    public static let maximumIntensity = 500.0

    public var source: Source
    /// Seconds each step covers (900, 60, 300).
    public var stepSeconds: Int
    /// As the service sent them: possibly unsorted, with duplicates or past steps.
    public var steps: [Step]
    /// The service's "now" for the data: the time a replayed recording is judged at.
    public var issued: Date

    public init(source: Source, stepSeconds: Int, steps: [Step], issued: Date) {
        self.source = source
        self.stepSeconds = max(1, stepSeconds)
        self.steps = steps
        self.issued = issued
    }

    /// Whether `intensity` (mm/h) counts as precipitation.
    public static func isWet(_ intensity: Double) -> Bool { intensity >= threshold }
}

extension WeatherReport {
    /// The nowcast read at `now`: `nil` without one, or when it is not current (fetched more
    /// than 15 minutes before `now`: a cached or stale report) or covers nothing from `now`.
    /// A replayed recording is read at its own time (`Nowcast.issued`), as its hourly table is.
    public func nowcastOutlook(at now: Date) -> NowcastOutlook? {
        guard let nowcast else { return nil }
        if freshness.replayed { return NowcastOutlook(nowcast, at: nowcast.issued) }
        guard nowcastIsCurrent else { return nil }
        return NowcastOutlook(nowcast, at: now)
    }

    /// Whether the nowcast was fetched within the last 15 minutes (`Nowcast.currentSeconds`).
    public var nowcastIsCurrent: Bool {
        nowcast != nil && (freshness.replayed || freshness.ageSeconds <= Nowcast.currentSeconds)
    }
}
