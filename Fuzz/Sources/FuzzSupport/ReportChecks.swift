#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HereWeatherCore

/// What must hold for any report a decoder returns, whatever the body: finite numbers, and
/// every output format renders it (the JSON output as valid JSON; the text, without colour,
/// as plain lines: a service cannot drive the terminal). An error must pass `ErrorChecks`.
public enum ReportChecks {
    /// The same place and time for every input, so that a crash reproduces.
    static let location = Location(coordinate: Coordinate(latitude: 27.95, longitude: -82.46),
                                   horizontalAccuracy: 25, timestamp: Date(timeIntervalSince1970: 1_795_000_000),
                                   source: .fixed, name: "Fuzz")
    static let now = Date(timeIntervalSince1970: 1_795_000_060)
    static let allCodes = try! FormatString(FormatString.Code.allCases.map { "%\($0.letter)" }.joined(separator: " "))

    /// Decodes `data` as a recording of `provider` in every unit system and checks each
    /// report, or the error (`ErrorChecks`).
    public static func decodeRecording(_ data: Data, with provider: any WeatherProvider) {
        for units in Units.allCases {
            do {
                check(try provider.report(fromRecording: data, units: units))
            } catch {
                ErrorChecks.check(error)
            }
        }
    }

    public static func check(_ report: WeatherReport) {
        checkNumbers(report)
        NowcastChecks.check(report, at: [now, report.current.time])
        // In English and in a language whose words come from a catalogue, its numbers from CLDR.
        let german = UserLocale(language: "de", measurementTerritory: "DE", timeTerritory: "DE")
        for locale in [UserLocale.english, german] {
            let json = JSONReport.render(location: location, report: report, now: now, locale: locale)
            require((try? JSONValue.parse(Data(json.utf8))) != nil, "the JSON report is not JSON: \(json)")
        }
        for output in [Configuration.OutputSettings(icons: .emoji, clock: .twentyFourHour),
                       Configuration.OutputSettings(icons: .ascii, clock: .twelveHour),
                       Configuration.OutputSettings(icons: .emoji, clock: .twelveHour, locale: german)] {
            let text = TextReport(location: location, report: report,
                                  style: TerminalStyle(colour: true, glyphs: true, chart: true), output: output, now: now)
            _ = text.render(hourly: true, daily: true)
            let plain = TextReport(location: location, report: report,
                                   style: TerminalStyle(colour: false, glyphs: false, chart: true), output: output, now: now)
            requirePlainText(plain.render(hourly: true, daily: true), "the text report")
            let fields = ReportFields(location: location, report: report, output: output, now: now)
            let waybar = WaybarReport.render(fields, format: allCodes)
            require((try? JSONValue.parse(Data(waybar.utf8))) != nil, "the Waybar output is not JSON: \(waybar)")
        }
    }

    static func checkNumbers(_ report: WeatherReport) {
        let now = report.current
        for (name, value) in [("temperature", now.temperature), ("feels like", now.feelsLike),
                              ("minimum", now.temperatureMin), ("maximum", now.temperatureMax),
                              ("humidity", now.humidity), ("pressure", now.pressure), ("cloud cover", now.cloudCover),
                              ("wind speed", now.windSpeed), ("wind direction", now.windDirection),
                              ("gust", now.windGust), ("visibility", now.visibility),
                              ("precipitation", now.precipitation?.total), ("rain", now.precipitation?.rain),
                              ("snow", now.precipitation?.snow), ("UV index", now.uvIndex)] {
            requireFinite(value, "current \(name)")
        }
        if let uv = now.uvIndex { require(uv >= 0 && uv < 100, "a UV index out of range: \(uv)") }
        if let air = report.airQuality {
            for value in [air.europeanAQI, air.usAQI, air.pm2_5, air.pm10] + (air.pollen ?? []).map(\.grains) {
                requireFinite(value, "an air quality value")
                if let value { require(value >= 0, "a negative air quality value: \(value)") }
            }
            require(air.europeanAQI != nil || air.usAQI != nil, "an air quality without an index")
        }
        for date in [now.time, now.sunrise, now.sunset] { requireFinite(date?.timeIntervalSince1970, "a current time") }
        for hour in report.hourly {
            for value in [hour.temperature, hour.feelsLike, hour.precipitationProbability, hour.precipitation,
                          hour.windSpeed, hour.windDirection, hour.time.timeIntervalSince1970, hour.uvIndex] {
                requireFinite(value, "an hourly value")
            }
        }
        for day in report.daily {
            for value in [day.temperatureMin, day.temperatureMax, day.precipitation, day.precipitationProbability,
                          day.windSpeedMax, day.sunrise?.timeIntervalSince1970, day.sunset?.timeIntervalSince1970,
                          day.uvIndexMax] {
                requireFinite(value, "a daily value")
            }
        }
        for alert in report.alerts {
            requireFinite(alert.start?.timeIntervalSince1970, "an alert's start")
            requireFinite(alert.end?.timeIntervalSince1970, "an alert's end")
        }
    }
}
