#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Small formatting helpers shared by the text and JSON reports.
enum Formatting {
    static let compassPoints = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE",
                                "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]

    /// The 16-point compass name of a direction in degrees ("NE").
    static func compass(_ degrees: Double?) -> String? {
        guard let degrees, degrees.isFinite else { return nil }
        let normalized = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        return compassPoints[Int((normalized / 22.5).rounded()) % 16]
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

    /// "27.9506°N, 82.4572°W" ("27.9506N, 82.4572W" in ASCII).
    static func coordinate(_ coordinate: Coordinate, _ charset: TextCharset = .utf8) -> String {
        let latitude = fixed(abs(coordinate.latitude), 4) + charset.degree + (coordinate.latitude < 0 ? "S" : "N")
        let longitude = fixed(abs(coordinate.longitude), 4) + charset.degree + (coordinate.longitude < 0 ? "W" : "E")
        return latitude + ", " + longitude
    }

    /// "±1 km", "±25 m" ("+/-25 m" in ASCII), "accuracy unknown".
    static func accuracy(_ metres: Double?, _ charset: TextCharset = .utf8) -> String {
        guard let metres else { return "accuracy unknown" }
        let sign = charset.plusMinus
        if metres >= 1000 { return sign + fixed(metres / 1000, metres < 10_000 ? 1 : 0).replacing(".0", with: "") + " km" }
        return sign + fixed(metres, 0) + " m"
    }

    /// "Sun 22 Nov" for a local `YYYY-MM-DD`.
    static func dayLabel(_ date: String) -> String {
        guard let local = LocalTime(iso8601: date) else { return date }
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(weekdays[local.weekday]) \(local.day < 10 ? " " : "")\(local.day) \(months[local.month - 1])"
    }

    /// "14:05", or "2:05 PM" on a 12-hour clock, at the report's offset.
    static func clock(_ date: Date?, utcOffset: Int, _ clock: ClockFormat = .twentyFourHour) -> String? {
        date.map {
            let local = LocalTime($0, utcOffset: utcOffset)
            guard clock == .twelveHour else { return local.clockString }
            let hour = local.hour % 12 == 0 ? 12 : local.hour % 12
            return "\(hour):\(LocalTime.pad(local.minute, 2)) \(local.hour < 12 ? "AM" : "PM")"
        }
    }

    /// A short hour label for chart columns: "14", or "2p" on a 12-hour clock.
    static func hourLabel(_ date: Date, utcOffset: Int, _ clock: ClockFormat) -> String {
        let hour = LocalTime(date, utcOffset: utcOffset).hour
        guard clock == .twelveHour else { return LocalTime.pad(hour, 2) }
        return "\(hour % 12 == 0 ? 12 : hour % 12)\(hour < 12 ? "a" : "p")"
    }

    /// The age of data in a few characters: "now" (under a minute), "5 min", "3 h", "2 d".
    static func age(_ seconds: Double) -> String {
        let whole = seconds.isFinite ? Int(min(max(0, seconds), 1e15).rounded(.down)) : 0
        if whole < 60 { return "now" }
        if whole < 7200 { return "\(whole / 60) min" }
        if whole < 172_800 { return "\(whole / 3600) h" }
        return "\(whole / 86_400) d"
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
