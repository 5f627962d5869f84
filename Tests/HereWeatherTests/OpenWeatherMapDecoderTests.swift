import Foundation
import Testing
@testable import HereWeatherCore

/// A number from a `JSONSerialization` tree (integers included).
private func number(_ value: Any?) -> Double? {
    if value is NSNull { return nil }
    return (value as? NSNumber)?.doubleValue
}

/// Decodes OpenWeatherMap bodies from `Fixtures/weather/openweathermap`. Expected values are read
/// from the fixtures; daily aggregates are recomputed here from the forecast list with Foundation's
/// calendar code rather than the decoder's own.
@Suite struct OpenWeatherMapDecoderTests {
    let provider = OpenWeatherMapWeatherProvider(baseURL: "https://api.openweathermap.org", apiKey: "unused",
                                                 http: UnusedHTTPClient(), clock: ContinuousClock())

    static func fixture(_ name: String) -> Data { Fixtures.data("weather/openweathermap/\(name)") }

    /// `{"weather": <current body>, "forecast": <forecast body>}`, as a recording of both requests.
    static func combined(weather: String, forecast: String) -> Data {
        var data = Data(#"{"weather":"#.utf8)
        data += fixture(weather)
        data += Data(#","forecast":"#.utf8)
        data += fixture(forecast)
        data += Data("}".utf8)
        return data
    }

    func decode(_ data: Data, _ units: Units) throws -> WeatherReport {
        try provider.report(fromRecording: data, units: units)
    }

    // MARK: Tampa, current weather + forecast

    @Test func tampaCurrent() throws {
        let report = try decode(Self.combined(weather: "weather-tampa-metric.json", forecast: "forecast-tampa-metric.json"), .metric)
        #expect(report.provider == .openWeatherMap)
        #expect(report.units == .metric)
        #expect(report.placeName == "Tampa")
        #expect(report.country == "US")
        #expect(report.utcOffset == -18000)
        let c = report.current
        #expect(c.time == instant(1_795_374_878))
        #expect(approx(c.temperature, 26.43))
        #expect(approx(c.feelsLike, 26.43))
        // Today's range from the forecast (16:00, 19:00, 22:00 EST: 26.62, 24.49, 22.33) and
        // now (26.43), not `main.temp_min`/`temp_max` (25.52, 27.21): those are the spread of
        // observations across the city at this moment.
        #expect(approx(c.temperatureMin, 22.33))
        #expect(approx(c.temperatureMax, 26.62))
        #expect(approx(c.humidity, 54))
        #expect(approx(c.pressure, 1018))
        #expect(approx(c.cloudCover, 20))
        #expect(approx(c.windSpeed, 4.63))
        #expect(approx(c.windDirection, 50))
        #expect(approx(c.windGust, 6.69))
        #expect(approx(c.visibility, 10000))
        #expect(c.condition.group == .partlyCloudy)  // 801
        #expect(c.description == "Few clouds")
        #expect(c.isDay == true)               // icon 02d
        #expect(c.precipitation == nil)        // no rain or snow key
        #expect(c.sunrise == instant(1_795_348_617))
        #expect(c.sunset == instant(1_795_386_921))
    }

    /// A body alone (no forecast) has no range for today: `main.temp_min`/`temp_max` are
    /// not one (real bodies give "-1.4 °C to -1.4 °C").
    @Test func currentWeatherAloneHasNoRangeForToday() throws {
        let report = try decode(Self.fixture("weather-tampa-metric.json"), .metric)
        #expect(report.current.temperatureMin == nil)
        #expect(report.current.temperatureMax == nil)
    }

    @Test func tampaHourlyIsFourThreeHourStepsFromNow() throws {
        let report = try decode(Self.combined(weather: "weather-tampa-metric.json", forecast: "forecast-tampa-metric.json"), .metric)
        #expect(report.hourlyStep == 10800)
        #expect(report.hourly.count == 4)
        // The first forecast slot, 2026-11-22 21:00 UTC, is the first after dt.
        #expect(report.hourly.map(\.time) == [instant(1_795_381_200), instant(1_795_392_000),
                                              instant(1_795_402_800), instant(1_795_413_600)])
        let first = try #require(report.hourly.first)
        #expect(first.time.addingTimeInterval(10800) > report.current.time)
        #expect(approx(first.temperature, 26.62))
        #expect(approx(first.precipitationProbability, 0))
        #expect(approx(first.precipitation, 0))
        #expect(approx(first.windSpeed, 5.37))
        #expect(approx(first.windDirection, 66))
        #expect(first.condition.group == .clear)
        #expect(first.description == "Clear sky")
        #expect(first.isDay == true)           // pod d
        #expect(report.hourly[1].isDay == false)
        #expect(report.hourly[1].condition.group == .partlyCloudy)  // 802
    }

    struct ExpectedDay {
        var date: String
        var temperatures: [Double] = []
        var precipitationMillimetres = 0.0
        var probability = 0.0
    }

    /// Daily aggregates recomputed from the bodies: one day per local date from the current
    /// one on, min/max over the steps' `main.temp` (today also over the current temperature),
    /// summed `rain.3h` + `snow.3h` and the highest `pop`.
    static func expectedDays(weather: String, forecast: String) throws -> [ExpectedDay] {
        let current = try #require(try JSONSerialization.jsonObject(with: fixture(weather)) as? [String: Any])
        let body = try #require(try JSONSerialization.jsonObject(with: fixture(forecast)) as? [String: Any])
        let offset = try #require(number(current["timezone"]))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: Int(offset))
        formatter.dateFormat = "yyyy-MM-dd"
        let today = formatter.string(from: instant(try #require(number(current["dt"]))))
        var days: [ExpectedDay] = []
        for entry in try #require(body["list"] as? [[String: Any]]) {
            let date = formatter.string(from: instant(try #require(number(entry["dt"]))))
            guard date >= today else { continue }
            if days.last?.date != date { days.append(ExpectedDay(date: date)) }
            days[days.count - 1].temperatures.append(try #require(number((entry["main"] as? [String: Any])?["temp"])))
            for key in ["rain", "snow"] {
                days[days.count - 1].precipitationMillimetres += number((entry[key] as? [String: Any])?["3h"]) ?? 0
            }
            days[days.count - 1].probability = max(days[days.count - 1].probability, (number(entry["pop"]) ?? 0) * 100)
        }
        let now = try #require(number((current["main"] as? [String: Any])?["temp"]))
        if days.first?.date == today { days[0].temperatures.append(now) }
        return days
    }

    func checkDaily(weather: String, forecast: String, units: Units) throws {
        let report = try decode(Self.combined(weather: weather, forecast: forecast), units)
        let expected = try Self.expectedDays(weather: weather, forecast: forecast)
        #expect(report.daily.map(\.date) == expected.map(\.date))
        for (day, want) in zip(report.daily, expected) {
            #expect(approx(day.temperatureMin, want.temperatures.min()!), "\(want.date)")
            #expect(approx(day.temperatureMax, want.temperatures.max()!), "\(want.date)")
            let precipitation = units == .imperial ? want.precipitationMillimetres / 25.4 : want.precipitationMillimetres
            #expect(approx(day.precipitation, precipitation, 1e-9), "\(want.date)")
            #expect(approx(day.precipitationProbability, want.probability, 1e-9), "\(want.date)")
        }
    }

    @Test func tampaDailyAggregatedByLocalDate() throws {
        try checkDaily(weather: "weather-tampa-metric.json", forecast: "forecast-tampa-metric.json", units: .metric)
    }

    @Test func denverImperialDailyAggregatedByLocalDate() throws {
        try checkDaily(weather: "weather-snow-3h-imperial.json", forecast: "forecast-imperial.json", units: .imperial)
    }

    @Test func tampaDailySpotValues() throws {
        let report = try decode(Self.combined(weather: "weather-tampa-metric.json", forecast: "forecast-tampa-metric.json"), .metric)
        // Local days 2026-11-22 (from 16:00 EST) to 2026-11-27 (to 13:00 EST).
        #expect(report.daily.map(\.date) == ["2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27"])
        let today = report.daily[0]
        // 16:00, 19:00, 22:00 EST: 26.62, 24.49, 22.33, and 26.43 now.
        #expect(approx(today.temperatureMin, 22.33))
        #expect(approx(today.temperatureMax, 26.62))
        #expect(today.sunrise == instant(1_795_348_617))
        #expect(today.sunset == instant(1_795_386_921))
        #expect(report.daily[1].sunrise == nil)
        // 2026-11-25 EST: 01:00 ... 22:00, rain 0.84 + 1.37 mm, pop up to 0.71.
        let rainy = report.daily[3]
        #expect(approx(rainy.temperatureMin, 19.76))
        #expect(approx(rainy.temperatureMax, 24.56))
        #expect(approx(rainy.precipitation, 2.21, 1e-9))
        #expect(approx(rainy.precipitationProbability, 71, 1e-9))
        // The step nearest local noon is 13:00 EST (18:00 UTC), "light rain".
        #expect(rainy.condition.group == .rain)
        #expect(rainy.description == "Light rain")
        #expect(approx(rainy.windSpeedMax, 6.15))
    }

    // MARK: Precipitation in current weather

    @Test func rainOneHour() throws {
        let report = try decode(Self.fixture("weather-rain-1h.json"), .metric)
        #expect(report.placeName == "Zocca")
        #expect(report.country == "IT")
        #expect(report.utcOffset == 3600)
        let c = report.current
        #expect(c.time == instant(1_795_351_267))
        #expect(approx(c.temperature, 8.21))
        #expect(approx(c.pressure, 1006))
        #expect(approx(c.windSpeed, 3.58))
        #expect(approx(c.windDirection, 204))
        #expect(approx(c.windGust, 8.94))
        #expect(approx(c.visibility, 6500))
        #expect(c.condition.group == .rain)
        #expect(c.description == "Moderate rain")
        let precipitation = try #require(c.precipitation)
        #expect(precipitation.periodSeconds == 3600)
        #expect(approx(precipitation.total, 2.73))
        #expect(approx(precipitation.rain, 2.73))
        #expect(precipitation.snow ?? 0 == 0)
        // A current-weather body alone has no forecast.
        #expect(report.hourly.isEmpty)
        #expect(report.daily.isEmpty)
    }

    @Test func rainOneHourInImperialIsInches() throws {
        let c = try decode(Self.fixture("weather-rain-1h.json"), .imperial).current
        #expect(approx(c.precipitation?.rain, 2.73 / 25.4, 1e-12))
        #expect(approx(c.precipitation?.total, 2.73 / 25.4, 1e-12))
        #expect(approx(c.temperature, 8.21))  // the service already sent the asked-for units
    }

    @Test func snowThreeHoursImperialInInches() throws {
        let report = try decode(Self.fixture("weather-snow-3h-imperial.json"), .imperial)
        #expect(report.placeName == "Denver")
        #expect(report.utcOffset == -25200)
        let c = report.current
        #expect(approx(c.temperature, 27.36))
        #expect(approx(c.feelsLike, 19.02))
        #expect(approx(c.windSpeed, 8.05))
        #expect(approx(c.windDirection, 20))
        #expect(c.windGust == nil)
        #expect(approx(c.visibility, 3219))  // metres, whatever the units
        #expect(c.condition.group == .snow)
        #expect(c.description == "Light snow")
        #expect(c.isDay == true)
        let precipitation = try #require(c.precipitation)
        #expect(precipitation.periodSeconds == 10800)
        #expect(approx(precipitation.snow, 1.2 / 25.4, 1e-12))  // 0.047 in
        #expect(approx(precipitation.total, 1.2 / 25.4, 1e-12))
        #expect(precipitation.rain ?? 0 == 0)
    }

    @Test func denverImperialForecastWithNullRainEntry() throws {
        let report = try decode(Self.combined(weather: "weather-snow-3h-imperial.json", forecast: "forecast-imperial.json"), .imperial)
        #expect(report.hourly.count == 4)
        #expect(report.hourly.first?.time == instant(1_795_370_400))  // 18:00 UTC, covering 17:31 UTC
        #expect(approx(report.hourly[0].precipitation, 1.84 / 25.4, 1e-12))
        #expect(approx(report.hourly[0].precipitationProbability, 100))
        #expect(report.hourly[0].condition.group == .snow)  // 601
        // 2026-11-24 MST holds the mixed 616 entry (0.41 + 0.22 mm), 0.77 mm rain and the
        // `"rain": null` entry at 14:00 MST.
        let day = try #require(report.daily.first { $0.date == "2026-11-24" })
        #expect(approx(day.precipitation, (0.41 + 0.22 + 0.77) / 25.4, 1e-9))
        #expect(approx(day.precipitationProbability, 66, 1e-9))
        #expect(approx(day.temperatureMax, 43.08))  // from the null-rain entry itself
        #expect(approx(day.temperatureMin, 15.94))
        // 2026-11-22 MST runs to 23:00 (06:00 UTC next day): 1.84 + 0.92 + 0.31 mm.
        #expect(report.daily.first?.date == "2026-11-22")
        #expect(approx(report.daily.first?.precipitation, (1.84 + 0.92 + 0.31) / 25.4, 1e-9))
        #expect(approx(report.daily.first?.temperatureMin, 24.2))
    }

    @Test func polarBody() throws {
        let report = try decode(Self.fixture("weather-polar.json"), .metric)
        #expect(report.placeName == nil)  // "name": ""
        #expect(report.country == nil)
        #expect(report.utcOffset == 0)
        let c = report.current
        #expect(c.time == instant(1_795_374_723))
        #expect(approx(c.temperature, -27.62))
        #expect(c.sunrise == nil)  // 0
        #expect(c.sunset == nil)
        #expect(c.visibility == nil)
        #expect(c.windDirection == nil)
        #expect(approx(c.windSpeed, 4.12))
        #expect(approx(c.windGust, 5.31))
        #expect(c.condition.group == .cloudy)  // 804
        #expect(c.description == "Overcast clouds")
        #expect(c.isDay == false)        // 04n
        #expect(c.precipitation == nil)
    }

    // MARK: Errors

    @Test(arguments: ["error-401.json", "error-404.json", "error-429.json"])
    func errorBodyAsRecordingIsServiceFailed(_ name: String) throws {
        let body = try #require(try JSONSerialization.jsonObject(with: Self.fixture(name)) as? [String: Any])
        let code = try #require(number(body["cod"]) ?? (body["cod"] as? String).flatMap(Double.init))
        let message = try #require(body["message"] as? String)
        let error = try #require(throws: WeatherError.self) { try decode(Self.fixture(name), .metric) }
        guard case .service(let service, .serviceFailed(let status, let detail)) = error else {
            Issue.record("expected serviceFailed, got \(error)")
            return
        }
        #expect(service == .openWeatherMap)
        #expect(status == Int(code))
        #expect(detail == message)
    }

    @Test func notFoundWithStringCode() throws {
        let error = try #require(throws: WeatherError.self) {
            try decode(Data(#"{"cod":"404","message":"city not found"}"#.utf8), .metric)
        }
        guard case .service(_, .serviceFailed(let status, let detail)) = error else {
            Issue.record("expected serviceFailed, got \(error)")
            return
        }
        #expect(status == 404)
        #expect(detail == "city not found")
        #expect(error.message.contains("HTTP 404"))
    }

    @Test func errorInTheForecastHalfOfACombinedRecording() throws {
        let error = try #require(throws: WeatherError.self) {
            try decode(Self.combined(weather: "weather-tampa-metric.json", forecast: "error-404.json"), .metric)
        }
        guard case .service(_, .serviceFailed(let status, _)) = error else {
            Issue.record("expected serviceFailed, got \(error)")
            return
        }
        #expect(status == 404)
    }

    @Test func nonJSONRecordingsAreUndecodable() throws {
        for (path, words) in [("weather/misc/truncated.json", "JSON"), ("weather/misc/captive-portal.html", "web page")] {
            let error = try #require(throws: WeatherError.self) { try decode(Fixtures.data(path), .metric) }
            guard case .service(let service, .undecodable(let reason)) = error else {
                Issue.record("expected undecodable, got \(error)")
                continue
            }
            #expect(service == .openWeatherMap)
            #expect(reason.contains(words), "\(path)")
        }
    }

    @Test func missingKeyFailsBeforeAnyRequest() async throws {
        let keyless = OpenWeatherMapWeatherProvider(baseURL: "https://api.openweathermap.org", apiKey: "", http: UnusedHTTPClient(), clock: ContinuousClock())
        let query = WeatherQuery(coordinate: Coordinate(latitude: 1, longitude: 2), units: .metric,
                                 deadline: .now + .seconds(5))
        let error = try await #require(throws: WeatherError.self) { try await keyless.report(for: query) }
        guard case .service(_, .missingKey) = error else {
            Issue.record("expected missingKey, got \(error)")
            return
        }
        #expect(error.exitStatus == .configuration)
    }

    // MARK: Request URL

    @Test func requestURLHasRoundedCoordinatesUnitsAndKey() throws {
        let slashed = OpenWeatherMapWeatherProvider(baseURL: "https://api.openweathermap.org/", apiKey: "k", http: UnusedHTTPClient(), clock: ContinuousClock())
        let url = slashed.requestURL("weather", for: Coordinate(latitude: 27.950_6, longitude: -82.457_2),
                                     units: .imperial, key: "0123abcd")
        #expect(url == "https://api.openweathermap.org/data/2.5/weather?lat=27.95&lon=-82.46&units=imperial&appid=0123abcd")
        let forecast = provider.requestURL("forecast", for: Coordinate(latitude: 39.739_2, longitude: -104.984_7),
                                           units: .standard, key: "k")
        #expect(forecast == "https://api.openweathermap.org/data/2.5/forecast?lat=39.74&lon=-104.98&units=standard&appid=k")
    }

    @Test func requestURLEncodesTheKey() throws {
        let url = provider.requestURL("weather", for: Coordinate(latitude: 0, longitude: 0), units: .metric, key: "a b&c=d")
        let components = try #require(URLComponents(string: url))
        #expect(components.queryItems?.first { $0.name == "appid" }?.value == "a b&c=d")
        #expect(components.queryItems?.first { $0.name == "units" }?.value == "metric")
        #expect(components.queryItems?.first { $0.name == "lat" }?.value == "0")
    }
}
