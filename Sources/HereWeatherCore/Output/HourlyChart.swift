/// A small chart of the next hours for a terminal: temperature as bars scaled between the
/// period's low and high, and the chance of precipitation as bars from 0 to 100%, each
/// column under its hour.
///
/// ```
///          14 15 16 17 18 19 20 21 22 23 00 01
/// Temp     ██ ██ ▇▇ ▆▆ ▅▅ ▄▄ ▃▃ ▂▂ ▂▂ ▁▁ ▁▁ ▁▁  18.2 to 26.7 °C
/// Precip   ·  ·  ·  ▁▁ ▃▃ ▅▅ ▂▂ ·  ·  ·  ·  ·   up to 40%, 1.2 mm in all
/// ```
///
/// With ASCII icons the bars are drawn with `_,-~=+*#` and "no chance" is a ".". On a
/// narrow terminal the notes move below the chart, and only the hours that fit are drawn.
public struct HourlyChart: Sendable {
    /// One row: a label column, the bars, and a note after them.
    public struct Row: Sendable, Equatable {
        public var label: String
        public var bars: String
        public var note: String
    }

    public var report: WeatherReport
    public var clock: ClockFormat
    /// ASCII bars (`icons = "ascii"`).
    public var ascii: Bool
    /// The characters of the labels, notes and symbols ("°C", "·"): ASCII in a locale that is
    /// not UTF-8, which has ASCII bars too.
    public var charset: TextCharset
    /// The language of the labels and notes, and its numbers and hours.
    public var locale: UserLocale

    public init(report: WeatherReport, clock: ClockFormat = .twentyFourHour, ascii: Bool = false, charset: TextCharset? = nil,
                locale: UserLocale = .english) {
        self.report = report
        self.clock = clock
        self.ascii = ascii || charset == .ascii
        self.charset = charset ?? (ascii ? .ascii : .utf8)
        self.locale = locale
    }

    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    static let asciiLevels: [Character] = ["_", ",", "-", "~", "=", "+", "*", "#"]
    static let labelWidth = 9

    /// The hour row, the temperature row and the precipitation row, in at most `columns`
    /// terminal columns; when the notes do not fit after the bars, rows of notes follow.
    public func lines(width columns: Int = TerminalWidth.maximum) -> [Row] {
        let allLabels = report.hourly.map { Formatting.hourLabel($0.time, utcOffset: report.utcOffset, clock, locale: locale) }
        let width = (allLabels.map(TextWidth.columns).max() ?? 2) + 1
        // The row labels take 9 columns, or more for a language's longer words.
        let temperatureLabel = locale.text(.chartTemperature), precipitationLabel = locale.text(.chartPrecipitation)
        let labelWidth = max(Self.labelWidth, TextWidth.columns(temperatureLabel) + 1, TextWidth.columns(precipitationLabel) + 1)
        let fitting = max(1, (columns - labelWidth) / width)
        let hours = Array(report.hourly.prefix(fitting))
        let labels = Array(allLabels.prefix(fitting))
        let levels = ascii ? Self.asciiLevels : Self.blocks
        let header = labels.map { TextWidth.pad($0, width) }.joined()

        let temperatures = hours.map(\.temperature)
        let known = temperatures.compactMap { $0 }
        let low = known.min() ?? 0
        let high = known.max() ?? 0
        let temperatureBars = temperatures.map { value in
            cell(value.map { high > low ? ($0 - low) / (high - low) : 0.5 }, width: width, levels: levels)
        }.joined()
        let symbol = charset.temperatureSymbol(report.units)
        let temperatureNote = known.isEmpty ? locale.text(.chartNoTemperatures)
            : locale.text(.temperatureRange, locale.number(low, 1), locale.number(high, 1), symbol)

        let chances = hours.map(\.precipitationProbability)
        let chanceBars = chances.map { value in
            cell(value.map { $0 > 0 ? min(1, $0 / 100) : -1 }, width: width, levels: levels)
        }.joined()
        let total = hours.compactMap(\.precipitation).reduce(0, +)
        let highestChance = chances.compactMap { $0 }.max()
        var notes: [String] = []
        if let highestChance, highestChance > 0 { notes.append(locale.text(.upTo, locale.percent(highestChance))) }
        if total > 0 { notes.append(locale.text(.chartInAll, locale.amount(total, report.units))) }
        let precipitationNote = notes.isEmpty
            ? locale.text(highestChance == nil ? .chartChanceNotReported : .chartNoneExpected)
            : notes.joined(separator: locale.text(.listSeparator))
        let barsEnd = labelWidth + hours.count * width
        let notesFit = barsEnd + 1 + max(TextWidth.columns(temperatureNote), TextWidth.columns(precipitationNote)) <= columns
        let rows = [
            Row(label: TextWidth.pad("", labelWidth), bars: header, note: ""),
            Row(label: TextWidth.pad(temperatureLabel, labelWidth), bars: temperatureBars, note: notesFit ? " " + temperatureNote : ""),
            Row(label: TextWidth.pad(precipitationLabel, labelWidth), bars: chanceBars, note: notesFit ? " " + precipitationNote : ""),
        ]
        if notesFit { return rows }
        let noteLines = TextWidth.flow([locale.text(.chartNote, temperatureLabel, temperatureNote),
                                        locale.text(.chartNote, precipitationLabel, precipitationNote)],
                                       separator: charset.separator, width: columns, ellipsis: charset.ellipsis)
        return rows + noteLines.map { Row(label: "", bars: "", note: $0) }
    }

    /// One column: `fraction` (0...1) as a bar `width - 1` wide; a dot for a negative
    /// fraction (nothing), a blank for a missing value.
    func cell(_ fraction: Double?, width: Int, levels: [Character]) -> String {
        guard let fraction, fraction.isFinite else { return String(repeating: " ", count: width) }
        guard fraction >= 0 else { return TextWidth.pad(ascii ? "." : "·", width) }
        let level = min(levels.count - 1, Int((fraction * Double(levels.count - 1)).rounded()))
        return String(repeating: levels[level], count: width - 1) + " "
    }
}
