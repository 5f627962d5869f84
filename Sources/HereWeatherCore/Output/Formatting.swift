#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Small formatting helpers shared by the text and JSON reports.
enum Formatting {
    static let compassPoints = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE",
                                "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]

    /// The 16-point compass name of a direction in degrees ("NE"), in English: JSON's code.
    static func compass(_ degrees: Double?) -> String? {
        compassIndex(degrees).map { compassPoints[$0] }
    }

    /// The index in `compassPoints` of a direction in degrees.
    static func compassIndex(_ degrees: Double?) -> Int? {
        guard let degrees, degrees.isFinite else { return nil }
        let normalized = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        return Int((normalized / 22.5).rounded()) % 16
    }

    /// `value` with exactly `decimals` decimals ("24.3", "1015"); a value too large for that
    /// (no service means 1e300 °C, but one may send it) as Swift writes it ("1e+300").
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (abs(value) * scale).rounded() / scale
        guard rounded < 1e15 else { return "\(value)" }
        let negative = value < 0 && rounded != 0
        let whole = Int(rounded)
        guard decimals > 0 else { return (negative ? "-" : "") + String(whole) }
        let fraction = Int(((rounded - Double(whole)) * scale).rounded())
        let digits = String(fraction)
        return (negative ? "-" : "") + String(whole) + "." + String(repeating: "0", count: decimals - digits.count) + digits
    }

    /// `value` rounded to 2 decimals, for JSON.
    static func twoDecimals(_ value: Double?) -> Double? {
        value.map { ($0 * 100).rounded() / 100 }
    }

    /// "27.9506°N, 82.4572°W" ("27.9506N, 82.4572W" in ASCII), in `locale`.
    static func coordinate(_ coordinate: Coordinate, _ charset: TextCharset = .utf8,
                           locale: UserLocale = .english) -> String {
        charset.fold(locale.coordinate(coordinate))
    }

    /// "±1 km", "±25 m" ("+/-25 m" in ASCII), "accuracy unknown", in `locale`.
    static func accuracy(_ metres: Double?, _ charset: TextCharset = .utf8, locale: UserLocale = .english) -> String {
        charset.fold(locale.accuracy(metres))
    }

    /// "Sun 22 Nov" for a local `YYYY-MM-DD`, a day of one digit padded ("Tue  1 Dec"), in English.
    static func dayLabel(_ date: String) -> String {
        UserLocale.english.dayLabel(date, padded: true)
    }

    /// "14:05", or "2:05 PM" on a 12-hour clock, at the report's offset, in English.
    static func clock(_ date: Date?, utcOffset: Int, _ clock: ClockFormat = .twentyFourHour) -> String? {
        UserLocale.english.clock(date, utcOffset: utcOffset, clock)
    }

    /// A short hour label for chart columns: "14", or "2p" on a 12-hour clock.
    static func hourLabel(_ date: Date, utcOffset: Int, _ clock: ClockFormat, locale: UserLocale = .english) -> String {
        locale.conventions.hourLabel(LocalTime(date, utcOffset: utcOffset).hour, twelveHour: clock == .twelveHour)
    }

    /// The age of data in a few characters: "now" (under a minute), "5 min", "3 h", "2 d", in English.
    static func age(_ seconds: Double) -> String {
        UserLocale.english.age(seconds)
    }

    static let windArrows = ["↓", "↙", "←", "↖", "↑", "↗", "→", "↘"]

    /// The arrow the wind blows along, as wttr.in draws it: wind from the north is "↓".
    static func windArrow(_ degrees: Double?) -> String? {
        guard let degrees, degrees.isFinite else { return nil }
        let normalized = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        return windArrows[Int((normalized + 22.5) / 45) % 8]
    }
}

/// The `[output] clock` setting: a 24- or 12-hour clock for every time shown as text. Named
/// apart from Swift's `Clock` (and the run's `RunClock`), which keep time.
public typealias ClockFormat = Configuration.OutputSettings.ClockFormat
