#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// MET Norway's Nowcast 2.0 (`/weatherapi/nowcast/2.0/complete`): radar-based precipitation in
/// 5-minute steps for about two hours, for Norway, Sweden, Finland and Denmark only.
///
/// The body is GeoJSON like Locationforecast's: `properties.meta.radar_coverage` is `ok`,
/// `temporarily unavailable` or `no coverage`, and each `properties.timeseries[]` entry has
/// `data.instant.details.precipitation_rate` in mm/h (`meta.units.precipitation_rate`) while
/// the radar covers the point. Anything but `ok` is no nowcast, not an error.
enum MetNorwayNowcast {
    static let stepSeconds = 300

    /// The area the nowcast is asked for: a box around Norway, Sweden, Finland and Denmark
    /// (54.5°N to 71.5°N, 4°E to 31.6°E; not Svalbard). It holds some sea and neighbours'
    /// land too (northern Germany, the Baltic states' coasts): there MET answers
    /// `no coverage`, which is no nowcast. Outside it no request is made.
    static let latitudes = 54.5...71.5
    static let longitudes = 4.0...31.6

    static func covers(_ coordinate: Coordinate) -> Bool {
        latitudes.contains(coordinate.latitude) && longitudes.contains(coordinate.longitude)
    }

    /// The nowcast in `body`; `nil` without radar coverage, or when nothing in it is readable.
    static func decode(_ body: JSONValue) -> Nowcast? {
        let meta = body["properties"]?["meta"]
        guard meta?["radar_coverage"]?.string == "ok",
              let series = body["properties"]?["timeseries"]?.array else { return nil }
        let unit = meta?["units"]?["precipitation_rate"]?.string ?? "mm/h"
        let steps = series.compactMap { entry -> Nowcast.Step? in
            guard let time = entry["time"]?.string.flatMap(MetNorwayDecoder.parseTime) else { return nil }
            let rate = entry["data"]?["instant"]?["details"]?["precipitation_rate"]?.double
            return Nowcast.Step(start: time, intensity: millimetresPerHour(rate, unit: unit))
        }
        guard let first = steps.first else { return nil }
        let issued = meta?["updated_at"]?.string.flatMap(MetNorwayDecoder.parseTime) ?? first.start
        return Nowcast(source: .metNorway, stepSeconds: stepSeconds, steps: steps, issued: issued)
    }

    /// A rate in `unit` (`mm/h`, or an amount unit taken per hour) in mm/h.
    static func millimetresPerHour(_ value: Double?, unit: String) -> Double? {
        let amountUnit = unit.hasSuffix("/h") ? String(unit.dropLast(2)) : unit
        return UnitConversion.precipitation(value, from: amountUnit, to: .metric)
    }

    /// A nowcast body as a recording keeps it, with the `Last-Modified` it came with (sent
    /// back as `If-Modified-Since` on the next request).
    struct Stored: Sendable {
        var body: Data
        var lastModified: String?
    }

    /// A recording holding both bodies: `{"locationforecast": {...}, "nowcast": {...}}`, and
    /// `"nowcast_last_modified": "..."` when the nowcast came with one.
    static func recording(forecast: Data, nowcast: Stored) -> Data {
        let lastModified = nowcast.lastModified.map { #","nowcast_last_modified":"# + JSONOutput.string($0).serialized() } ?? ""
        return Data(#"{"locationforecast":"#.utf8) + forecast + Data(#","nowcast":"#.utf8) + nowcast.body
            + Data((lastModified + "}").utf8)
    }

    /// The nowcast of a stored recording with its `Last-Modified`, for a conditional request;
    /// `nil` when the recording has no nowcast or it came without one.
    static func stored(in recording: Data) -> Stored? {
        guard let value = try? JSONValue.parse(recording), let nowcast = value["nowcast"],
              let lastModified = value["nowcast_last_modified"]?.string else { return nil }
        return Stored(body: Data(JSONOutput(nowcast).serialized().utf8), lastModified: lastModified)
    }

    /// The Locationforecast body and the nowcast body (if any) of a recording: a plain
    /// Locationforecast body, or the combined shape of `recording(forecast:nowcast:)`.
    static func split(_ recording: JSONValue) -> (forecast: JSONValue, nowcast: JSONValue?) {
        guard let forecast = recording["locationforecast"] else { return (recording, nil) }
        return (forecast, recording["nowcast"])
    }
}

extension JSONOutput {
    /// `value` as output, object keys sorted (to write a parsed body back).
    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let number): self = .number(number)
        case .string(let text): self = .string(text)
        case .array(let elements): self = .array(elements.map(JSONOutput.init))
        case .object(let members): self = .object(members.keys.sorted().map { ($0, JSONOutput(members[$0] ?? .null)) })
        }
    }
}
