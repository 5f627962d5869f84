#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A calendar date and wall-clock time at a fixed UTC offset, as weather services give them.
///
/// Weather services report a location's offset from UTC (`utc_offset_seconds`,
/// `timezone`), so the program formats and parses times with plain arithmetic rather than a
/// time-zone database.
public struct LocalTime: Sendable, Equatable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    /// The instants a time from outside may name, in seconds since 1970: years 1 to 9999 UTC,
    /// what ISO 8601's four digits hold. Every date a service, a header, a cache entry or a
    /// receiver sends is checked against it where it enters (`date(secondsSince1970:)`,
    /// `init?(iso8601:)`, `HTTPFreshness`), and formatting clamps to it, so no arithmetic on
    /// a time can overflow.
    public static let range: ClosedRange<Double> = -62_135_596_800...253_402_300_799
    /// The years a calendar date from outside may have (see `range`).
    public static let years = 1...9999
    /// The offsets from UTC accepted, in seconds: ±18 hours (ISO 8601's and Foundation's
    /// limit; real places are within -12 and +14 hours).
    public static let offsets = -64_800...64_800

    /// The wall-clock time at `date` for a place `utcOffset` seconds east of UTC. A date
    /// beyond `range` is shown at its end; an offset beyond `offsets` at its limit.
    public init(_ date: Date, utcOffset: Int) {
        let seconds = date.timeIntervalSince1970
        let clamped = seconds.isFinite ? min(max(seconds, Self.range.lowerBound), Self.range.upperBound) : 0
        let total = Int(clamped.rounded(.down)) + Self.clamp(utcOffset)
        let days = LocalTime.floorDivide(total, 86_400)
        let secondsOfDay = total - days * 86_400
        (year, month, day) = LocalTime.civilDate(fromDays: days)
        hour = secondsOfDay / 3600
        minute = secondsOfDay % 3600 / 60
        second = secondsOfDay % 60
    }

    /// A time a service sent as seconds since 1970; `nil` when it is not a finite number
    /// within `range`.
    public static func date(secondsSince1970 seconds: Double?) -> Date? {
        guard let seconds, seconds.isFinite, range.contains(seconds) else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// An offset from UTC a service sent, in seconds (rounded); `nil` when it is not a finite
    /// number within `offsets`.
    public static func utcOffset(seconds: Double?) -> Int? {
        guard let seconds, seconds.isFinite, abs(seconds) <= Double(offsets.upperBound) else { return nil }
        return Int(seconds.rounded())
    }

    /// The nominal offset of a longitude, 15° an hour (for services that give none); `nil`
    /// for a longitude outside -180...180.
    public static func nominalOffset(longitude: Double?) -> Int? {
        guard let longitude, longitude.isFinite, (-180...180).contains(longitude) else { return nil }
        return Int((longitude / 15).rounded()) * 3600
    }

    /// `offset` within `offsets`.
    static func clamp(_ offset: Int) -> Int {
        min(max(offset, offsets.lowerBound), offsets.upperBound)
    }

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
    }

    /// The instant this wall-clock time names at `utcOffset` seconds east of UTC.
    /// A year outside `years` is taken as its nearest end, and fields outside their ranges
    /// (a parsed time never has them) are clamped, so the arithmetic cannot overflow.
    public func date(utcOffset: Int) -> Date {
        let year = min(max(self.year, Self.years.lowerBound), Self.years.upperBound)
        let days = LocalTime.days(fromCivilYear: year, month: min(max(month, 1), 12), day: min(max(day, 1), 31))
        let clock = min(max(hour, 0), 24) * 3600 + min(max(minute, 0), 60) * 60 + min(max(second, 0), 61)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + clock - Self.clamp(utcOffset)))
    }

    /// Parses `2026-11-22T14:15`, `2026-11-22T14:15:30` or `2026-11-22` (no offset); `nil`
    /// for anything else, or a year outside `years`.
    public init?(iso8601 text: String) {
        let parts = text.split(separator: "T", maxSplits: 1)
        guard let datePart = parts.first else { return nil }
        let ymd = datePart.split(separator: "-").map { Int($0) }
        guard ymd.count == 3, let year = ymd[0], let month = ymd[1], let day = ymd[2], Self.years.contains(year),
              (1...12).contains(month), (1...LocalTime.daysIn(month: month, year: year)).contains(day) else { return nil }
        var hms = [0, 0, 0]
        if parts.count == 2 {
            let fields = parts[1].split(separator: ":").map { Int($0) }
            guard (2...3).contains(fields.count) else { return nil }
            for (index, field) in fields.enumerated() {
                guard let field else { return nil }
                hms[index] = field
            }
            guard (0...23).contains(hms[0]), (0...59).contains(hms[1]), (0...60).contains(hms[2]) else { return nil }
        }
        self.init(year: year, month: month, day: day, hour: hms[0], minute: hms[1], second: hms[2])
    }

    /// `YYYY-MM-DD`.
    public var dateString: String {
        "\(LocalTime.pad(year, 4))-\(LocalTime.pad(month, 2))-\(LocalTime.pad(day, 2))"
    }

    /// `HH:MM` on a 24-hour clock.
    public var clockString: String {
        "\(LocalTime.pad(hour, 2)):\(LocalTime.pad(minute, 2))"
    }

    /// The day of the week, 0 for Sunday.
    public var weekday: Int {
        let days = LocalTime.days(fromCivilYear: min(max(year, Self.years.lowerBound), Self.years.upperBound),
                                  month: month, day: day)
        return ((days % 7) + 11) % 7  // 1970-01-01 was a Thursday (4)
    }

    /// ISO 8601 with the offset: `2026-11-22T14:15:00-05:00`.
    public static func iso8601(_ date: Date, utcOffset: Int) -> String {
        let utcOffset = clamp(utcOffset)
        let local = LocalTime(date, utcOffset: utcOffset)
        let sign = utcOffset < 0 ? "-" : "+"
        let offset = abs(utcOffset)
        return "\(local.dateString)T\(local.clockString):\(pad(local.second, 2))"
            + "\(sign)\(pad(offset / 3600, 2)):\(pad(offset % 3600 / 60, 2))"
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }

    /// The number of days in `month` of `year` (Gregorian leap years).
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func floorDivide(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    // Howard Hinnant's days-from-civil algorithms (proleptic Gregorian calendar).
    static func days(fromCivilYear year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilDate(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
