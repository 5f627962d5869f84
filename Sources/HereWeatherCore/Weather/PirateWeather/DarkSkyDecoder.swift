#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes Dark Sky format bodies (Pirate Weather) into a `WeatherReport`.
///
/// `currently`, `hourly.data` and `daily.data` are data points with Unix `time`s; `offset`
/// is the location's UTC offset in hours. Fractions (humidity, cloud cover, chance of
/// precipitation) are 0 to 1 and become percent. Units follow the request: `si` gives °C,
/// m/s, mm/h, cm (`precipAccumulation`) and km (visibility); `us` gives °F, mph, in/h, in
/// and miles. Both are converted to the report's units here. `alerts` is absent when none.
enum DarkSkyDecoder {
    static let kind = WeatherProviderKind.pirateWeather
    static let hourlyCount = 12

    /// The `units` parameter that fits `units` (Kelvin is converted from `si`).
    static func requestUnits(_ units: Units) -> String {
        units == .imperial ? "us" : "si"
    }

    static func decode(_ body: JSONValue, units: Units) throws -> WeatherReport {
        guard body.isObject, let now = body["currently"], now.isObject,
              let time = now["time"]?.unixTime else {
            throw WeatherError.service(kind, .undecodable(reason: "it has no \"currently\" data point with a time"))
        }
        let sent = UnitsSent(body["flags"]?["units"]?.string ?? requestUnits(units), target: units)
        let offset = LocalTime.utcOffset(seconds: body["offset"]?.double.map { $0 * 3600 }) ?? 0
        let days = (body["daily"]?["data"]?.array ?? []).compactMap { day($0, sent: sent, offset: offset) }
        let today = LocalTime(time, utcOffset: offset).dateString
        let firstDay = body["daily"]?["data"]?[0]
        let (condition, isDay) = DarkSkyIcon.describe(now["icon"]?.string, summary: now["summary"]?.string)
        let intensity = sent.amount(now["precipIntensity"]?.double)
        let kind = now["precipType"]?.string
        var current = CurrentConditions(
            time: time,
            temperature: sent.temperature(now["temperature"]?.double),
            feelsLike: sent.temperature(now["apparentTemperature"]?.double),
            temperatureMin: sent.temperature(firstDay?["temperatureMin"]?.double),
            temperatureMax: sent.temperature(firstDay?["temperatureMax"]?.double),
            humidity: percent(now["humidity"]),
            pressure: now["pressure"]?.double,
            cloudCover: percent(now["cloudCover"]),
            windSpeed: sent.speed(now["windSpeed"]?.double),
            windDirection: now["windBearing"]?.double,
            windGust: sent.speed(now["windGust"]?.double),
            precipitation: intensity.map {
                Precipitation(total: $0, rain: kind == "snow" ? 0 : $0, snow: kind == "snow" ? $0 : 0, periodSeconds: 3600)
            },
            visibility: sent.metres(now["visibility"]?.double),
            condition: condition,
            description: now["summary"]?.lineText ?? "",
            isDay: isDay,
            sunrise: firstDay?["sunriseTime"]?.unixTime,
            sunset: firstDay?["sunsetTime"]?.unixTime)
        current.uvIndex = UVIndex.reading(now["uvIndex"]?.double)
        let hours = (body["hourly"]?["data"]?.array ?? []).compactMap { hour($0, sent: sent) }
        var report = try WeatherReport(
            provider: .pirateWeather, units: units, utcOffset: offset, current: current,
            hourly: Array(hours.filter { $0.time.addingTimeInterval(3600) > time }.prefix(hourlyCount)),
            hourlyStep: 3600,
            daily: Array(days.filter { $0.date >= today }.prefix(7)),
            alerts: (body["alerts"]?.array ?? []).compactMap(alert)).requiringCurrentTemperature()
        report.nowcast = DarkSkyMinutelyDecoder.decode(body, unitsSent: sent.us ? "us" : "si", issued: time)
        return report
    }

    static func hour(_ point: JSONValue, sent: UnitsSent) -> HourlyForecast? {
        guard let time = point["time"]?.unixTime else { return nil }
        let (condition, isDay) = DarkSkyIcon.describe(point["icon"]?.string, summary: point["summary"]?.string)
        var hour = HourlyForecast(
            time: time,
            temperature: sent.temperature(point["temperature"]?.double),
            feelsLike: sent.temperature(point["apparentTemperature"]?.double),
            precipitationProbability: percent(point["precipProbability"]),
            precipitation: sent.amount(point["precipIntensity"]?.double),
            windSpeed: sent.speed(point["windSpeed"]?.double),
            windDirection: point["windBearing"]?.double,
            condition: condition, description: point["summary"]?.lineText ?? "", isDay: isDay)
        hour.uvIndex = UVIndex.reading(point["uvIndex"]?.double)
        return hour
    }

    static func day(_ point: JSONValue, sent: UnitsSent, offset: Int) -> DailyForecast? {
        guard let time = point["time"]?.unixTime else { return nil }
        // A day's total: the accumulation (cm or in), else the mean rate over 24 hours.
        let total = sent.accumulation(point["precipAccumulation"]?.double)
            ?? sent.amount(point["precipIntensity"]?.double).map { $0 * 24 }
        var day = DailyForecast(
            date: LocalTime(time, utcOffset: offset).dateString,
            temperatureMin: sent.temperature(point["temperatureMin"]?.double ?? point["temperatureLow"]?.double),
            temperatureMax: sent.temperature(point["temperatureMax"]?.double ?? point["temperatureHigh"]?.double),
            precipitation: total,
            precipitationProbability: percent(point["precipProbability"]),
            windSpeedMax: sent.speed(point["windSpeed"]?.double),
            condition: DarkSkyIcon.describe(point["icon"]?.string, summary: point["summary"]?.string).condition,
            description: point["summary"]?.lineText ?? "",
            sunrise: point["sunriseTime"]?.unixTime,
            sunset: point["sunsetTime"]?.unixTime)
        day.uvIndexMax = UVIndex.reading(point["uvIndex"]?.double)
        return day
    }

    static func alert(_ value: JSONValue) -> WeatherAlert? {
        // Pirate Weather's title is the NWS's whole headline ("Small Craft Advisory issued ...
        // until ... by NWS Tampa Bay Ruskin FL"): the event is the title, the rest is the
        // headline, and the sender is named only at its end.
        guard let title = value["title"]?.lineText, !title.isEmpty else { return nil }
        let (event, issuer) = AlertHeadline.parts(title)
        return WeatherAlert(
            title: event,
            severity: value["severity"]?.lineText,
            start: value["time"]?.unixTime,
            end: value["expires"]?.unixTime,
            source: issuer,
            description: value["description"]?.string,
            uri: value["uri"]?.string,
            headline: event == title ? nil : title)
    }

    static func percent(_ value: JSONValue?) -> Double? {
        value?.double.map { $0 * 100 }
    }

    /// The unit system the body is in, and conversions from it to the report's.
    struct UnitsSent {
        let us: Bool
        let target: Units

        init(_ name: String, target: Units) {
            us = name == "us"
            self.target = target
        }

        func temperature(_ value: Double?) -> Double? {
            UnitConversion.temperature(value, from: us ? "°F" : "°C", to: target)
        }

        func speed(_ value: Double?) -> Double? {
            // "ca" and "uk" units (not requested) would be km/h and mph; si and us are all we ask for.
            UnitConversion.speed(value, from: us ? "mph" : "m/s", to: target)
        }

        /// An hourly rate (mm/h or in/h) as the amount in an hour.
        func amount(_ value: Double?) -> Double? {
            UnitConversion.precipitation(value, from: us ? "inch" : "mm", to: target)
        }

        /// `precipAccumulation`: centimetres or inches.
        func accumulation(_ value: Double?) -> Double? {
            UnitConversion.precipitation(value, from: us ? "inch" : "cm", to: target)
        }

        /// Visibility: kilometres or miles, to metres.
        func metres(_ value: Double?) -> Double? {
            guard let value else { return nil }
            return us ? value * 1609.344 : value * 1000
        }
    }
}
