extension TextReport {
    /// The provider and the time of the current conditions: "Open-Meteo, 14:15 local time";
    /// where the provider gives either, what they are: "NWS, observed at KTPA 13:53 local
    /// time" or "NWS forecast for 14:00 local time (no recent station observation)".
    func sourceText(observed: String) -> String {
        let name = report.provider.displayName
        switch report.currentBasis {
        case .observation(let station)?:
            return locale.text(.reportSourceObserved, name, station, observed)
        case .forecast? where report.currentForecastEnded(at: report.tableTime):
            // Nothing newer in the forecast (a stale report): its date, never passed off as now.
            let day = locale.dayLabel(LocalTime(report.current.time, utcOffset: report.utcOffset).dateString)
            return locale.text(.reportSourceForecastEnded, name, day, observed)
        case .forecast?:
            return locale.text(.reportSourceForecast, name, observed)
        case nil:
            return locale.text(.reportSource, name, observed)
        }
    }

    /// An alert's detail under its line, dimmed and indented: what it is about
    /// (`AlertText.detail`), in at most 3 lines.
    func alertDetail(_ alert: WeatherAlert) -> [String] {
        guard let detail = AlertText.detail(alert) else { return [] }
        // Under the alert's label ("⚠️  Alert", "! Alert"); two columns in from the edge without glyphs.
        let mark = AlertText.mark(output.icons)
        let indent = style.glyphs ? TextWidth.columns(mark + Self.gap(after: mark)) : 2
        let ellipsis = charset.ellipsis
        var wrapped = TextWidth.wrap(charset.fold(detail), max(1, style.width - indent), ellipsis: ellipsis)
        if wrapped.count > 3 {
            wrapped = Array(wrapped.prefix(3))
            wrapped[2] = TextWidth.cut(wrapped[2] + " " + ellipsis, max(1, style.width - indent), ellipsis: ellipsis)
        }
        return wrapped.map { style.dim(String(repeating: " ", count: indent) + $0) }
    }
}
