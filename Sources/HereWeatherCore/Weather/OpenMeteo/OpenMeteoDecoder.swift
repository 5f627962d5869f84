#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes an Open-Meteo `/v1/forecast` body into a `WeatherReport`.
///
/// Values are converted from the units the body declares (`current_units`, ...) into the
/// units asked for, so a recording in any units, or a server ignoring a unit parameter,
/// still gives a correct report. Nulls inside the arrays become absent values.
enum OpenMeteoDecoder {
    static let kind = WeatherProviderKind.openMeteo
    static let hourlyCount = 12
    static let dailyCount = 7

    static func decode(_ body: JSONValue, units: Units) throws -> WeatherReport {
        guard body.isObject else { throw WeatherError.service(kind, .undecodable(reason: "the body is not a JSON object")) }
        if body["error"]?.bool == true {
            throw WeatherError.service(kind, .serviceFailed(status: 200, detail: body["reason"]?.string))
        }
        let offset = LocalTime.utcOffset(seconds: body["utc_offset_seconds"]?.double) ?? 0
        guard let currentBlock = body["current"], currentBlock.isObject,
              let time = currentBlock["time"]?.date(utcOffset: offset) else {
            throw WeatherError.service(kind, .undecodable(reason: "it has no \"current\" block with a time"))
        }
        let columns = Columns(body: body, units: units)
        let current = decodeCurrent(currentBlock, time: time, columns: columns.current)
        let hourly = decodeHourly(body["hourly"], from: time, offset: offset, columns: columns.hourly)
        var daily = decodeDaily(body["daily"], today: LocalTime(time, utcOffset: offset).dateString,
                                offset: offset, columns: columns.daily)
        var withSun = current
        if let today = daily.first {
            withSun.sunrise = today.sunrise
            withSun.sunset = today.sunset
            withSun.temperatureMin = today.temperatureMin
            withSun.temperatureMax = today.temperatureMax
        }
        if daily.count > dailyCount { daily.removeLast(daily.count - dailyCount) }
        var report = try WeatherReport(provider: .openMeteo, units: units, placeName: nil, utcOffset: offset,
                                       current: withSun, hourly: hourly, hourlyStep: 3600, daily: daily).requiringCurrentTemperature()
        report.nowcast = OpenMeteoMinutelyDecoder.decode(body, utcOffset: offset, issued: time)
        return report
    }

    /// Reads one block's values, converted by the unit strings of its `*_units` sibling.
    struct Columns {
        let current: Block
        let hourly: Block
        let daily: Block

        init(body: JSONValue, units: Units) {
            current = Block(values: body["current"], unitNames: body["current_units"], units: units)
            hourly = Block(values: body["hourly"], unitNames: body["hourly_units"], units: units)
            daily = Block(values: body["daily"], unitNames: body["daily_units"], units: units)
        }
    }

    struct Block {
        let values: JSONValue?
        let unitNames: JSONValue?
        let units: Units

        func raw(_ name: String, _ index: Int?) -> JSONValue? {
            guard let index else { return values?[name] }
            return values?[name]?[index]
        }
        func unit(_ name: String) -> String? { unitNames?[name]?.string }

        func number(_ name: String, _ index: Int? = nil) -> Double? { raw(name, index)?.double }
        func temperature(_ name: String, _ index: Int? = nil) -> Double? {
            UnitConversion.temperature(number(name, index), from: unit(name), to: units)
        }
        func speed(_ name: String, _ index: Int? = nil) -> Double? {
            UnitConversion.speed(number(name, index), from: unit(name), to: units)
        }
        func precipitation(_ name: String, _ index: Int? = nil) -> Double? {
            UnitConversion.precipitation(number(name, index), from: unit(name), to: units)
        }
    }

    static func decodeCurrent(_ block: JSONValue, time: Date, columns c: Block) -> CurrentConditions {
        let (condition, words) = WMOWeatherCode.describe(c.number("weather_code").map { Int($0) })
        var precipitation: Precipitation?
        if let total = c.precipitation("precipitation") {
            let rain = (c.precipitation("rain") ?? 0) + (c.precipitation("showers") ?? 0)
            let hasRain = c.number("rain") != nil || c.number("showers") != nil
            precipitation = Precipitation(total: total, rain: hasRain ? rain : nil,
                                          snow: hasRain ? max(0, total - rain) : nil,
                                          periodSeconds: block["interval"]?.int ?? 3600)
        }
        var current = CurrentConditions(
            time: time,
            temperature: c.temperature("temperature_2m"),
            feelsLike: c.temperature("apparent_temperature"),
            humidity: c.number("relative_humidity_2m"),
            pressure: c.number("pressure_msl"),
            cloudCover: c.number("cloud_cover"),
            windSpeed: c.speed("wind_speed_10m"),
            windDirection: c.number("wind_direction_10m"),
            windGust: c.speed("wind_gusts_10m"),
            precipitation: precipitation,
            visibility: UnitConversion.metres(c.number("visibility"), from: c.unit("visibility")),
            condition: condition,
            description: words,
            isDay: block["is_day"]?.bool)
        current.uvIndex = UVIndex.reading(c.number("uv_index"))
        return current
    }

    /// The 12 entries from the hour containing `now`.
    static func decodeHourly(_ block: JSONValue?, from now: Date, offset: Int, columns c: Block) -> [HourlyForecast] {
        guard let times = block?["time"]?.array else { return [] }
        let hourStart = now.addingTimeInterval(-3599)
        var result: [HourlyForecast] = []
        for (index, value) in times.enumerated() {
            guard let time = value.date(utcOffset: offset), time > hourStart else { continue }
            let (condition, words) = WMOWeatherCode.describe(c.number("weather_code", index).map { Int($0) })
            var hour = HourlyForecast(
                time: time,
                temperature: c.temperature("temperature_2m", index),
                feelsLike: c.temperature("apparent_temperature", index),
                precipitationProbability: c.number("precipitation_probability", index),
                precipitation: c.precipitation("precipitation", index),
                windSpeed: c.speed("wind_speed_10m", index),
                windDirection: c.number("wind_direction_10m", index),
                condition: condition, description: words,
                isDay: c.raw("is_day", index)?.bool)
            hour.uvIndex = UVIndex.reading(c.number("uv_index", index))
            result.append(hour)
            if result.count == hourlyCount { break }
        }
        return result
    }

    /// The days from the local `today` on.
    static func decodeDaily(_ block: JSONValue?, today: String, offset: Int, columns c: Block) -> [DailyForecast] {
        guard let dates = block?["time"]?.array else { return [] }
        var result: [DailyForecast] = []
        for (index, value) in dates.enumerated() {
            guard let date = value.date(utcOffset: offset) else { continue }
            let day = LocalTime(date, utcOffset: offset).dateString
            guard day >= today else { continue }
            let (condition, words) = WMOWeatherCode.describe(c.number("weather_code", index).map { Int($0) })
            var sunrise = c.raw("sunrise", index)?.date(utcOffset: offset)
            var sunset = c.raw("sunset", index)?.date(utcOffset: offset)
            if let rise = sunrise, let set = sunset, rise == set || set.timeIntervalSince(rise) >= 86_400 {
                (sunrise, sunset) = (nil, nil)  // polar night (rise == set) or polar day (a whole day)
            }
            var forecast = DailyForecast(
                date: day,
                temperatureMin: c.temperature("temperature_2m_min", index),
                temperatureMax: c.temperature("temperature_2m_max", index),
                precipitation: c.precipitation("precipitation_sum", index),
                precipitationProbability: c.number("precipitation_probability_max", index),
                windSpeedMax: c.speed("wind_speed_10m_max", index),
                condition: condition, description: words,
                sunrise: sunrise, sunset: sunset)
            forecast.uvIndexMax = UVIndex.reading(c.number("uv_index_max", index))
            result.append(forecast)
        }
        return result
    }
}
