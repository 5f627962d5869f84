#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes OpenWeatherMap One Call 3.0 bodies (`/data/3.0/onecall`) into a `WeatherReport`.
///
/// `current`, `hourly` (48 hours) and `daily` (8 days, `dt` at local noon, `temp` an object
/// of `min`/`max`/...) in the requested units, except precipitation, which is always mm
/// (`rain`/`snow` as `{"1h": x}` in current and hourly, a plain number in daily). `alerts`
/// is there only when some are in force.
enum OneCallDecoder {
    static let kind = OpenWeatherMapDecoder.kind
    static let hourlyCount = 12

    static func decode(_ body: JSONValue, units: Units) throws -> WeatherReport {
        try OpenWeatherMapDecoder.checkCode(body)
        guard let now = body["current"], now.isObject, let time = date(now["dt"]) else {
            throw WeatherError.service(kind, .undecodable(reason: "it has no \"current\" weather with a \"dt\""))
        }
        let offset = utcOffset(body, at: time)
        let (condition, words) = OpenWeatherMapDecoder.describe(now["weather"]?[0])
        let sunrise = OpenWeatherMapDecoder.positiveDate(now["sunrise"])
        let sunset = OpenWeatherMapDecoder.positiveDate(now["sunset"])
        let today = body["daily"]?[0]
        var current = CurrentConditions(
            time: time,
            temperature: now["temp"]?.double,
            feelsLike: now["feels_like"]?.double,
            temperatureMin: today?["temp"]?["min"]?.double,
            temperatureMax: today?["temp"]?["max"]?.double,
            humidity: now["humidity"]?.double,
            pressure: now["pressure"]?.double,
            cloudCover: now["clouds"]?.double,
            windSpeed: now["wind_speed"]?.double,
            windDirection: now["wind_deg"]?.double,
            windGust: now["wind_gust"]?.double,
            precipitation: OpenWeatherMapDecoder.precipitation(now, units: units),
            visibility: now["visibility"]?.double,
            condition: condition,
            description: words,
            isDay: OpenWeatherMapDecoder.isDay(icon: now["weather"]?[0]?["icon"]?.string, time: time,
                                               sunrise: sunrise, sunset: sunset),
            sunrise: sunrise,
            sunset: sunset)
        current.uvIndex = UVIndex.reading(now["uvi"]?.double)
        let hours = (body["hourly"]?.array ?? []).compactMap { hour($0, units: units) }
        let localToday = LocalTime(time, utcOffset: offset).dateString
        let days = (body["daily"]?.array ?? []).compactMap { day($0, units: units, offset: offset) }
        return try WeatherReport(
            provider: .openWeatherMap, units: units, utcOffset: offset, current: current,
            hourly: Array(hours.filter { $0.time.addingTimeInterval(3600) > time }.prefix(hourlyCount)),
            hourlyStep: 3600,
            daily: Array(days.filter { $0.date >= localToday }.prefix(7)),
            alerts: (body["alerts"]?.array ?? []).compactMap(alert)).requiringCurrentTemperature()
    }

    /// The place's offset from UTC at `time`: `timezone_offset`; in bodies without it (One
    /// Call 2.5, before 2020), the offset of the `timezone` it names, from the system's tz
    /// database; else the longitude's nominal offset.
    static func utcOffset(_ body: JSONValue, at time: Date) -> Int {
        LocalTime.utcOffset(seconds: body["timezone_offset"]?.double)
            ?? body["timezone"]?.string.flatMap { TimeZoneFile(named: $0)?.utcOffset(at: time) }
            ?? LocalTime.nominalOffset(longitude: body["lon"]?.double)
            ?? 0
    }

    static func hour(_ entry: JSONValue, units: Units) -> HourlyForecast? {
        guard let time = date(entry["dt"]) else { return nil }
        let (condition, words) = OpenWeatherMapDecoder.describe(entry["weather"]?[0])
        let icon = entry["weather"]?[0]?["icon"]?.string
        var hour = HourlyForecast(
            time: time,
            temperature: entry["temp"]?.double,
            feelsLike: entry["feels_like"]?.double,
            precipitationProbability: entry["pop"]?.double.map { $0 * 100 },
            precipitation: OpenWeatherMapDecoder.precipitation(entry, units: units)?.total ?? 0,
            windSpeed: entry["wind_speed"]?.double,
            windDirection: entry["wind_deg"]?.double,
            condition: condition, description: words,
            isDay: icon.map { $0.hasSuffix("d") })
        hour.uvIndex = UVIndex.reading(entry["uvi"]?.double)
        return hour
    }

    static func day(_ entry: JSONValue, units: Units, offset: Int) -> DailyForecast? {
        guard let time = date(entry["dt"]) else { return nil }
        let (condition, words) = OpenWeatherMapDecoder.describe(entry["weather"]?[0])
        let rain = entry["rain"]?.double
        let snow = entry["snow"]?.double
        let total = rain == nil && snow == nil ? 0 : (rain ?? 0) + (snow ?? 0)
        var day = DailyForecast(
            date: LocalTime(time, utcOffset: offset).dateString,
            temperatureMin: entry["temp"]?["min"]?.double,
            temperatureMax: entry["temp"]?["max"]?.double,
            precipitation: units.precipitation(fromMillimetres: total),
            precipitationProbability: entry["pop"]?.double.map { $0 * 100 },
            windSpeedMax: entry["wind_speed"]?.double,
            condition: condition, description: words,
            sunrise: OpenWeatherMapDecoder.positiveDate(entry["sunrise"]),
            sunset: OpenWeatherMapDecoder.positiveDate(entry["sunset"]))
        day.uvIndexMax = UVIndex.reading(entry["uvi"]?.double)
        return day
    }

    static func alert(_ value: JSONValue) -> WeatherAlert? {
        guard let event = value["event"]?.lineText, !event.isEmpty else { return nil }
        return WeatherAlert(
            title: event,
            start: date(value["start"]),
            end: date(value["end"]),
            source: value["sender_name"]?.lineText,
            description: value["description"]?.string)
    }

    static func date(_ value: JSONValue?) -> Date? {
        value?.unixTime
    }
}
