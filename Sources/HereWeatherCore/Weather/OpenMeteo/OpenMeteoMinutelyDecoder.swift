#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads Open-Meteo's `minutely_15` block (`precipitation`, `rain`, `snowfall`, `weather_code`
/// at ISO 8601 local times, `timezone=auto`) into a `Nowcast`.
///
/// Open-Meteo's 15-minute `precipitation` is the sum over the 15 minutes *before* its time, so
/// the value at 14:15 is the step from 14:00, and its intensity four times the amount. Units
/// come from `minutely_15_units` (`mm` or `inch`; `snowfall` in `cm` or `inch`). A block
/// without times or precipitation gives no nowcast.
enum OpenMeteoMinutelyDecoder {
    static let stepSeconds = 900

    static func decode(_ body: JSONValue, utcOffset offset: Int, issued: Date) -> Nowcast? {
        guard let block = body["minutely_15"], let times = block["time"]?.array,
              let amounts = block["precipitation"]?.array else { return nil }
        let units = body["minutely_15_units"]
        func millimetres(_ name: String, _ index: Int) -> Double? {
            UnitConversion.precipitation(block[name]?[index]?.double, from: units?[name]?.string ?? "mm", to: .metric)
        }
        var steps: [Nowcast.Step] = []
        for (index, value) in times.enumerated() where index < amounts.count {
            guard let end = value.date(utcOffset: offset) else { continue }
            let perHour = 3600 / Double(stepSeconds)
            steps.append(Nowcast.Step(
                start: end.addingTimeInterval(-Double(stepSeconds)),
                intensity: millimetres("precipitation", index).map { $0 * perHour },
                kind: kind(rain: millimetres("rain", index), snowfall: millimetres("snowfall", index),
                           code: block["weather_code"]?[index]?.double)))
        }
        guard !steps.isEmpty else { return nil }
        return Nowcast(source: .openMeteo, stepSeconds: stepSeconds, steps: steps, issued: issued)
    }

    /// Rain and snow amounts say the kind; else the WMO code (snow 71-77, 85-86; the rest of
    /// 51-99 falls as rain or drizzle); else none.
    static func kind(rain: Double?, snowfall: Double?, code: Double?) -> Nowcast.Kind? {
        let raining = (rain ?? 0) > 0
        let snowing = (snowfall ?? 0) > 0
        if raining && snowing { return .mixed }
        if snowing { return .snow }
        if raining { return .rain }
        guard let code, code.isFinite else { return nil }
        switch Int(exactly: code.rounded()) ?? 0 {
        case 71...77, 85, 86: return .snow
        case 51...67, 80...82, 95...99: return .rain
        default: return nil
        }
    }
}
