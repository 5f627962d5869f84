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

    /// `value` with exactly `decimals` decimals ("24.3", "1015").
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (abs(value) * scale).rounded() / scale
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

    /// "27.9506°N, 82.4572°W".
    static func coordinate(_ coordinate: Coordinate) -> String {
        let latitude = fixed(abs(coordinate.latitude), 4) + "°" + (coordinate.latitude < 0 ? "S" : "N")
        let longitude = fixed(abs(coordinate.longitude), 4) + "°" + (coordinate.longitude < 0 ? "W" : "E")
        return latitude + ", " + longitude
    }

    /// "±1 km", "±25 m", "accuracy unknown".
    static func accuracy(_ metres: Double?) -> String {
        guard let metres else { return "accuracy unknown" }
        if metres >= 1000 { return "±" + fixed(metres / 1000, metres < 10_000 ? 1 : 0).replacing(".0", with: "") + " km" }
        return "±" + fixed(metres, 0) + " m"
    }

    /// Pads `text` on the right to `width` characters.
    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// "Sun 22 Nov" for a local `YYYY-MM-DD`.
    static func dayLabel(_ date: String) -> String {
        guard let local = LocalTime(iso8601: date) else { return date }
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(weekdays[local.weekday]) \(local.day < 10 ? " " : "")\(local.day) \(months[local.month - 1])"
    }

    /// "14:05" at the report's offset.
    static func clock(_ date: Date?, utcOffset: Int) -> String? {
        date.map { LocalTime($0, utcOffset: utcOffset).clockString }
    }
}
