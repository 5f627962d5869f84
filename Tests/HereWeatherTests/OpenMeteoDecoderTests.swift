import Foundation
import Testing
@testable import HereWeatherCore

/// Decodes Open-Meteo bodies from `Fixtures/weather/open-meteo`. Expected values are read from
/// the fixture files (and the Fixtures README); instants were worked out from the local ISO
/// times and `utc_offset_seconds` in the bodies.
@Suite struct OpenMeteoDecoderTests {
    let provider = OpenMeteoWeatherProvider(baseURL: "https://api.open-meteo.com", http: UnusedHTTPClient(), clock: ContinuousClock())

    func decode(_ name: String, _ units: Units) throws -> WeatherReport {
        try provider.report(fromRecording: Fixtures.data("weather/open-meteo/\(name)"), units: units)
    }

    // MARK: Tampa, metric

    @Test func tampaMetricCurrent() throws {
        let report = try decode("tampa-metric.json", .metric)
        #expect(report.provider == .openMeteo)
        #expect(report.units == .metric)
        #expect(report.utcOffset == -18000)
        #expect(report.placeName == nil)
        let c = report.current
        // "2026-11-22T14:15" at -05:00 is 19:15 UTC.
        #expect(c.time == instant(1_795_374_900))
        #expect(approx(c.temperature, 26.8))
        #expect(approx(c.feelsLike, 26.9))
        #expect(approx(c.humidity, 65))
        #expect(approx(c.pressure, 1018.9))
        #expect(approx(c.cloudCover, 20))
        #expect(approx(c.windSpeed, 4.87))
        #expect(approx(c.windDirection, 30))
        #expect(approx(c.windGust, 8.56))
        #expect(approx(c.visibility, 24140))
        // WMO 1.
        #expect(c.condition.group == .clear)
        #expect(c.description == "Mainly clear")
        #expect(c.isDay == true)
        let precipitation = try #require(c.precipitation)
        #expect(precipitation.total == 0)
        #expect(precipitation.rain == 0)
        #expect(precipitation.snow == 0)
        #expect(precipitation.periodSeconds == 900)
        // Today's sunrise 06:56 and sunset 17:35 local (-05:00).
        #expect(c.sunrise == instant(1_795_348_560))
        #expect(c.sunset == instant(1_795_386_900))
        // Today's min and max from the daily block.
        #expect(approx(c.temperatureMin, 18.2))
        #expect(approx(c.temperatureMax, 27.2))
    }

    @Test func tampaMetricHourlyStartsAtTheCurrentHour() throws {
        let report = try decode("tampa-metric.json", .metric)
        #expect(report.hourlyStep == 3600)
        #expect(report.hourly.count == 12)
        let first = try #require(report.hourly.first)
        // "2026-11-22T14:00" local, the hour containing 14:15.
        #expect(first.time == instant(1_795_374_000))
        #expect(first.time <= report.current.time)
        #expect(first.time.addingTimeInterval(3600) > report.current.time)
        for (index, hour) in report.hourly.enumerated() {
            #expect(hour.time == instant(1_795_374_000 + TimeInterval(index * 3600)))
        }
        #expect(approx(first.temperature, 26.7))
        #expect(approx(first.feelsLike, 26.9))
        #expect(approx(first.windSpeed, 4.74))
        #expect(approx(first.windDirection, 30))
        #expect(approx(first.precipitationProbability, 0))
        #expect(first.condition.group == .clear)
        #expect(first.isDay == true)
        // Index 18 of the body ("2026-11-22T18:00"): code 0, is_day 0.
        #expect(report.hourly[4].description == "Clear sky")
        #expect(report.hourly[4].isDay == false)
        // The last entry is "2026-11-23T01:00" local: 21.0 °C.
        #expect(approx(report.hourly[11].temperature, 21.0))
    }

    @Test func tampaMetricDaily() throws {
        let report = try decode("tampa-metric.json", .metric)
        #expect(report.daily.count == 7)
        #expect(report.daily.map(\.date) == ["2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25",
                                             "2026-11-26", "2026-11-27", "2026-11-28"])
        let showers = report.daily[3]
        #expect(showers.date == "2026-11-25")
        #expect(showers.condition.group == .rain)
        #expect(showers.description == "Moderate rain showers")
        #expect(approx(showers.precipitation, 7.1))
        #expect(approx(showers.precipitationProbability, 75))
        #expect(approx(showers.temperatureMax, 25.3))
        #expect(approx(showers.temperatureMin, 20.5))
        #expect(approx(showers.windSpeedMax, 6.02))
        // "2026-11-25T06:59" and "2026-11-25T17:34" at -05:00.
        #expect(showers.sunrise == instant(1_795_607_940))
        #expect(showers.sunset == instant(1_795_646_040))
        #expect(report.daily[0].condition.group == .partlyCloudy)
    }

    // MARK: Denver, imperial

    @Test func denverImperialCurrent() throws {
        let report = try decode("denver-imperial.json", .imperial)
        #expect(report.units == .imperial)
        #expect(report.utcOffset == -25200)
        let c = report.current
        // "2026-11-22T10:30" at -07:00.
        #expect(c.time == instant(1_795_368_600))
        #expect(approx(c.temperature, 23.1))
        #expect(approx(c.feelsLike, 14.1))
        #expect(approx(c.humidity, 100))
        #expect(approx(c.pressure, 1024.3))
        // "mp/h" in, mph out.
        #expect(approx(c.windSpeed, 7.6))
        #expect(approx(c.windDirection, 14))
        #expect(approx(c.windGust, 14.6))
        // 7874.016 ft is 2400 m.
        #expect(approx(c.visibility, 7874.016 * 0.3048, 1e-6))
        #expect(approx(c.visibility, 2400, 0.001))
        // WMO 71.
        #expect(c.condition.group == .snow)
        #expect(c.description == "Slight snow fall")
        #expect(c.isDay == true)
        // precipitation 0.007 in, rain and showers 0: all of it is snow (water equivalent).
        let precipitation = try #require(c.precipitation)
        #expect(approx(precipitation.total, 0.007, 1e-12))
        #expect(approx(precipitation.rain, 0, 1e-12))
        #expect(approx(precipitation.snow, 0.007, 1e-12))
        #expect(precipitation.periodSeconds == 900)
        // Sunrise 06:52, sunset 16:40 local.
        #expect(c.sunrise == instant(1_795_355_520))
        #expect(c.sunset == instant(1_795_390_800))
        #expect(approx(c.temperatureMin, 19.4))
        #expect(approx(c.temperatureMax, 28.7))
    }

    @Test func denverImperialForecasts() throws {
        let report = try decode("denver-imperial.json", .imperial)
        #expect(report.hourly.count == 12)
        // "2026-11-22T10:00" local.
        #expect(report.hourly.first?.time == instant(1_795_366_800))
        #expect(approx(report.hourly[0].temperature, 22.4))
        #expect(approx(report.hourly[0].precipitation, 0.028, 1e-12))
        #expect(approx(report.hourly[0].precipitationProbability, 75))
        #expect(approx(report.hourly[5].windSpeed, 10.1))
        #expect(report.hourly[0].condition.group == .snow)
        #expect(report.hourly[7].condition.group == .cloudy)  // code 3 at 17:00
        #expect(report.hourly[7].isDay == false)
        #expect(report.daily.count == 7)
        let today = report.daily[0]
        #expect(today.date == "2026-11-22")
        #expect(approx(today.temperatureMax, 28.7))
        #expect(approx(today.temperatureMin, 19.4))
        #expect(approx(today.precipitation, 0.219, 1e-12))
        #expect(approx(today.precipitationProbability, 80))
        #expect(approx(today.windSpeedMax, 10.2))
        #expect(today.condition.group == .snow)
        #expect(today.description == "Moderate snow fall")
    }

    @Test func denverImperialBodyAskedForMetricIsConverted() throws {
        let report = try decode("denver-imperial.json", .metric)
        let c = report.current
        #expect(approx(c.temperature, (23.1 - 32) * 5 / 9))  // -4.94 °C
        #expect(approx(c.windSpeed, 7.6 * 0.44704))           // 3.40 m/s
        #expect(approx(c.windGust, 14.6 * 0.44704))
        #expect(approx(c.precipitation?.total, 0.007 * 25.4, 1e-9))
        #expect(approx(c.precipitation?.snow, 0.007 * 25.4, 1e-9))
        #expect(approx(c.visibility, 2400, 0.001))
        #expect(approx(report.daily[0].precipitation, 0.219 * 25.4, 1e-9))  // 5.56 mm
        #expect(approx(report.daily[0].temperatureMax, (28.7 - 32) * 5 / 9))
    }

    // MARK: Melbourne, positive offset

    @Test func melbourneLocalDateIsAheadOfUTC() throws {
        let report = try decode("melbourne-au-metric.json", .metric)
        #expect(report.utcOffset == 39600)
        let c = report.current
        // "2026-11-23T00:45" at +11:00 is 2026-11-22 13:45 UTC.
        #expect(c.time == instant(1_795_355_100))
        #expect(LocalTime(c.time, utcOffset: 0).dateString == "2026-11-22")
        #expect(report.daily.first?.date == "2026-11-23")
        #expect(report.daily.count == 7)
        #expect(report.daily.last?.date == "2026-11-29")
        #expect(report.daily[5].condition.group == .thunderstorm)  // code 95 on 2026-11-28
        #expect(report.daily[5].date == "2026-11-28")
        // The hourly series starts at local midnight, the hour containing 00:45.
        #expect(report.hourly.count == 12)
        #expect(report.hourly.first?.time == instant(1_795_352_400))
        #expect(approx(report.hourly.first?.temperature, 14.5))
        #expect(report.hourly[6].isDay == true)  // "2026-11-23T06:00", after the 05:55 sunrise
    }

    @Test func melbourneCurrentShowersAtNight() throws {
        let c = try decode("melbourne-au-metric.json", .metric).current
        #expect(approx(c.temperature, 14.3))
        #expect(approx(c.feelsLike, 12.0))
        #expect(approx(c.humidity, 99))
        #expect(approx(c.pressure, 1009.6))
        #expect(approx(c.windSpeed, 5.14))
        #expect(approx(c.windDirection, 212))
        #expect(approx(c.windGust, 9.1))
        #expect(approx(c.visibility, 12000))
        #expect(c.condition.group == .rain)
        #expect(c.description == "Slight rain showers")
        #expect(c.isDay == false)
        // Showers count as rain: 0.15 mm, no snow.
        let precipitation = try #require(c.precipitation)
        #expect(approx(precipitation.total, 0.15))
        #expect(approx(precipitation.rain, 0.15))
        #expect(approx(precipitation.snow, 0))
        // Sunrise "2026-11-23T05:55", sunset "2026-11-23T20:17" at +11:00.
        #expect(c.sunrise == instant(1_795_373_700))
        #expect(c.sunset == instant(1_795_425_420))
        #expect(approx(c.temperatureMin, 12.6))
        #expect(approx(c.temperatureMax, 17.8))
    }

    // MARK: nulls.json

    @Test func nullsInCurrentBecomeNil() throws {
        let report = try decode("nulls.json", .metric)
        #expect(report.utcOffset == 0)
        let c = report.current
        #expect(c.time == instant(1_795_374_900))
        #expect(approx(c.temperature, -27.5))
        #expect(approx(c.feelsLike, -35.4))
        #expect(approx(c.windSpeed, 5.81))
        #expect(c.windDirection == nil)
        #expect(c.windGust == nil)
        #expect(c.visibility == nil)
        #expect(c.isDay == false)
        #expect(c.condition.group == .partlyCloudy)
    }

    @Test func polarNightSunriseEqualsSunsetBecomesNil() throws {
        let report = try decode("nulls.json", .metric)
        #expect(report.current.sunrise == nil)
        #expect(report.current.sunset == nil)
        #expect(report.daily.count == 7)
        for day in report.daily {
            #expect(day.sunrise == nil, "\(day.date)")
            #expect(day.sunset == nil, "\(day.date)")
        }
    }

    @Test func nullsInDailyArraysBecomeNil() throws {
        let report = try decode("nulls.json", .metric)
        let last = report.daily[6]
        #expect(last.date == "2026-11-28")
        #expect(last.temperatureMax == nil)          // daily.temperature_2m_max[6] is null
        #expect(approx(last.temperatureMin, -30.8))  // its neighbour is not
        #expect(approx(report.daily[5].temperatureMax, -28.8))
        // The first 12 hours (indices 19...30) have no nulls.
        #expect(report.hourly.count == 12)
        #expect(report.hourly.allSatisfy { $0.temperature != nil })
        #expect(report.hourly[11].condition.group == .snow)  // code 71 at "2026-11-23T06:00"
    }

    /// Moves `current.time` of nulls.json so the hourly window covers the null entries.
    func nullsReport(currentTime: String) throws -> WeatherReport {
        let text = String(decoding: Fixtures.data("weather/open-meteo/nulls.json"), as: UTF8.self)
        let needle = "\"time\":\"2026-11-22T19:15\""
        try #require(text.contains(needle))
        let moved = text.replacing(needle, with: "\"time\":\"\(currentTime)\"")
        return try provider.report(fromRecording: Data(moved.utf8), units: .metric)
    }

    @Test func nullsInHourlyArraysBecomeNil() throws {
        // From "2026-11-23T20:00" (index 44): temperature_2m is null at 45 and 46.
        let report = try nullsReport(currentTime: "2026-11-23T20:15")
        #expect(report.hourly.count == 12)
        #expect(report.hourly[0].time == instant(1_795_464_000))
        #expect(report.hourly[0].temperature != nil)
        #expect(report.hourly[1].temperature == nil)
        #expect(report.hourly[1].feelsLike == nil)
        #expect(report.hourly[2].temperature == nil)
        #expect(report.hourly[3].temperature != nil)
        #expect(report.hourly[1].windSpeed != nil)  // only the null columns are absent
    }

    @Test func trailingNullGapAtTheEndOfTheSeries() throws {
        // From "2026-11-28T14:00" (index 158) only 10 hours remain; 160...167 are null.
        let report = try nullsReport(currentTime: "2026-11-28T14:30")
        #expect(report.hourly.count == 10)
        #expect(report.hourly[0].temperature != nil)
        #expect(report.hourly[1].temperature != nil)
        for hour in report.hourly.dropFirst(2) {
            #expect(hour.temperature == nil)
            #expect(hour.condition.group == .unknown)  // weather_code null
        }
        #expect(report.daily.map(\.date) == ["2026-11-28"])
        #expect(report.current.temperatureMax == nil)
        #expect(approx(report.current.temperatureMin, -30.8))
    }

    // MARK: Unit conversion by the body's unit strings

    @Test func standardUnitsFromMetricBodyAreKelvin() throws {
        let report = try decode("tampa-metric.json", .standard)
        #expect(report.units == .standard)
        #expect(approx(report.current.temperature, 26.8 + 273.15))
        #expect(approx(report.current.feelsLike, 26.9 + 273.15))
        #expect(approx(report.current.temperatureMax, 27.2 + 273.15))
        #expect(approx(report.hourly[0].temperature, 26.7 + 273.15))
        #expect(approx(report.daily[3].temperatureMin, 20.5 + 273.15))
        // Speeds stay m/s, precipitation mm.
        #expect(approx(report.current.windSpeed, 4.87))
        #expect(approx(report.daily[3].precipitation, 7.1))
    }

    @Test func imperialFromMetricBodyIsConverted() throws {
        let report = try decode("tampa-metric.json", .imperial)
        #expect(report.units == .imperial)
        #expect(approx(report.current.temperature, 80.24, 1e-9))      // 26.8 °C
        #expect(approx(report.current.feelsLike, 26.9 * 9 / 5 + 32))
        #expect(approx(report.current.windSpeed, 4.87 / 0.44704, 1e-9))  // 10.89 mph
        #expect(approx(report.current.windGust, 8.56 / 0.44704, 1e-9))
        #expect(approx(report.hourly[0].temperature, 26.7 * 9 / 5 + 32))
        #expect(approx(report.hourly[0].windSpeed, 4.74 / 0.44704, 1e-9))
        #expect(approx(report.daily[3].precipitation, 7.1 / 25.4, 1e-9))  // 0.28 in
        #expect(approx(report.daily[3].windSpeedMax, 6.02 / 0.44704, 1e-9))
        #expect(approx(report.daily[0].temperatureMin, 18.2 * 9 / 5 + 32))
        // Not unit-system dependent.
        #expect(approx(report.current.visibility, 24140))
        #expect(approx(report.current.pressure, 1018.9))
        #expect(approx(report.current.humidity, 65))
    }

    // MARK: Errors

    @Test(arguments: ["error-400.json", "error-400-invalid-variable.json"])
    func errorBodyIsServiceFailedWithReason(_ name: String) throws {
        let body = try JSONSerialization.jsonObject(with: Fixtures.data("weather/open-meteo/\(name)")) as? [String: Any]
        let reason = try #require(body?["reason"] as? String)
        let error = try #require(throws: WeatherError.self) { try decode(name, .metric) }
        guard case .service(let service, .serviceFailed(_, let detail)) = error else {
            Issue.record("expected serviceFailed, got \(error)")
            return
        }
        #expect(service == .openMeteo)
        #expect(detail == reason)
        #expect(error.message.contains(reason))
        #expect(error.exitStatus == .serviceUnavailable)
    }

    @Test func truncatedBodyIsUndecodableMentioningJSON() throws {
        let data = Fixtures.data("weather/misc/truncated.json")
        let error = try #require(throws: WeatherError.self) {
            try provider.report(fromRecording: data, units: .metric)
        }
        guard case .service(let service, .undecodable(let reason)) = error else {
            Issue.record("expected undecodable, got \(error)")
            return
        }
        #expect(service == .openMeteo)
        #expect(reason.contains("JSON"))
        #expect(error.message.contains("JSON"))
    }

    @Test func captivePortalIsUndecodableMentioningAWebPage() throws {
        let data = Fixtures.data("weather/misc/captive-portal.html")
        let error = try #require(throws: WeatherError.self) {
            try provider.report(fromRecording: data, units: .metric)
        }
        guard case .service(_, .undecodable(let reason)) = error else {
            Issue.record("expected undecodable, got \(error)")
            return
        }
        #expect(reason.contains("web page"))
        #expect(error.message.contains("web page"))
        #expect(!error.message.contains("Harbor Point"))  // the page itself is not quoted
    }

    @Test func jsonWithoutCurrentBlockIsUndecodable() throws {
        let error = try #require(throws: WeatherError.self) {
            try provider.report(fromRecording: Data(#"{"latitude":1,"utc_offset_seconds":0}"#.utf8), units: .metric)
        }
        guard case .service(_, .undecodable) = error else {
            Issue.record("expected undecodable, got \(error)")
            return
        }
    }

    // MARK: Request URL

    func query(_ url: String) throws -> [String: String] {
        let components = try #require(URLComponents(string: url))
        var result: [String: String] = [:]
        for item in components.queryItems ?? [] { result[item.name] = item.value }
        return result
    }

    @Test func requestURLImperialWithTrailingSlashBase() throws {
        let provider = OpenMeteoWeatherProvider(baseURL: "https://api.open-meteo.com/", http: UnusedHTTPClient(), clock: ContinuousClock())
        let url = provider.requestURL(for: Coordinate(latitude: 27.950_6, longitude: -82.457_2), units: .imperial)
        #expect(url.hasPrefix("https://api.open-meteo.com/v1/forecast?"))
        #expect(!url.contains("com//v1"))
        let q = try query(url)
        #expect(q["latitude"] == "27.95")
        #expect(q["longitude"] == "-82.46")
        #expect(q["timezone"] == "auto")
        #expect(q["forecast_days"] == "7")
        #expect(q["temperature_unit"] == "fahrenheit")
        #expect(q["wind_speed_unit"] == "mph")
        #expect(q["precipitation_unit"] == "inch")
        // The variables the Fixtures README documents for the recorded request.
        #expect(q["current"] == "temperature_2m,relative_humidity_2m,apparent_temperature,is_day,precipitation,rain,showers,snowfall,weather_code,cloud_cover,pressure_msl,wind_speed_10m,wind_direction_10m,wind_gusts_10m,visibility,uv_index")
        #expect(q["hourly"] == "temperature_2m,apparent_temperature,precipitation_probability,precipitation,weather_code,wind_speed_10m,wind_direction_10m,is_day,uv_index")
        #expect(q["daily"] == "weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum,precipitation_probability_max,wind_speed_10m_max,sunrise,sunset,uv_index_max")
        // Commas are sent as they are.
        #expect(url.contains("current=temperature_2m,relative_humidity_2m,"))
    }

    @Test(arguments: [Units.metric, .standard])
    func requestURLMetricAndStandardAskForMetresPerSecond(_ units: Units) throws {
        let url = provider.requestURL(for: Coordinate(latitude: -37.813_6, longitude: 144.963_1), units: units)
        #expect(url.hasPrefix("https://api.open-meteo.com/v1/forecast?"))
        let q = try query(url)
        #expect(q["latitude"] == "-37.81")
        #expect(q["longitude"] == "144.96")
        #expect(q["wind_speed_unit"] == "ms")
        #expect(q["temperature_unit"] == nil)
        #expect(q["precipitation_unit"] == nil)
        #expect(q["timezone"] == "auto")
    }

    @Test func requestURLRoundsToTwoDecimals() throws {
        let url = provider.requestURL(for: Coordinate(latitude: 51.499_9, longitude: -0.127_6), units: .metric)
        let q = try query(url)
        #expect(q["latitude"] == "51.5")
        #expect(q["longitude"] == "-0.13")
        let whole = try query(provider.requestURL(for: Coordinate(latitude: 10.001, longitude: -20.004), units: .metric))
        #expect(whole["latitude"] == "10")
        #expect(whole["longitude"] == "-20")
    }
}
