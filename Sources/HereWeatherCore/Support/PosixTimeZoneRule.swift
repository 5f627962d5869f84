#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The POSIX `TZ` rule at the end of a TZif file, which gives the offset after its last
/// transition: `JST-9` (no daylight saving), `CST6CDT,M3.2.0,M11.1.0`,
/// `<-03>3`, `AEST-10AEDT,M10.1.0,M4.1.0/3`.
///
/// Offsets are written west-positive, as POSIX does. Only the `Mm.w.d` form of rule dates is
/// read (every zone in the tz database uses it); a rule in another form gives `nil`.
struct PosixTimeZoneRule: Sendable, Equatable {
    /// A rule date: day `weekday` (0 Sunday) of week `week` (5: the last) of `month`, at
    /// `seconds` after local midnight.
    struct Change: Sendable, Equatable {
        var month: Int
        var week: Int
        var weekday: Int
        var seconds = 7200
    }

    /// Standard and daylight-saving offsets, seconds east of UTC.
    var standard: Int
    var daylight: Int?
    var start: Change?
    var end: Change?

    init?(_ text: String) {
        var scanner = Scanner(text: Array(text.unicodeScalars))
        guard scanner.name(), let standard = scanner.offset() else { return nil }
        self.standard = -standard
        guard !scanner.atEnd else { return }
        guard scanner.name() else { return nil }
        let daylight = scanner.peek == "," ? standard - 3600 : scanner.offset()
        guard let daylight, scanner.take(","), let start = scanner.change(), scanner.take(","), let end = scanner.change(),
              scanner.atEnd else { return nil }
        (self.daylight, self.start, self.end) = (-daylight, start, end)
    }

    /// The offset at `time` (seconds since 1970).
    func utcOffset(at time: Int64) -> Int {
        guard let daylight, let start, let end else { return standard }
        let year = LocalTime(Date(timeIntervalSince1970: Double(time)), utcOffset: standard).year
        let begins = instant(of: start, year: year, offsetBefore: standard)
        let ends = instant(of: end, year: year, offsetBefore: daylight)
        let inDaylight = begins < ends ? (time >= begins && time < ends) : (time >= begins || time < ends)
        return inDaylight ? daylight : standard
    }

    /// The UTC instant of `change` in `year`, for a clock at `offsetBefore` until then.
    func instant(of change: Change, year: Int, offsetBefore: Int) -> Int64 {
        let first = LocalTime.days(fromCivilYear: year, month: change.month, day: 1)
        let firstWeekday = ((first % 7) + 11) % 7
        var day = 1 + (change.weekday - firstWeekday + 7) % 7 + (change.week - 1) * 7
        while day > LocalTime.daysIn(month: change.month, year: year) { day -= 7 }
        let days = first + day - 1
        return Int64(days) * 86_400 + Int64(change.seconds - offsetBefore)
    }

    /// Reads the parts of a rule.
    struct Scanner {
        let text: [Unicode.Scalar]
        var position = 0

        var atEnd: Bool { position >= text.count }
        var peek: Unicode.Scalar? { atEnd ? nil : text[position] }

        mutating func take(_ scalar: Unicode.Scalar) -> Bool {
            guard peek == scalar else { return false }
            position += 1
            return true
        }

        /// `EST` or `<-03>`.
        mutating func name() -> Bool {
            if take("<") {
                while let next = peek, next != ">" { position += 1 }
                return take(">")
            }
            let start = position
            while let next = peek, next.properties.isAlphabetic { position += 1 }
            return position - start >= 3
        }

        /// `[+-]hh[:mm[:ss]]` in seconds.
        mutating func offset() -> Int? {
            let sign = take("-") ? -1 : (take("+") ? 1 : 1)
            guard let hours = number(), hours <= 167 else { return nil }
            var seconds = hours * 3600
            if take(":") {
                guard let minutes = number(), minutes < 60 else { return nil }
                seconds += minutes * 60
                if take(":") {
                    guard let more = number(), more < 60 else { return nil }
                    seconds += more
                }
            }
            return sign * seconds
        }

        /// `Mm.w.d[/time]`.
        mutating func change() -> Change? {
            guard take("M"), let month = number(), (1...12).contains(month), take("."),
                  let week = number(), (1...5).contains(week), take("."),
                  let weekday = number(), (0...6).contains(weekday) else { return nil }
            var change = Change(month: month, week: week, weekday: weekday)
            if take("/") {
                guard let seconds = offset() else { return nil }
                change.seconds = seconds
            }
            return change
        }

        mutating func number() -> Int? {
            var value = 0
            var digits = 0
            while let next = peek, ("0"..."9").contains(next), digits < 4 {
                value = value * 10 + Int(next.value - 48)
                digits += 1
                position += 1
            }
            return digits > 0 ? value : nil
        }
    }
}
