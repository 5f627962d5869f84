#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes MET Norway Locationforecast 2.0 bodies (`complete`; `compact` reads the same, without UV) into a `WeatherReport`.
///
/// The body is GeoJSON: `geometry.coordinates` is `[lon, lat, altitude]`, and
/// `properties.timeseries` a list of UTC times, each with `data.instant.details` (the
/// state at that moment) and summaries of the next 1, 6 and 12 hours (`symbol_code`,
/// `precipitation_amount`). Steps are hourly for about 2.5 days, then 6-hourly; late steps
/// have no `next_1_hours`. Units come in `meta.units` (`celsius`, `m/s`, `mm`) and are
/// converted to those asked for: the API has no units parameter.
///
/// The UV index is the complete product's `ultraviolet_index_clear_sky` (the index under a
/// clear sky). Neither product has a place name, time zone, sunrise or feels-like
/// temperature; the chance of precipitation is not read. Times are shown at the longitude's nominal offset (15° an hour).
enum MetNorwayDecoder {
    static let kind = WeatherProviderKind.metNorway
    static let hourlyCount = 12

    /// One time step, read and converted.
    struct Step {
        var time: Date
        var details: JSONValue?
        var symbol: String?
        /// The amount over the step up to the next one (1 or 6 hours), in the asked units.
        var precipitation: Double?
        var hasNextHour: Bool
    }

    static func decode(_ body: JSONValue, units: Units) throws -> WeatherReport {
        guard body.isObject, let series = body["properties"]?["timeseries"]?.array else {
            throw WeatherError.service(kind, .undecodable(reason: "it has no \"properties.timeseries\""))
        }
        let meta = body["properties"]?["meta"]?["units"]
        let steps = self.steps(series, meta: meta, units: units)
        guard let first = steps.first else {
            throw WeatherError.service(kind, .undecodable(reason: "its time series is empty"))
        }
        let offset = LocalTime.nominalOffset(longitude: body["geometry"]?["coordinates"]?[0]?.double) ?? 0
        let entries = steps.map { hour($0, meta: meta, units: units) }
        let nextHour = first.hasNextHour ? series.first?["data"]?["next_1_hours"] : nil
        let described = MetNorwaySymbol.describe(first.symbol)
        let details = first.details
        var current = CurrentConditions(
            time: first.time,
            temperature: UnitConversion.temperature(details?["air_temperature"]?.double,
                                                    from: meta?["air_temperature"]?.string ?? "celsius", to: units),
            humidity: details?["relative_humidity"]?.double,
            pressure: details?["air_pressure_at_sea_level"]?.double,
            cloudCover: details?["cloud_area_fraction"]?.double,
            windSpeed: speed(details?["wind_speed"]?.double, meta: meta, units: units),
            windDirection: details?["wind_from_direction"]?.double,
            windGust: speed(details?["wind_speed_of_gust"]?.double, meta: meta, units: units),
            precipitation: nextHour.flatMap { amount($0, meta: meta, units: units) }
                .map { Precipitation(total: $0, periodSeconds: 3600) },
            condition: described.condition,
            description: described.words,
            isDay: described.isDay)
        current.uvIndex = UVIndex.reading(details?["ultraviolet_index_clear_sky"]?.double)
        let days = DailyAggregation.days(from: entries, current: current, utcOffset: offset)
        return try WeatherReport(
            provider: .metNorway, units: units, utcOffset: offset,
            current: DailyAggregation.todaysRange(current, days: days, utcOffset: offset),
            hourly: Array(entries.prefix(hourlyCount)), hourlyStep: 3600, daily: days).requiringCurrentTemperature()
    }

    /// The series as steps; entries without a readable time are skipped. The precipitation of
    /// each step covers the time to the next (1 hour while the series is hourly, then 6).
    static func steps(_ series: [JSONValue], meta: JSONValue?, units: Units) -> [Step] {
        let times = series.map { $0["time"]?.string.flatMap(parseTime) }
        var steps: [Step] = []
        for (index, entry) in series.enumerated() {
            guard let time = times[index] else { continue }
            let data = entry["data"]
            let nextTime = index + 1 < times.count ? times[index + 1] : nil
            let gap = nextTime.map { $0.timeIntervalSince(time) }
            let oneHour = data?["next_1_hours"]
            let sixHours = data?["next_6_hours"]
            // Hourly steps take the next hour; 6-hourly ones (and the last) the next 6 hours.
            let usesHour = oneHour != nil && (gap ?? 3600) <= 3600
            let summary = usesHour ? oneHour : (sixHours ?? oneHour ?? data?["next_12_hours"])
            steps.append(Step(
                time: time,
                details: data?["instant"]?["details"],
                symbol: summary?["summary"]?["symbol_code"]?.lineText,
                precipitation: amount(usesHour ? oneHour : sixHours, meta: meta, units: units),
                hasNextHour: oneHour != nil))
        }
        return steps
    }

    static func hour(_ step: Step, meta: JSONValue?, units: Units) -> HourlyForecast {
        let described = MetNorwaySymbol.describe(step.symbol)
        var hour = HourlyForecast(
            time: step.time,
            temperature: UnitConversion.temperature(step.details?["air_temperature"]?.double,
                                                    from: meta?["air_temperature"]?.string ?? "celsius", to: units),
            precipitation: step.precipitation,
            windSpeed: speed(step.details?["wind_speed"]?.double, meta: meta, units: units),
            windDirection: step.details?["wind_from_direction"]?.double,
            condition: described.condition, description: described.words, isDay: described.isDay)
        hour.uvIndex = UVIndex.reading(step.details?["ultraviolet_index_clear_sky"]?.double)
        return hour
    }

    static func amount(_ summary: JSONValue?, meta: JSONValue?, units: Units) -> Double? {
        UnitConversion.precipitation(summary?["details"]?["precipitation_amount"]?.double,
                                     from: meta?["precipitation_amount"]?.string ?? "mm", to: units)
    }

    static func speed(_ value: Double?, meta: JSONValue?, units: Units) -> Double? {
        UnitConversion.speed(value, from: meta?["wind_speed"]?.string ?? "m/s", to: units)
    }

    /// `2026-11-22T07:00:00Z` (UTC).
    static func parseTime(_ text: String) -> Date? {
        guard text.hasSuffix("Z") else { return nil }
        return LocalTime(iso8601: String(text.dropLast()))?.date(utcOffset: 0)
    }
}
