import Foundation
@testable import HereWeatherCLI
@testable import HereWeatherCore
import HereWeatherPlaces

/// The weather recordings `scripts/gallery` replays, decoded in the test process: for what the
/// services wrote in them (`EnglishWords.serviceWords`) and for renderers run on values.
enum GalleryRecordings {
    struct Recording: Sendable {
        var kind: WeatherProviderKind
        var body: Data
        var units: Units
        var coordinate: Coordinate
    }

    static func fixture(_ path: String) -> String { String(decoding: Fixtures.data("weather/" + path), as: UTF8.self) }

    static var all: [Recording] {
        let tampa = Coordinate(latitude: 27.95, longitude: -82.46)
        let denver = Coordinate(latitude: 39.74, longitude: -104.99)
        let oslo = Coordinate(latitude: 59.91, longitude: 10.75)
        func make(_ kind: WeatherProviderKind, _ text: String, _ coordinate: Coordinate, _ units: Units = .metric) -> Recording {
            Recording(kind: kind, body: Data(text.utf8), units: units, coordinate: coordinate)
        }
        let owmTampa = #"{"weather":"# + fixture("openweathermap/weather-tampa-metric.json") + #","forecast":"#
            + fixture("openweathermap/forecast-tampa-metric.json") + "}"
        let owmDenver = #"{"weather":"# + fixture("openweathermap/weather-snow-3h-imperial.json") + #","forecast":"#
            + fixture("openweathermap/forecast-imperial.json") + "}"
        let nws = #"{"points":"# + fixture("nws/points-tampa.json") + #","forecast_hourly":"# + fixture("nws/forecast-hourly-tampa.json")
            + #","forecast":"# + fixture("nws/forecast-tampa.json") + #","observation":"# + fixture("nws/observation-latest-ktpa.json")
            + #","alerts":"# + fixture("nws/alerts-tampa.json") + "}"
        return [
            make(.openMeteo, fixture("open-meteo/tampa-metric.json"), tampa),
            make(.openMeteo, fixture("open-meteo/tampa-rain-in-30-min.json"), tampa),
            make(.openMeteo, fixture("open-meteo/tampa-dry-nowcast.json"), tampa),
            make(.openMeteo, fixture("open-meteo/melbourne-au-metric.json"), Coordinate(latitude: -37.81, longitude: 144.96)),
            make(.openMeteo, fixture("open-meteo/denver-imperial.json"), denver, .imperial),
            make(.openMeteo, fixture("open-meteo/nulls.json"), Coordinate(latitude: 89.9, longitude: 0)),
            make(.metNorway, fixture("metno/oslo-compact-with-nowcast.json"), oslo),
            make(.metNorway, fixture("metno/oslo-compact.json"), oslo),
            make(.openWeatherMap, owmTampa, tampa),
            make(.openWeatherMap, owmDenver, denver, .imperial),
            make(.openWeatherMap, fixture("openweathermap/weather-rain-1h.json"), Coordinate(latitude: 44.34, longitude: 10.99)),
            make(.openWeatherMap, fixture("openweathermap/weather-polar.json"), Coordinate(latitude: 89.9, longitude: 0)),
            make(.openWeatherMap, fixture("openweathermap/onecall-tampa-metric.json"), tampa),
            make(.pirateWeather, fixture("pirateweather/tampa-si.json"), tampa),
            make(.pirateWeather, fixture("pirateweather/denver-us.json"), denver, .imperial),
            make(.pirateWeather, fixture("pirateweather/tampa-rain-in-30-min.json"), tampa),
            make(.pirateWeather, fixture("pirateweather/tampa-dry-nowcast.json"), tampa),
            make(.nws, nws, tampa),
        ]
    }

    /// Each recording decoded, with a command-line location at its point (and its nearest town).
    static func decoded() throws -> [(WeatherReport, Location)] {
        let system = RunSystem.test(http: UnusedHTTPClient())
        return try all.map { recording in
            let provider = Run.test(system: system).weatherProvider(recording.kind)
            var report = try provider.report(fromRecording: recording.body, units: recording.units)
            report.freshness.replayed = true
            var location = Location(coordinate: recording.coordinate, timestamp: report.current.time, origin: .commandLine)
            location.nearbyPlace = PlaceIndex.nearest(latitude: recording.coordinate.latitude,
                                                      longitude: recording.coordinate.longitude)
            return (report, location)
        }
    }
}
