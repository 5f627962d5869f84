#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a location came from, in words: "GPS ±8 m, 12 s ago", "IP lookup via ipinfo.io
/// ≈ city, ±25 km", "fixed: Tampa".
public enum Provenance {
    public static func text(_ location: Location, now: Date, charset: TextCharset = .utf8) -> String {
        var text: String
        switch location.origin {
        case .source(.gpsd):
            text = "GPS \(accuracy(location, charset)), \(LocationReport.ageText(location.age(at: now))) ago"
            if location.simulated { text += ", simulated" }
        case .source(.geoclue):
            text = "GeoClue \(accuracy(location, charset)), \(LocationReport.ageText(location.age(at: now))) ago"
        case .source(.nmea) where location.isLiveNMEA:
            text = "\(LocationSource.liveNMEAName) \(accuracy(location, charset)), \(LocationReport.ageText(location.age(at: now))) ago"
            if location.simulated { text += ", simulated" }
        case .source(.nmea):
            text = "NMEA log \(accuracy(location, charset))"
            if location.simulated { text += ", simulated" }
        case .source(.ip):
            text = "IP lookup via \(location.service ?? "a web service") \(charset.approximately) city, \(accuracy(location, charset))"
        case .source(.wifi):
            text = "Wi-Fi via \(location.service ?? "a web service")"
            if let count = location.accessPoints { text += " (\(count) access points)" }
            text += ", \(accuracy(location, charset))"
        case .source(.fixed):
            text = "fixed: " + (location.name ?? Formatting.coordinate(location.coordinate, charset))
        case .commandLine:
            text = "--lat/--lon"
        case .city:
            text = "city search: " + (location.name ?? Formatting.coordinate(location.coordinate, charset))
        }
        // An IP fix already says "≈ city", which is what a user needs to know of it.
        if !location.meetsDesiredAccuracy, location.source != .ip { text += ", less accurate than asked" }
        return charset.fold(text)
    }

    /// "±8 m", "±25 km", "≈±10 m" for an HDOP estimate, "accuracy unknown".
    static func accuracy(_ location: Location, _ charset: TextCharset = .utf8) -> String {
        let text = Formatting.accuracy(location.horizontalAccuracy, charset)
        return location.accuracyIsEstimate ? charset.approximately + text : text
    }
}
