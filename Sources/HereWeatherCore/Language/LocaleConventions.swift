/// How a locale writes numbers, dates and times, from CLDR (generated: `LanguageData`):
/// the decimal separator and minus sign, where the percent sign goes, the day label's pattern
/// ("Sun 22 Nov", "So., 22. Nov.", "11月22日(日)") with its weekday and month names, and the
/// 24- and 12-hour clocks ("14:05", "14.05", "2:05 PM", "午後2:05").
///
/// Patterns are CLDR's, written as templates: `{E}` the weekday, `{d}`/`{dd}` the day,
/// `{M}`/`{MM}` the month's number, `{MMM}` its name, `{H}`/`{HH}`/`{h}`/`{hh}`/`{K}`/`{KK}`/
/// `{k}`/`{kk}` the hour, `{mm}` the minute, `{a}` AM or PM; everything else is copied.
public struct LocaleConventions: Sendable, Equatable {
    public var decimal: String
    public var minus: String
    /// Where the number goes around the percent sign: "{n}%", "{n} %", "%{n}".
    public var percentPattern: String
    public var dayPattern: String
    /// Sunday first, in the context and width the day pattern asks for.
    public var weekdays: [String]
    public var months: [String]
    public var clock24: String
    public var clock12: String
    public var am: String
    public var pm: String
    /// The shortest AM and PM ("a", "p" in English), for the chart's hour labels.
    public var amShort: String
    public var pmShort: String
    /// The names of the countries whose warnings are shown by name (MeteoAlarm's, Norway,
    /// Germany) as the table has them: "AT:Österreich|BA:...". Read only when one is shown
    /// (`countryName(_:)`), so that a run pays nothing for it.
    public var countries: String

    /// Reads a generated literal's `key=value` lines (in `LanguageData`'s order).
    init(_ literal: StaticString) {
        let bytes = LanguageData.bytes(literal)
        let values = LanguageData.lineRanges(literal).map { range -> String in
            let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            return line.firstIndex(of: "=").map { String(line[line.index(after: $0)...]) } ?? ""
        }
        func value(_ index: Int) -> String { values.indices.contains(index) ? values[index] : "" }
        func list(_ index: Int, _ count: Int) -> [String] {
            let items = value(index).split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            return items.count == count ? items : Array(repeating: "?", count: count)
        }
        decimal = value(0)
        minus = value(1)
        percentPattern = value(2)
        dayPattern = value(3)
        weekdays = list(4, 7)
        months = list(5, 12)
        clock24 = value(6)
        clock12 = value(7)
        am = value(8)
        pm = value(9)
        amShort = value(10)
        pmShort = value(11)
        countries = value(12)
    }

    /// The country's name in this locale ("HR" → "Kroatien"), `nil` when the table has none.
    public func countryName(_ code: String) -> String? {
        for item in countries.split(separator: "|") where item.hasPrefix(code + ":") {
            return String(item.dropFirst(code.count + 1))
        }
        return nil
    }

    /// `value` with exactly `decimals` decimals, in this locale's digits' punctuation:
    /// "14.3", "14,3", "−3,2" (Swedish minus). See `Formatting.fixed`.
    public func number(_ value: Double, _ decimals: Int) -> String {
        let plain = Formatting.fixed(value, decimals)
        guard decimal != "." || minus != "-" else { return plain }
        var text = ""
        for character in plain {
            switch character {
            case ".": text += decimal
            case "-": text += minus
            default: text.append(character)
            }
        }
        return text
    }

    /// `number` (already written) with the percent sign where the locale puts it: "65%", "65 %".
    public func percent(_ number: String) -> String {
        percentPattern.replacing("{n}", with: number)
    }

    /// The day label for a local date: "Sun 22 Nov", "So., 22. Nov.". With `padded`, a day of
    /// one digit takes a space before it, so that labels in a column line up.
    func dayLabel(_ date: LocalTime, padded: Bool = false) -> String {
        Self.expand(dayPattern) { field in
            switch field {
            case "E": return weekdays[date.weekday]
            case "d": return (padded && date.day < 10 ? " " : "") + String(date.day)
            case "dd": return LocalTime.pad(date.day, 2)
            case "M": return String(date.month)
            case "MM": return LocalTime.pad(date.month, 2)
            case "MMM": return months[max(0, min(11, date.month - 1))]
            default: return nil
            }
        }
    }

    /// The time of day on a 24- or 12-hour clock: "14:05", "2:05 PM".
    func clock(_ time: LocalTime, twelveHour: Bool) -> String {
        let hour = time.hour
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return Self.expand(twelveHour ? clock12 : clock24) { field in
            switch field {
            case "H": return String(hour)
            case "HH": return LocalTime.pad(hour, 2)
            case "h": return String(twelve)
            case "hh": return LocalTime.pad(twelve, 2)
            case "K": return String(hour % 12)
            case "KK": return LocalTime.pad(hour % 12, 2)
            case "k": return String(hour == 0 ? 24 : hour)
            case "kk": return LocalTime.pad(hour == 0 ? 24 : hour, 2)
            case "mm": return LocalTime.pad(time.minute, 2)
            case "a": return hour < 12 ? am : pm
            default: return nil
            }
        }
    }

    /// A short hour label for the chart's columns: "14"; on a 12-hour clock "2p", with AM or PM
    /// on the side the locale's clock puts it ("午後2").
    func hourLabel(_ hour: Int, twelveHour: Bool) -> String {
        guard twelveHour else { return LocalTime.pad(hour, 2) }
        // K counts 0-11 (Japanese: 午後0時), h 1-12.
        let number = String(clock12.contains("{K") || hour % 12 != 0 ? hour % 12 : 12)
        let period = hour < 12 ? amShort : pmShort
        let marker = clock12.firstRange(of: "{a}")?.lowerBound
        let hourField = ["{h", "{K", "{H", "{k"].compactMap { clock12.firstRange(of: $0)?.lowerBound }.min()
        let before = marker.map { marker in hourField.map { marker < $0 } ?? false } ?? false
        return before ? period + number : number + period
    }

    /// `pattern` with each `{field}` replaced by `value(field)` (kept as written when `nil`).
    static func expand(_ pattern: String, _ value: (Substring) -> String?) -> String {
        var result = ""
        var rest = Substring(pattern)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            let field = rest[rest.index(after: open)..<close]
            result += value(field) ?? String(rest[open...close])
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}
