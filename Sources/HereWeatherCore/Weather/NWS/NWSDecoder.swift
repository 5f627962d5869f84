#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes what api.weather.gov sent for one point into a `WeatherReport`.
///
/// The recording is here-weather's own object holding the service's bodies as they came:
/// `{"fetched_at": "<UTC>", "points": ..., "forecast_hourly": ..., "forecast": ...,
/// "observation": ... or null, "alerts": ... or null}`.
/// - The report is read at the recording's time (`recordedAt`): `fetched_at`, the machine's
///   clock when the answers came; for a recording without it, the hourly forecast's
///   `generatedAt`, else its `updateTime`, else its first period's start.
/// - `forecast_hourly.properties.periods[]` gives the hourly view from the period that
///   contains that time on (periods that had ended are left out: the NWS may serve a grid's
///   forecast from hours or days before), and the current conditions when there is no
///   observation (that period). A forecast whose periods had all ended is an error
///   (`WeatherError.forecastEnded`), never shown as now.
/// - `forecast.properties.periods[]` are 12-hour periods (day, then night): a day's high
///   comes from its daytime period, its low from the night that follows it; days before the
///   recording's date are left out.
/// - `observation` is a station's latest observation (`{unitCode, value}` quantities, SI,
///   possibly null), recorded only when it was under 2 hours old when fetched; it is used
///   when it has a temperature.
/// - Times carry their offset (`2026-11-26T14:00:00-05:00`): the report is shown at the
///   offset of the first hourly period.
/// - The NWS gives no sunrise or sunset: each day's (and today's, in the current conditions)
///   are worked out here (`SolarTimes`) for the point asked about, the points answer's
///   `geometry` (`[longitude, latitude]`); none without it.
///
/// The hourly view keeps every period from the current one: `WeatherReport.shown(at:)`
/// starts the table at the hour it is read at (a cached report hours later) and shows 12.
enum NWSDecoder {
    static let kind = WeatherProviderKind.nws

    static func decode(recording body: JSONValue, units: Units) throws -> WeatherReport {
        guard body.isObject, let hourlyPeriods = body["forecast_hourly"]?["properties"]?["periods"]?.array else {
            throw WeatherError.service(kind, .undecodable(reason: "it has no \"forecast_hourly.properties.periods\""))
        }
        let periods = hourlyPeriods.compactMap { period in hour(period, units: units).map { (period, $0) } }
        guard let firstPeriod = periods.first, let offset = hourlyPeriods.lazy.compactMap(startOffset).first else {
            throw WeatherError.service(kind, .undecodable(reason: "its hourly forecast has no periods with a start time"))
        }
        let recordedAt = recordingTime(body) ?? firstPeriod.1.forecast.time
        let current = periods.filter { end($0.0, start: $0.1.forecast.time) > recordedAt }
        guard let first = current.first?.1 else {
            let last = periods.map { end($0.0, start: $0.1.forecast.time) }.max() ?? recordedAt
            throw WeatherError.forecastEnded(kind, lastEnd: ended(last, utcOffset: offset))
        }
        var conditions = CurrentConditions(forecastHour: first.forecast)
        var basis = CurrentBasis.forecast
        if let observation = body["observation"]?["properties"], let observed = self.conditions(observation: observation, units: units) {
            conditions = observed.conditions
            basis = .observation(station: observed.station)
        }
        let today = LocalTime(recordedAt, utcOffset: offset).dateString
        var days = self.days(body["forecast"]?["properties"]?["periods"]?.array ?? [], units: units).filter { $0.date >= today }
        if let point = point(body["points"]) {
            for index in days.indices {
                (days[index].sunrise, days[index].sunset) = SolarTimes.times(
                    on: days[index].date, utcOffset: offset, latitude: point.latitude, longitude: point.longitude)
            }
            (conditions.sunrise, conditions.sunset) = SolarTimes.times(on: today, utcOffset: offset,
                                                                       latitude: point.latitude, longitude: point.longitude)
        }
        let relative = body["points"]?["properties"]?["relativeLocation"]?["properties"]
        var report = try WeatherReport(
            provider: .nws, units: units, placeName: relative?["city"]?.lineText, country: relative == nil ? nil : "US",
            utcOffset: offset,
            current: DailyAggregation.todaysRange(conditions, days: days, utcOffset: offset),
            hourly: current.map(\.1.forecast), hourlyStep: 3600, daily: days,
            alerts: NWSAlertsDecoder.alerts(body["alerts"])).requiringCurrentTemperature()
        report.currentBasis = basis
        report.recordedAt = recordedAt
        return report
    }

    /// The point the points answer is for: its GeoJSON `geometry`, `[longitude, latitude]`.
    static func point(_ points: JSONValue?) -> (latitude: Double, longitude: Double)? {
        guard let pair = points?["geometry"]?["coordinates"]?.array, pair.count == 2,
              let longitude = pair[0].double, let latitude = pair[1].double,
              abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        return (latitude, longitude)
    }

    /// When the recording was made: `fetched_at`, else the hourly forecast's `generatedAt`,
    /// else its `updateTime`.
    static func recordingTime(_ body: JSONValue) -> Date? {
        let hourly = body["forecast_hourly"]?["properties"]
        return NWSTime.date(body["fetched_at"]) ?? NWSTime.date(hourly?["generatedAt"]) ?? NWSTime.date(hourly?["updateTime"])
    }

    /// A period's end: `endTime`, else an hour after its start.
    static func end(_ period: JSONValue, start: Date) -> Date {
        NWSTime.date(period["endTime"]) ?? start.addingTimeInterval(3600)
    }

    /// "Fri 27 Nov 14:00 local time": when the last period ended, for the error line.
    static func ended(_ date: Date, utcOffset: Int) -> String {
        let local = LocalTime(date, utcOffset: utcOffset)
        return Formatting.dayLabel(local.dateString).replacing("  ", with: " ") + " " + local.clockString + " local time"
    }

    /// The offset a period's start time was written with.
    static func startOffset(_ period: JSONValue) -> Int? {
        period["startTime"]?.string.flatMap(NWSTime.parse)?.utcOffset
    }

    /// An hourly period, with its relative humidity (which the hourly view has no column for).
    static func hour(_ period: JSONValue, units: Units) -> (forecast: HourlyForecast, humidity: Double?)? {
        guard let start = NWSTime.date(period["startTime"]) else { return nil }
        let words = period["shortForecast"]?.lineText ?? ""
        let described = NWSCondition.describe(icon: period["icon"]?.string, words: words)
        let forecast = HourlyForecast(
            time: start,
            temperature: NWSQuantity.periodTemperature(period, to: units),
            precipitationProbability: NWSQuantity.number(period["probabilityOfPrecipitation"]),
            windSpeed: NWSQuantity.windSpeed(period["windSpeed"]?.string, to: units),
            windDirection: NWSQuantity.degrees(period["windDirection"]?.string),
            condition: described.condition, description: words,
            isDay: period["isDaytime"]?.bool ?? described.isDay,
            humidity: NWSQuantity.number(period["relativeHumidity"]))
        return (forecast, forecast.humidity)
    }

    /// Conditions from an observation's `properties`; `nil` without a time or a temperature.
    static func conditions(observation: JSONValue, units: Units) -> (conditions: CurrentConditions, station: String)? {
        guard let time = NWSTime.date(observation["timestamp"]),
              let temperature = NWSQuantity.temperature(observation["temperature"], to: units) else { return nil }
        let words = observation["textDescription"]?.lineText ?? ""
        let described = NWSCondition.describe(icon: observation["icon"]?.string, words: words)
        let precipitation = NWSQuantity.precipitation(observation["precipitationLastHour"], to: units)
        let conditions = CurrentConditions(
            time: time, temperature: temperature,
            feelsLike: NWSQuantity.temperature(observation["heatIndex"], to: units)
                ?? NWSQuantity.temperature(observation["windChill"], to: units),
            humidity: NWSQuantity.number(observation["relativeHumidity"]),
            pressure: NWSQuantity.hectopascals(observation["seaLevelPressure"])
                ?? NWSQuantity.hectopascals(observation["barometricPressure"]),
            windSpeed: NWSQuantity.speed(observation["windSpeed"], to: units),
            windDirection: NWSQuantity.number(observation["windDirection"]),
            windGust: NWSQuantity.speed(observation["windGust"], to: units),
            precipitation: precipitation.map { Precipitation(total: $0, periodSeconds: 3600) },
            visibility: NWSQuantity.metres(observation["visibility"]),
            condition: described.condition, description: words, isDay: described.isDay)
        return (conditions, station(observation) ?? "a station")
    }

    /// The station's identifier: `stationId`, else the last part of `station` (a URL).
    static func station(_ observation: JSONValue) -> String? {
        if let id = observation["stationId"]?.lineText, !id.isEmpty { return id }
        return observation["station"]?.string?.split(separator: "/").last.map { String($0) }.flatMap {
            JSONValue.string($0).lineText
        }
    }

    /// One day per local date of the 12-hour periods, at most 7.
    static func days(_ periods: [JSONValue], units: Units) -> [DailyForecast] {
        var order: [String] = []
        var byDate: [String: (day: JSONValue?, night: JSONValue?)] = [:]
        for period in periods {
            guard let (start, offset) = period["startTime"]?.string.flatMap(NWSTime.parse) else { continue }
            let date = LocalTime(start, utcOffset: offset).dateString
            if byDate[date] == nil { order.append(date) }
            if period["isDaytime"]?.bool ?? true {
                if byDate[date]?.day == nil { byDate[date, default: (nil, nil)].day = period }
            } else if byDate[date]?.night == nil {
                byDate[date, default: (nil, nil)].night = period
            }
        }
        return order.prefix(7).map { date in
            let (day, night) = byDate[date] ?? (nil, nil)
            let shown = day ?? night
            let words = shown?["shortForecast"]?.lineText ?? ""
            let both = [day, night].compactMap { $0 }
            return DailyForecast(
                date: date,
                temperatureMin: night.flatMap { NWSQuantity.periodTemperature($0, to: units) },
                temperatureMax: day.flatMap { NWSQuantity.periodTemperature($0, to: units) },
                precipitationProbability: both.compactMap { NWSQuantity.number($0["probabilityOfPrecipitation"]) }.max(),
                windSpeedMax: both.compactMap { NWSQuantity.windSpeed($0["windSpeed"]?.string, to: units) }.max(),
                condition: NWSCondition.describe(icon: shown?["icon"]?.string, words: words).condition,
                description: words)
        }
    }
}
