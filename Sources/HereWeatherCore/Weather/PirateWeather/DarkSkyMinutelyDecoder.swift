#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads the Dark Sky format `minutely` block (Pirate Weather: 61 one-minute data points
/// with Unix `time`, `precipIntensity` in mm/h (`si`) or in/h (`us`), `precipProbability`
/// 0 to 1 and `precipType` `rain`, `snow`, `sleet` or `none`) into a `Nowcast`.
enum DarkSkyMinutelyDecoder {
    static let stepSeconds = 60

    static func decode(_ body: JSONValue, unitsSent: String, issued: Date) -> Nowcast? {
        guard let points = body["minutely"]?["data"]?.array else { return nil }
        let unit = unitsSent == "us" ? "inch" : "mm"
        let steps = points.compactMap { point -> Nowcast.Step? in
            guard let time = point["time"]?.unixTime else { return nil }
            return Nowcast.Step(
                start: time,
                intensity: UnitConversion.precipitation(point["precipIntensity"]?.double, from: unit, to: .metric),
                probability: point["precipProbability"]?.double.map { $0 * 100 },
                kind: kind(point["precipType"]?.string))
        }
        guard !steps.isEmpty else { return nil }
        return Nowcast(source: .pirateWeather, stepSeconds: stepSeconds, steps: steps, issued: issued)
    }

    static func kind(_ type: String?) -> Nowcast.Kind? {
        switch type {
        case "rain": return .rain
        case "snow": return .snow
        case "sleet", "mixed", "ice", "hail": return .mixed
        default: return nil
        }
    }
}
