/// A `--format` string parsed once into literal text and %-codes, like wttr.in's one-line
/// `format=` (its codes where the meaning is the same).
///
/// Parsed before any location or network work, so a bad code is a usage error (exit 64)
/// at once. `1` to `4` are wttr.in's preset formats.
public struct FormatString: Sendable, Equatable {
    /// A piece of the format: text to copy, or a value to fill in.
    public typealias Token = PercentCodes.Token<Code>

    /// What a %-code stands for.
    public enum Code: String, Sendable, CaseIterable {
        case glyph, conditionWords, plainSymbol, temperature, feelsLike, wind, humidity
        case precipitation, pressure, uvIndex, sunrise, sunset, moonGlyph, moonDay, airQuality
        case place, provenance, age, staleMarker, alerts, nowcast, percent

        /// The letter after `%` (wttr.in's where the meaning is the same: `%u` is the UV
        /// index, `%S` the sunrise).
        public var letter: Character {
            switch self {
            case .glyph: return "c"
            case .conditionWords: return "C"
            case .plainSymbol: return "x"
            case .temperature: return "t"
            case .feelsLike: return "f"
            case .wind: return "w"
            case .humidity: return "h"
            case .precipitation: return "p"
            case .pressure: return "P"
            case .uvIndex: return "u"
            case .sunrise: return "S"
            case .sunset: return "s"
            case .moonGlyph: return "m"
            case .moonDay: return "M"
            case .airQuality: return "q"
            case .place: return "l"
            case .provenance: return "L"
            case .age: return "a"
            case .staleMarker: return "O"
            case .alerts: return "A"
            case .nowcast: return "R"
            case .percent: return "%"
            }
        }

        /// What the code shows, for `--help` and error messages.
        public var summary: String {
            switch self {
            case .glyph: return "condition glyph (per [output] icons)"
            case .conditionWords: return "condition in words"
            case .plainSymbol: return "condition as a plain-text symbol"
            case .temperature: return "temperature"
            case .feelsLike: return "feels-like temperature"
            case .wind: return "wind: direction arrow and speed"
            case .humidity: return "humidity"
            case .precipitation: return "precipitation"
            case .pressure: return "pressure (hPa)"
            case .uvIndex: return "UV index (whole number)"
            case .sunrise: return "sunrise"
            case .sunset: return "sunset"
            case .moonGlyph: return "moon phase glyph"
            case .moonDay: return "age of the moon in days (0-29)"
            case .airQuality: return "air quality: index and category"
            case .place: return "place"
            case .provenance: return "location source and accuracy"
            case .age: return "age of the weather data"
            case .staleMarker: return "\"(offline 3 h)\" when the report is stale, else nothing"
            case .alerts: return "weather alert title, \"+N\" for more; empty when none"
            case .nowcast: return "rain nowcast (\"🌧️ in 25 min\"); empty when no change"
            case .percent: return "a % sign"
            }
        }

        static let byLetter: [Character: Code] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.letter, $0) })
    }

    /// wttr.in's preset one-line formats.
    public static let presets: [String: String] = [
        "1": "%c %t",
        "2": "%c 🌡️%t 🌬️%w",
        "3": "%l: %c %t",
        "4": "%l: %c 🌡️%t 🌬️%w",
    ]

    /// Every code, one per line ("%c  condition glyph ..."), for `--help`.
    public static var codeList: String {
        Code.allCases.map { "  %\($0.letter)  \($0.summary)" }.joined(separator: "\n")
    }

    public let tokens: [Token]

    /// Parses `text`; throws a `UsageError` naming an unknown code or a lone trailing `%`, or
    /// for a format with nothing to print (`--format ''` printed an empty line and exit 0,
    /// which a status bar shows as a blank).
    public init(_ text: String) throws(UsageError) {
        guard !text.allSatisfy(\.isWhitespace) else {
            throw UsageError("--format is empty; give it %-codes, e.g. --format '%c %t' (or 1 to 4, wttr.in's presets), or leave it out for the full report.")
        }
        do {
            tokens = try PercentCodes.parse(Self.presets[text] ?? text, codes: Code.byLetter)
        } catch {
            switch error {
            case .loneTrailingPercent:
                throw UsageError("--format ends with a lone %; write %% for a percent sign.")
            case .unknownCode(let letter):
                let known = Code.allCases.map { "%\($0.letter)" }.joined(separator: " ")
                throw UsageError("--format has an unknown code %\(ServiceText.printable(String(letter))). Known codes: \(known) (see --help).")
            }
        }
    }

    /// Whether the format shows whether the report is stale (`%O`).
    var marksStaleness: Bool { tokens.contains(.code(.staleMarker)) }

    /// The format filled in from `fields`. A stale report never looks fresh: without `%O` in
    /// the format, its marker ("(offline 3 h)") is added at the end.
    public func render(_ fields: ReportFields) -> String {
        // The format's own text is the user's; in ASCII it is folded like the rest, and with
        // ASCII icons its glyphs are.
        let filled = PercentCodes.render(tokens) { fields.value($0) }
        let text = fields.charset.fold(fields.output.icons == .ascii ? TextCharset.asciiGlyphs(filled) : filled)
        guard fields.report.freshness.stale, !marksStaleness else { return text }
        return text + " " + fields.staleMarker
    }
}

extension ReportFields {
    /// The value a %-code stands for.
    public func value(_ code: FormatString.Code) -> String {
        switch code {
        case .glyph: return glyph
        case .conditionWords: return conditionWords
        case .plainSymbol: return plainSymbol
        case .temperature: return temperature
        case .feelsLike: return feelsLike
        case .wind: return wind
        case .humidity: return humidity
        case .precipitation: return precipitation
        case .pressure: return pressure
        case .uvIndex: return uvIndex
        case .sunrise: return sunrise
        case .sunset: return sunset
        case .moonGlyph: return moonGlyph
        case .moonDay: return moonDay
        case .airQuality: return airQuality
        case .place: return place
        case .provenance: return provenance
        case .age: return age
        case .alerts: return alerts
        case .nowcast: return nowcastShort
        case .staleMarker: return staleMarker
        case .percent: return "%"
        }
    }
}
