#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HereWeatherPlaces

/// `here-weather where`: the location only, like GeoClue's where-am-i.
public enum LocationReport {
    /// Aligned "Label: value" lines.
    public static func text(_ location: Location, now: Date = Date()) -> String {
        var rows: [(String, String)] = [
            ("Latitude", Formatting.fixed(location.coordinate.latitude, 6) + "°"),
            ("Longitude", Formatting.fixed(location.coordinate.longitude, 6) + "°"),
            ("Accuracy", accuracyText(location)),
        ]
        if let altitude = location.altitude { rows.append(("Altitude", Formatting.fixed(altitude, 1) + " m")) }
        var source = location.origin.displayName
        if let service = location.service { source += " via \(service)" }
        if let count = location.accessPoints { source += ", \(count) access points" }
        if let mode = location.mode { source += ", \(mode)D fix" }
        if location.simulated { source += ", simulated" }
        rows.append(("Source", source))
        if let name = location.name ?? location.nearbyPlace?.text { rows.append(("Place", name)) }
        rows.append(("Time", LocalTime.iso8601(location.timestamp, utcOffset: 0).replacing("+00:00", with: "Z")))
        rows.append(("Age", ageText(now.timeIntervalSince(location.timestamp))))
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { TextWidth.pad($0.0 + ":", width + 1) + " " + $0.1 }.joined(separator: "\n")
    }

    /// `{"location":{...}}` with the main JSON's keys plus `meets_accuracy`, `mode`, `simulated`.
    public static func json(_ location: Location) -> String {
        JSONOutput.object([("location", JSONReport.locationObject(location, utcOffset: 0))]).serialized()
    }

    static func accuracyText(_ location: Location) -> String {
        guard let metres = location.horizontalAccuracy else { return "unknown" }
        var text = Formatting.fixed(metres, metres < 10 ? 1 : 0) + " m"
        if location.accuracyIsEstimate {
            // An IP service that gives no radius is assumed right to the city; a receiver's from HDOP.
            text += location.source == .ip ? " (assumed: city level)" : " (estimated from HDOP)"
        }
        if !location.meetsDesiredAccuracy {
            // An IP fix is city level by nature: say that, not the rule it missed.
            if location.source != .ip {
                text += " (does not meet the desired accuracy)"
            } else if !location.accuracyIsEstimate {
                text += " (city-level location)"
            }
        }
        return text
    }

    static func ageText(_ seconds: Double) -> String {
        let whole = seconds.isFinite ? Int(min(max(0, seconds), 1e15).rounded()) : 0
        if whole < 120 { return "\(whole) s" }
        if whole < 7200 { return "\(whole / 60) min" }
        return "\(whole / 3600) h"
    }
}
