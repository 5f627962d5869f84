#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes OpenWeatherMap 2.5 bodies into a `WeatherReport`.
///
/// `cod` is a number in some bodies and a string in others; `rain`/`snow` may be absent,
/// `null`, `{"1h": x}` or `{"3h": x}`; polar points have an empty name. Precipitation is
/// always in mm from the service, and converted for imperial units here.
enum OpenWeatherMapDecoder {
    static let kind = WeatherProviderKind.openWeatherMap
    static let step = 3 * 3600
    static let hourlyCount = 4  // 12 hours at the 3-hour step

    static func decode(current body: JSONValue, forecast: JSONValue?, units: Units) throws -> WeatherReport {
        try checkCode(body)
        if let forecast { try checkCode(forecast) }
        guard let time = body["dt"]?.unixTime, let main = body["main"], main.isObject else {
            throw WeatherError.service(kind, .undecodable(reason: "it has no \"dt\" and \"main\" of current weather"))
        }
        let offset = LocalTime.utcOffset(seconds: body["timezone"]?.double)
            ?? LocalTime.utcOffset(seconds: forecast?["city"]?["timezone"]?.double) ?? 0
        let (condition, words) = describe(body["weather"]?[0])
        let sunrise = positiveDate(body["sys"]?["sunrise"])
        let sunset = positiveDate(body["sys"]?["sunset"])
        let current = CurrentConditions(
            time: time,
            temperature: main["temp"]?.double,
            feelsLike: main["feels_like"]?.double,
            humidity: main["humidity"]?.double,
            pressure: main["sea_level"]?.double ?? main["pressure"]?.double,
            cloudCover: body["clouds"]?["all"]?.double,
            windSpeed: body["wind"]?["speed"]?.double,
            windDirection: body["wind"]?["deg"]?.double,
            windGust: body["wind"]?["gust"]?.double,
            precipitation: precipitation(body, units: units),
            visibility: body["visibility"]?.double,
            condition: condition,
            description: words,
            isDay: isDay(icon: body["weather"]?[0]?["icon"]?.string, time: time, sunrise: sunrise, sunset: sunset),
            sunrise: sunrise,
            sunset: sunset)
        let entries = forecast.map { forecastEntries($0, units: units) } ?? []
        // `main.temp_min`/`temp_max` are the spread of observations across a large city now,
        // not the day's range: today's range comes from the forecast, or is not known.
        let days = DailyAggregation.days(from: entries, current: current, utcOffset: offset)
        let name = body["name"]?.lineText ?? forecast?["city"]?["name"]?.lineText
        let country = body["sys"]?["country"]?.lineText ?? forecast?["city"]?["country"]?.lineText
        return try WeatherReport(
            provider: .openWeatherMap, units: units,
            placeName: name?.isEmpty == false ? name : nil,
            country: country?.isEmpty == false ? country : nil,
            utcOffset: offset, current: DailyAggregation.todaysRange(current, days: days, utcOffset: offset),
            hourly: Array(entries.filter { $0.time.addingTimeInterval(TimeInterval(step)) > time }.prefix(hourlyCount)),
            hourlyStep: step, daily: days).requiringCurrentTemperature()
    }

    /// A recording: a `/data/2.5/weather` body, `{"weather": {...}, "forecast": {...}}`, or a
    /// One Call 3.0 body (recognised by its `current` object).
    static func decode(recording body: JSONValue, units: Units) throws -> WeatherReport {
        if let current = body["current"], current.isObject {
            return try OneCallDecoder.decode(body, units: units)
        }
        if let current = body["weather"], current.isObject {
            return try decode(current: current, forecast: body["forecast"], units: units)
        }
        return try decode(current: body, forecast: nil, units: units)
    }

    /// Throws for a body that reports an error with HTTP 200 (`"cod": "404"` and friends).
    static func checkCode(_ body: JSONValue) throws {
        guard body.isObject else { throw WeatherError.service(kind, .undecodable(reason: "the body is not a JSON object")) }
        if let code = body["cod"]?.int, code != 200 {
            throw WeatherError.service(kind, .serviceFailed(status: code, detail: body["message"]?.string))
        }
    }

    static func describe(_ weather: JSONValue?) -> (Condition, String) {
        let words = weather?["description"]?.lineText ?? weather?["main"]?.lineText ?? "Unknown"
        let capitalized = words.prefix(1).uppercased() + words.dropFirst()
        guard let id = weather?["id"]?.int else { return (.unknown, capitalized) }
        return (condition(id: id), capitalized)
    }

    /// The code for one of OpenWeatherMap's condition ids (openweathermap.org/weather-conditions);
    /// an id it may add later by its group (2xx thunderstorm, 3xx drizzle, 5xx rain, 6xx snow,
    /// 7xx atmosphere, 80x clouds).
    static func condition(id: Int) -> Condition {
        switch id {
        case 200, 230, 231, 232: return .lightRainAndThunder
        case 201: return .rainAndThunder
        case 202: return .heavyRainAndThunder
        case 210: return .lightThunderstorm
        case 212: return .heavyThunderstorm
        case 200..<300: return .thunderstorm
        case 300, 310: return .lightDrizzle
        case 302, 312, 314: return .heavyDrizzle
        case 300..<400: return .drizzle
        case 500: return .lightRain
        case 502, 503, 504: return .heavyRain
        case 511: return .freezingRain
        case 520: return .lightRainShowers
        case 521, 531: return .rainShowers
        case 522: return .heavyRainShowers
        case 500..<600: return .rain
        case 612: return .lightSleetShowers
        case 613: return .sleetShowers
        case 615: return .lightSleet
        case 611..<620: return .sleet
        case 600: return .lightSnow
        case 602: return .heavySnow
        case 620: return .lightSnowShowers
        case 621: return .snowShowers
        case 622: return .heavySnowShowers
        case 600..<700: return .snow
        case 701: return .mist
        case 711: return .smoke
        case 731, 761: return .dust
        case 741: return .fog
        case 751: return .sand
        case 762: return .volcanicAsh
        case 771: return .squalls
        case 781: return .tornado
        case 700..<800: return .haze
        case 800: return .clear
        case 801: return .fewClouds
        case 802: return .partlyCloudy
        case 803: return .mostlyCloudy
        case 804: return .overcast
        default: return .unknown
        }
    }

    /// Rain and snow from `{"1h": x}` or `{"3h": x}`; `nil` when neither is given.
    static func precipitation(_ body: JSONValue, units: Units) -> Precipitation? {
        func amount(_ key: String) -> (Double, Int)? {
            guard let block = body[key] else { return nil }
            if let value = block["1h"]?.double { return (value, 3600) }
            if let value = block["3h"]?.double { return (value, 3 * 3600) }
            return nil
        }
        let rain = amount("rain")
        let snow = amount("snow")
        guard rain != nil || snow != nil else { return nil }
        let period = max(rain?.1 ?? 0, snow?.1 ?? 0)
        let rainAmount = rain.map { units.precipitation(fromMillimetres: $0.0) }
        let snowAmount = snow.map { units.precipitation(fromMillimetres: $0.0) }
        return Precipitation(total: (rainAmount ?? 0) + (snowAmount ?? 0), rain: rainAmount ?? 0,
                             snow: snowAmount ?? 0, periodSeconds: period)
    }

    static func forecastEntries(_ forecast: JSONValue, units: Units) -> [HourlyForecast] {
        guard let list = forecast["list"]?.array else { return [] }
        return list.compactMap { entry in
            guard let time = entry["dt"]?.unixTime else { return nil }
            let (condition, words) = describe(entry["weather"]?[0])
            let amount = precipitation(entry, units: units)
            let pod = entry["sys"]?["pod"]?.string
            return HourlyForecast(
                time: time,
                temperature: entry["main"]?["temp"]?.double,
                feelsLike: entry["main"]?["feels_like"]?.double,
                precipitationProbability: entry["pop"]?.double.map { $0 * 100 },
                precipitation: amount?.total ?? 0,
                windSpeed: entry["wind"]?["speed"]?.double,
                windDirection: entry["wind"]?["deg"]?.double,
                condition: condition, description: words,
                isDay: pod.map { $0 == "d" })
        }
    }

    static func isDay(icon: String?, time: Date, sunrise: Date?, sunset: Date?) -> Bool? {
        if let icon, icon.hasSuffix("d") { return true }
        if let icon, icon.hasSuffix("n") { return false }
        guard let sunrise, let sunset else { return nil }
        return time >= sunrise && time < sunset
    }

    /// OpenWeatherMap writes 0 for "no sunrise" near the poles.
    static func positiveDate(_ value: JSONValue?) -> Date? {
        guard let date = value?.unixTime, date.timeIntervalSince1970 > 0 else { return nil }
        return date
    }
}
