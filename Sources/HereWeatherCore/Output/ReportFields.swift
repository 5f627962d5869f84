#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HereWeatherPlaces

/// The current conditions as short strings, for one-line formats and the status-bar tooltip.
///
/// Values are compact, like wttr.in's one-line codes ("26.8°C", "↙4.9m/s", "65%"); anything
/// the provider did not give is "-". Times follow `[output] clock`; glyphs `[output] icons`.
public struct ReportFields: Sendable {
    public var location: Location
    public var report: WeatherReport
    public var output: Configuration.OutputSettings
    /// The time ages are measured against (GPS fix age in `provenance`).
    public var now: Date

    public init(location: Location, report: WeatherReport,
                output: Configuration.OutputSettings = Configuration.OutputSettings(), now: Date) {
        self.location = location
        self.report = report
        self.output = output
        self.now = now
    }

    static let missing = "-"

    /// The place: the location's name, the nearest populated place ("near Tampa, Florida, US
    /// (3 km NE)"), the provider's (with its country: only where no town is within 100 km or
    /// place names are off), or the coordinates. The offline place comes before the provider's
    /// so that a point has one name whatever the provider (OpenWeatherMap and the NWS said
    /// "Tampa, US" where the others said "near Tampa, Florida, US"; issue 35 D24).
    public var place: String {
        if let name = location.name { return charset.fold(name) }
        if let nearby = location.nearbyPlace { return charset.fold(locale.nearby(nearby)) }
        if let name = report.placeName {
            return charset.fold(report.country.map { "\(name), \($0)" } ?? name)
        }
        return Formatting.coordinate(location.coordinate, charset, locale: locale)
    }

    /// The characters the fields are in (`TextCharset`, from `output`).
    public var charset: TextCharset { output.charset }

    /// The language and customs the fields are written in.
    public var locale: UserLocale { output.locale }

    /// The condition's glyph in the configured set, day or night.
    public var glyph: String { report.current.condition.glyph(output.icons, isDay: report.current.isDay) }

    /// wttr.in's plain-text symbol ("o", "m", "/"), whatever the glyph set.
    public var plainSymbol: String { report.current.condition.glyph(.ascii, isDay: report.current.isDay) }

    /// The words for the condition: the provider's in English ("Mainly clear"), the
    /// catalogue's in other languages (`UserLocale.conditionWords`).
    public var conditionWords: String {
        charset.fold(locale.conditionWords(report.current.condition, report.current.description))
    }

    public var temperature: String { compactTemperature(report.current.temperature) }
    public var feelsLike: String { compactTemperature(report.current.feelsLike) }

    /// "↙4.9m/s": the arrow the wind blows along, then the speed ("NNE 4.9m/s" with ASCII icons).
    public var wind: String {
        guard let speed = report.current.windSpeed else { return Self.missing }
        let text = locale.speed(speed, report.units, compact: true)
        let direction = report.current.windDirection
        if output.icons == .ascii {
            return locale.compass(direction).map { "\($0) \(text)" } ?? text
        }
        return (Formatting.windArrow(direction) ?? "") + text
    }

    public var humidity: String {
        report.current.humidity.map(locale.percent) ?? Self.missing
    }

    /// The amount the provider reports for its latest period ("0.0mm", "0.02in").
    public var precipitation: String {
        guard let total = report.current.precipitation?.total else { return Self.missing }
        return locale.amount(total, report.units, compact: true)
    }

    public var pressure: String {
        report.current.pressure.map { locale.measure(locale.number($0, 0), .unitHectopascals, compact: true) } ?? Self.missing
    }

    public var sunrise: String { clock(report.current.sunrise) ?? Self.missing }
    public var sunset: String { clock(report.current.sunset) ?? Self.missing }

    /// Where the location came from: `Provenance.text`.
    public var provenance: String { Provenance.text(location, now: now, charset: charset, locale: locale) }

    /// The same beside `place`, which names a named fixed location or a city found by name
    /// already: only how it was had ("fixed location, ±0 m", "city search"), not the name again.
    public var provenanceBesidePlace: String {
        if location.source == .fixed && location.name != nil {
            return charset.fold(locale.text(.provenanceFixedNamed, locale.accuracy(location.horizontalAccuracy)))
        }
        if case .city = location.origin, location.name != nil { return charset.fold(locale.text(.sourceCity)) }
        return provenance
    }

    /// How old the weather data is: "now", "5 min", "3 h".
    public var age: String { locale.age(report.freshness.ageSeconds) }

    /// "(offline 3 h)" for a stale report (an old one, shown because the service could not be
    /// reached); "" for any other.
    public var staleMarker: String {
        guard report.freshness.stale else { return "" }
        return report.freshness.ageSeconds >= 60 ? locale.text(.fieldsOfflineFor, age) : locale.text(.fieldsOffline)
    }

    /// The warning for a report shown in place of a failed refresh: "not refreshed, showing
    /// the report from 3 min ago: Cannot reach Open-Meteo: ...", one line; `nil` for others.
    public static func refreshWarning(_ report: WeatherReport) -> String? {
        guard let failure = report.freshness.refreshFailure else { return nil }
        return "not refreshed, showing the report from \(LocationReport.ageText(report.freshness.ageSeconds)) ago: "
            + ServiceText.oneLine(failure) + "."
    }

    /// The weather alerts in a few words ("Small Craft Advisory +1"); "" when there are none.
    public var alerts: String { charset.fold(AlertText.short(report.alerts, locale: locale)) }

    /// A time at the report's offset on the configured clock.
    public func clock(_ date: Date?) -> String? {
        locale.clock(date, utcOffset: report.utcOffset, output.clock)
    }

    func compactTemperature(_ value: Double?) -> String {
        value.map { locale.number($0, 1) + charset.temperatureSymbol(report.units) } ?? Self.missing
    }
}
