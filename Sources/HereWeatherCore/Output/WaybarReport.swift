/// `--waybar`: one JSON line for waybar's custom module with `"return-type": "json"`.
///
/// `{"text","tooltip","class","alt"}`: `text` is a short format, `tooltip` a few lines of
/// detail (both in the run's language), `class` the condition's group (`ConditionGroup`) (plus `stale` for an old cached report,
/// `alert` while the service reports weather alerts, `rain-soon` while the nowcast has
/// precipitation starting within 30 minutes, `uv-high` at a UV index of 6 or more, `air-poor`
/// when the European index is 60 or more or the US AQI 151 or more) for
/// CSS, `alt` the condition for `format-icons`. Waybar reads `text` and `tooltip` as Pango
/// markup, so `&`, `<` and `>` are escaped. `class` is one string, or an array of strings
/// when there are several.
public enum WaybarReport {
    /// The default `text`: the glyph and the temperature.
    public static let defaultText = "%c %t"

    /// The line for a report; `text` is `format` filled in.
    public static func render(_ fields: ReportFields, format: FormatString) -> String {
        let current = fields.report.current
        var classes = [current.condition.group.rawValue]
        if fields.report.freshness.stale { classes.append("stale") }
        if !fields.report.alerts.isEmpty { classes.append("alert") }
        if fields.nowcastText?.startsSoon == true { classes.append("rain-soon") }
        if let uv = current.uvIndex, uv.rounded() >= UVIndex.high { classes.append("uv-high") }
        if fields.report.airQuality?.isPoor == true { classes.append("air-poor") }
        return line(text: format.render(fields), tooltip: tooltip(fields), classes: classes,
                    alt: current.condition.group.rawValue)
    }

    /// The line for a failure, so the bar shows what is wrong instead of nothing: `text` is
    /// the failure line (`FailureLine`: "⚠️ no location" unless `[output] format_error` says
    /// otherwise), the whole message is the `tooltip`, classes `error` and the error's code.
    public static func error(_ error: any UserFacingError,
                             output: Configuration.OutputSettings = Configuration.OutputSettings()) -> String {
        line(text: FailureLine.render(error, output: output),
             tooltip: output.charset.fold("here-weather: " + ServiceText.printable(error.message)),
             classes: ["error", error.exitStatus.code], alt: "error")
    }

    /// The tooltip: place, condition, temperatures, wind, humidity, UV, air and pollen, sun,
    /// source, age.
    static func tooltip(_ fields: ReportFields) -> String {
        let current = fields.report.current
        let locale = fields.locale
        var lines = [fields.place, "\(fields.glyph) \(fields.conditionWords)"]
        let alerts = AlertText.listed(fields.report.alerts)
        for alert in alerts.shown {
            lines.append(AlertText.mark(fields.output.icons) + " "
                         + fields.charset.fold(AlertText.line(alert, utcOffset: fields.report.utcOffset,
                                                               clock: fields.output.clock, locale: locale)))
        }
        if alerts.more > 0 { lines.append(AlertText.mark(fields.output.icons) + " " + AlertText.more(alerts.more, locale: locale)) }
        if let elsewhere = AlertText.elsewhere(fields.report, locale: locale) { lines.append(fields.charset.fold(elsewhere)) }
        lines.append(current.feelsLike != nil ? locale.text(.tooltipTemperatureFeelsLike, fields.temperature, fields.feelsLike)
                     : locale.text(.tooltipTemperature, fields.temperature))
        if let wind = TextReport.windWords(speed: current.windSpeed, direction: current.windDirection,
                                           units: fields.report.units, locale: locale) {
            lines.append(locale.text(.reportWind, wind))
        }
        if current.humidity != nil { lines.append(locale.text(.reportHumidity, fields.humidity)) }
        if let uv = fields.uvLine { lines.append(uv) }
        if let air = fields.airLine { lines.append(air) }
        if let pollen = fields.pollenLine { lines.append(pollen) }
        if current.sunrise != nil || current.sunset != nil {
            lines.append(locale.text(.reportSunrise, fields.sunrise) + fields.charset.separator
                         + locale.text(.reportSunset, fields.sunset))
        }
        if let nowcast = fields.nowcastText {
            lines += [nowcast.sentence, nowcast.bars(width: tooltipWidth, besides: fields.report.provider)]
        }
        lines.append(locale.text(.tooltipLocation, fields.provenanceBesidePlace))
        let name = fields.report.provider.displayName
        let freshness = fields.report.freshness
        if freshness.replayed {
            lines.append(locale.text(.tooltipReplayed, name))
        } else if freshness.stale {
            // As the text report's "offline: from ... ago" line says it.
            lines.append(locale.text(.tooltipStale, name, locale.elapsed(freshness.ageSeconds)))
        } else {
            lines.append(freshness.ageSeconds >= 60 ? locale.text(.tooltipAge, name, fields.age)
                         : locale.text(.tooltipUpdatedNow, name))
        }
        return fields.charset.fold(lines.joined(separator: "\n"))
    }

    /// The widest the nowcast's bar line is drawn in the tooltip.
    static let tooltipWidth = 80

    static func line(text: String, tooltip: String, classes: [String], alt: String) -> String {
        let classValue: JSONOutput = classes.count == 1 ? .string(classes[0]) : .array(classes.map { .string($0) })
        return JSONOutput.object([
            ("text", .string(markup(text))),
            ("tooltip", .string(markup(tooltip))),
            ("class", classValue),
            ("alt", .string(alt)),
        ]).serialized()
    }

    /// Escapes Pango markup's special characters.
    static func markup(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }
}
