#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The short human report, with optional hourly and daily tables.
public struct TextReport: Sendable {
    public var location: Location
    public var report: WeatherReport
    public var style: TerminalStyle
    /// `[output]`: the glyph set and the clock.
    public var output: Configuration.OutputSettings
    /// The run's time: the nowcast is read at it (`WeatherReport.nowcastOutlook(at:)`), and a
    /// fix's age is counted to it.
    public var now: Date

    public init(location: Location, report: WeatherReport, style: TerminalStyle,
                output: Configuration.OutputSettings = Configuration.OutputSettings(), now: Date) {
        self.location = location
        self.report = report
        self.style = style
        self.output = output
        self.now = now
    }

    /// The place: the location's name, the provider's, or the coordinates.
    var placeName: String { ReportFields(location: location, report: report, output: output, now: now).place }

    /// The characters the report is drawn in (`TextCharset`, from `output`).
    var charset: TextCharset { output.charset }

    /// The language and customs the report is written in.
    var locale: UserLocale { output.locale }

    /// The report lines (no trailing newline), each at most `style.width` columns. On a
    /// terminal (`style.chart`) the hourly table comes with a chart of temperature and
    /// precipitation above it. Every character is in `charset`.
    public func render(hourly: Bool = false, daily: Bool = false) -> String {
        var lines = summary()
        if hourly && style.chart && !report.hourly.isEmpty {
            let chart = HourlyChart(report: report, clock: output.clock, ascii: output.icons == .ascii, charset: charset, locale: locale)
            lines += [""] + chart.lines(width: style.width).map { (style.dim($0.label) + $0.bars + style.dim($0.note)).trimmingSuffixSpaces }
        }
        if hourly { lines += [""] + hourlyTable() }
        if daily { lines += [""] + dailyTable() }
        // Everything drawn is in the set already; this only catches text that came in unfolded.
        return charset.fold(lines.joined(separator: "\n"))
    }

    func summary() -> [String] {
        let current = report.current
        let width = style.width
        // A named fixed location, or a city found by name, is already the place shown: say only
        // how it was had ("Melbourne, Victoria, AU (city search)", not the name twice).
        let origin = ReportFields(location: location, report: report, output: output, now: now).provenanceBesidePlace
        var lines = headline(origin: locale.text(.parentheses, origin))
        if report.freshness.stale {
            lines.append(TextWidth.cut(locale.text(.reportOffline, locale.elapsed(report.freshness.ageSeconds)), width,
                                       ellipsis: charset.ellipsis))
        }

        var sky = charset.fold(locale.conditionWords(current.condition, current.description))
        if style.glyphs {
            let glyph = current.condition.glyph(output.icons, isDay: current.isDay)
            sky = glyph + Self.gap(after: glyph) + sky
        }
        var temperature = temperatureText(current.temperature) ?? locale.text(.reportTemperatureUnknown)
        temperature = style.temperature(temperature, celsius: celsius(current.temperature))
        lines += TextWidth.flow([sky, temperature, temperatureText(current.feelsLike).map { locale.text(.reportFeelsLike, $0) } ?? ""],
                                separator: locale.text(.listSeparator), width: width, ellipsis: charset.ellipsis)

        var details: [String] = []
        if let wind = windText(speed: current.windSpeed, direction: current.windDirection) {
            details.append(current.windGust.map { locale.text(.reportWindGusts, wind, locale.speed($0, report.units)) }
                           ?? locale.text(.reportWind, wind))
        }
        if let humidity = current.humidity { details.append(locale.text(.reportHumidity, locale.percent(humidity))) }
        if let pressure = current.pressure {
            details.append(locale.text(.reportPressure, locale.measure(locale.number(pressure, 0), .unitHectopascals)))
        }
        let fields = ReportFields(location: location, report: report, output: output, now: now)
        if let uv = fields.uvLine { details.append(uv) }
        lines += TextWidth.flow(details, separator: charset.separator, width: width, ellipsis: charset.ellipsis)

        var more: [String] = [precipitationText(current.precipitation)]
        if let low = temperatureText(current.temperatureMin), let high = temperatureText(current.temperatureMax) {
            more.append(locale.text(.reportToday, low, high))
        }
        // Sunrise and sunset stay together on one line, where the two fit on one.
        let sun = [clock(current.sunrise).map { locale.text(.reportSunrise, $0) },
                   clock(current.sunset).map { locale.text(.reportSunset, $0) }].compactMap { $0 }
        let together = sun.joined(separator: charset.separator)
        more += TextWidth.columns(together) <= width ? [together] : sun
        lines += TextWidth.flow(more, separator: charset.separator, width: width, ellipsis: charset.ellipsis)
        let air = [fields.airLine, fields.pollenLine].compactMap { $0 }.map(charset.fold)
        if !air.isEmpty { lines += TextWidth.flow(air, separator: charset.separator, width: width, ellipsis: charset.ellipsis) }
        if let nowcast = fields.nowcastText {
            lines += TextWidth.wrap(nowcast.sentence, width, ellipsis: charset.ellipsis) + [style.dim(nowcast.bars(width: width, besides: report.provider))]
        }
        let alerts = AlertText.listed(report.alerts)
        let alertLabel = locale.text(.alertLabel)
        let mark = AlertText.mark(output.icons)
        let label = style.glyphs ? mark + Self.gap(after: mark) + alertLabel : alertLabel
        for alert in alerts.shown {
            lines += hanging(label, charset.fold(AlertText.line(alert, utcOffset: report.utcOffset, clock: output.clock, locale: locale)),
                             labelStyle: { style.alertLabel($0, alert) })
            lines += alertDetail(alert)
        }
        if alerts.more > 0 {
            lines += hanging(String(repeating: " ", count: TextWidth.columns(label)), AlertText.more(alerts.more, locale: locale))
        }
        if let elsewhere = AlertText.elsewhere(report, locale: locale) {
            let indent = alerts.shown.isEmpty ? "" : String(repeating: " ", count: TextWidth.columns(label))
            lines += hanging(indent, charset.fold(elsewhere)).map(style.dim)
        }
        let observed = clock(current.time) ?? ""
        var source = sourceText(observed: observed)
        // A stale report's age is on its "offline: from ... ago" line already: once, in one form.
        if report.freshness.cached && !report.freshness.stale {
            source = report.freshness.ageSeconds >= 60 ? locale.text(.reportCached, source, locale.age(report.freshness.ageSeconds))
                : locale.text(.reportCachedNow, source)
        }
        lines += TextWidth.wrap(source, width, ellipsis: charset.ellipsis).map(style.dim)
        if let replay = replayNote { lines += TextWidth.wrap(replay, width, ellipsis: charset.ellipsis).map(style.dim) }
        return lines
    }

    /// The place in bold and where the location came from, on one line when they fit; else
    /// the origin on a line of its own, each cut to the width.
    func headline(origin: String) -> [String] {
        let width = style.width
        if TextWidth.columns(placeName) + 1 + TextWidth.columns(origin) <= width {
            return [style.bold(placeName) + style.dim(" " + origin)]
        }
        return [style.bold(TextWidth.cut(placeName, width, ellipsis: charset.ellipsis))]
            + TextWidth.wrap(origin, width, ellipsis: charset.ellipsis).map(style.dim)
    }

    /// What follows a glyph before its words: two spaces after an emoji (two columns, drawn
    /// one column wide by some terminals), one after an ASCII or Nerd Font glyph (one column).
    static func gap(after glyph: String) -> String {
        TextWidth.columns(glyph) >= 2 ? "  " : " "
    }

    /// `text` wrapped after `label` (in bold, or `labelStyle`: an alert's colour), its later
    /// lines indented under the text, never leaving one word alone on its last line when the
    /// line before has more (an alert's issuer).
    func hanging(_ label: String, _ text: String, labelStyle: ((String) -> String)? = nil) -> [String] {
        let indent = TextWidth.columns(label)
        let room = max(1, style.width - indent)
        let wrapped = TextWidth.withoutWidow(TextWidth.wrap(text, room, ellipsis: charset.ellipsis), width: room)
        return wrapped.enumerated().map { index, line in
            (index == 0 ? (labelStyle ?? style.bold)(label) : String(repeating: " ", count: indent)) + line
        }
    }

    /// "Replayed: NMEA log and recorded Open-Meteo response" when any part of the report
    /// was played back (`--replay`, `--weather-replay`) rather than live.
    var replayNote: String? {
        let name = report.provider.displayName
        switch (location.source == .nmea && !location.isLiveNMEA, report.freshness.replayed) {
        case (true, true): return locale.text(.reportReplayedBoth, name)
        case (true, false): return locale.text(.reportReplayedNmea)
        case (false, true): return locale.text(.reportReplayedWeather, name)
        case (false, false): return nil
        }
    }

    func hourlyTable() -> [String] {
        let stepHours = max(1, report.hourlyStep / 3600)
        let title = stepHours == 1 ? locale.text(.tableNextHours, count: report.hourly.count)
            : locale.text(.tableNextHoursSteps, count: report.hourly.count * stepHours, String(stepHours))
        let hours = report.hourly
        let table = TextTable(columns: [
            .init(locale.text(.columnTime), hours.map { clock($0.time) ?? "" }),
            .init(locale.text(.columnTemperature), hours.map { temperatureText($0.temperature) ?? "-" }),
            .init(locale.text(.columnFeelsLike), hours.map { temperatureText($0.feelsLike) ?? "-" }, dropOrder: 3),
            .init(locale.text(.columnPrecipitation), hours.map { amountText($0.precipitation) }, dropOrder: 1),
            .init(locale.text(.columnChance), hours.map { $0.precipitationProbability.map(locale.percent) ?? "-" }, dropOrder: 2),
            .init(locale.text(.columnWind), hours.map { windText(speed: $0.windSpeed, direction: $0.windDirection) ?? "-" },
                  short: hours.map { windText(speed: $0.windSpeed, direction: $0.windDirection, short: true) ?? "-" },
                  dropOrder: 0),
            .init(locale.text(.columnSky), hours.map { skyText($0.condition, $0.description, isDay: $0.isDay) },
                  short: style.glyphs ? hours.map { $0.condition.glyph(output.icons, isDay: $0.isDay) } : nil, dropOrder: 4),
        ], ellipsis: charset.ellipsis)
        return [style.bold(TextWidth.cut(title, style.width, ellipsis: charset.ellipsis))]
            + styledHeader(table.lines(width: style.width))
    }

    func dailyTable() -> [String] {
        let days = report.daily
        let table = TextTable(columns: [
            .init(locale.text(.columnDay), days.map { locale.dayLabel($0.date, padded: true) }),
            .init(locale.text(.columnLow), days.map { temperatureText($0.temperatureMin) ?? "-" }),
            .init(locale.text(.columnHigh), days.map { temperatureText($0.temperatureMax) ?? "-" }),
            .init(locale.text(.columnPrecipitation), days.map { amountText($0.precipitation) }, dropOrder: 2),
            .init(locale.text(.columnChance), days.map { $0.precipitationProbability.map(locale.percent) ?? "-" }, dropOrder: 3),
            .init(locale.text(.columnWind), days.map { $0.windSpeedMax.map { locale.speed($0, report.units) } ?? "-" },
                  dropOrder: 1),
        ] + uvColumn(days) + [
            .init(locale.text(.columnSky), days.map { skyText($0.condition, $0.description, isDay: true) },
                  short: style.glyphs ? days.map { $0.condition.glyph(output.icons, isDay: true) } : nil, dropOrder: 4),
        ], ellipsis: charset.ellipsis, keepsFreeWhole: true)
        return [style.bold(TextWidth.cut(locale.text(.tableNextDays, count: report.daily.count), style.width,
                                         ellipsis: charset.ellipsis))]
            + styledHeader(table.lines(width: style.width))
    }

    /// The daily table's UV column (the day's highest index, a whole number), before the sky
    /// and the first left out when narrow; none when no day has an index.
    func uvColumn(_ days: [DailyForecast]) -> [TextTable.Column] {
        guard days.contains(where: { $0.uvIndexMax != nil }) else { return [] }
        return [.init(locale.text(.columnUv), days.map { $0.uvIndexMax.map { locale.number($0, 0) } ?? "-" }, dropOrder: 5)]
    }

    /// The table's lines with its header dimmed.
    func styledHeader(_ lines: [String]) -> [String] {
        lines.enumerated().map { $0.offset == 0 ? style.dim($0.element) : $0.element }
    }

    func temperatureText(_ value: Double?) -> String? {
        value.map { locale.number($0, 1) + " " + charset.temperatureSymbol(report.units) }
    }

    func windText(speed: Double?, direction: Double?, short: Bool = false) -> String? {
        Self.windWords(speed: speed, direction: direction, units: report.units, short: short, locale: locale)
    }

    /// "4.9 m/s from NNE"; `short`, "4.9 m/s NNE" (for a narrow table column).
    static func windWords(speed: Double?, direction: Double?, units: Units, short: Bool = false,
                          locale: UserLocale = .english) -> String? {
        guard let speed else { return nil }
        let text = locale.speed(speed, units)
        return locale.compass(direction).map { locale.text(short ? .windFromShort : .windFrom, text, $0) } ?? text
    }

    /// A time at the report's offset on the configured clock.
    func clock(_ date: Date?) -> String? {
        locale.clock(date, utcOffset: report.utcOffset, output.clock)
    }

    func amountText(_ value: Double?) -> String {
        guard let value else { return "-" }
        return locale.amount(value, report.units)
    }

    func precipitationText(_ precipitation: Precipitation?) -> String {
        guard let precipitation else { return locale.text(.reportPrecipitationNotReported) }
        guard precipitation.total > 0 else { return locale.text(.reportNoPrecipitation) }
        let seconds = precipitation.periodSeconds
        let period = seconds == 3600 ? locale.text(.periodLastHour)
            : seconds < 3600 ? locale.text(.periodLastMinutes, count: seconds / 60)
            : locale.text(.periodLastHours, count: Int((Double(seconds) / 3600).rounded()))
        let rain = (precipitation.rain ?? 0) > 0, snow = (precipitation.snow ?? 0) > 0
        let what = locale.text(rain && snow ? .kindRainAndSnow : rain ? .kindRain : snow ? .kindSnow : .kindAny)
        return locale.text(.reportPrecipitation, what, amountText(precipitation.total), period)
    }

    func skyText(_ condition: Condition, _ description: String, isDay: Bool?) -> String {
        let words = charset.fold(locale.conditionWords(condition, description))
        return style.glyphs ? condition.glyph(output.icons, isDay: isDay) + " " + words : words
    }

    /// `value` in °C, for colouring.
    func celsius(_ value: Double?) -> Double? {
        guard let value else { return nil }
        switch report.units {
        case .metric: return value
        case .imperial: return (value - 32) * 5 / 9
        case .standard: return value - 273.15
        }
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
    var trimmingSuffixSpaces: String { String(self[..<(lastIndex { $0 != " " }.map(index(after:)) ?? startIndex)]) }
}
