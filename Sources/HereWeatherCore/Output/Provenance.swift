#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a location came from, in words: "GPS ±8 m, 12 s ago", "IP lookup via ipinfo.io
/// ≈ city, ±25 km", "fixed: Tampa".
public enum Provenance {
    public static func text(_ location: Location, now: Date = Date()) -> String {
        var text: String
        switch location.origin {
        case .source(.gpsd):
            text = "GPS \(accuracy(location)), \(LocationReport.ageText(location.age(at: now))) ago"
            if location.simulated { text += ", simulated" }
        case .source(.geoclue):
            text = "GeoClue \(accuracy(location)), \(LocationReport.ageText(location.age(at: now))) ago"
        case .source(.nmea):
            text = "NMEA log \(accuracy(location))"
            if location.simulated { text += ", simulated" }
        case .source(.ip):
            text = "IP lookup via \(location.service ?? "a web service") ≈ city, \(accuracy(location))"
        case .source(.wifi):
            text = "Wi-Fi via \(location.service ?? "a web service")"
            if let count = location.accessPoints { text += " (\(count) access points)" }
            text += ", \(accuracy(location))"
        case .source(.fixed):
            text = "fixed: " + (location.name ?? Formatting.coordinate(location.coordinate))
        case .commandLine:
            text = "--lat/--lon"
        case .city:
            text = "city search: " + (location.name ?? Formatting.coordinate(location.coordinate))
        }
        // An IP fix already says "≈ city", which is what a user needs to know of it.
        if !location.meetsDesiredAccuracy, location.source != .ip { text += ", less accurate than asked" }
        return text
    }

    /// "±8 m", "±25 km", "≈±10 m" for an HDOP estimate, "accuracy unknown".
    static func accuracy(_ location: Location) -> String {
        let text = Formatting.accuracy(location.horizontalAccuracy)
        return location.accuracyIsEstimate ? "≈" + text : text
    }
}
