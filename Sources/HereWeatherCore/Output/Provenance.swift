#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a location came from, in words: "GPS ±8 m, 12 s ago", "IP lookup via ipinfo.io
/// ≈ city, ±25 km", "fixed: Tampa".
public enum Provenance {
    public static func text(_ location: Location, now: Date = Date(), charset: TextCharset = .utf8,
                            locale: UserLocale = .english) -> String {
        var text: String
        let accuracy = self.accuracy(location, locale)
        let ago = { locale.text(.ageAgo, locale.elapsed(location.age(at: now))) }
        let service = location.service ?? locale.text(.provenanceAWebService)
        switch location.origin {
        case .source(.gpsd):
            text = locale.text(.provenanceGps, accuracy, ago())
            if location.simulated { text = locale.text(.provenanceSimulated, text) }
        case .source(.geoclue):
            text = locale.text(.provenanceGeoclue, accuracy, ago())
        case .source(.nmea) where location.isLiveNMEA:
            text = locale.text(.provenanceNmeaDevice, accuracy, ago())
            if location.simulated { text = locale.text(.provenanceSimulated, text) }
        case .source(.nmea):
            text = locale.text(.provenanceNmea, accuracy)
            if location.simulated { text = locale.text(.provenanceSimulated, text) }
        case .source(.ip):
            text = locale.text(.provenanceIp, service, accuracy)
        case .source(.wifi):
            text = location.accessPoints.map { locale.text(.provenanceWifiAccessPoints, count: $0, service, accuracy) }
                ?? locale.text(.provenanceWifi, service, accuracy)
        case .source(.fixed):
            text = locale.text(.provenanceFixed, location.name ?? locale.coordinate(location.coordinate))
        case .commandLine:
            text = "--lat/--lon"
        case .city:
            text = locale.text(.provenanceCity, location.name ?? locale.coordinate(location.coordinate))
        }
        // An IP fix already says "≈ city", which is what a user needs to know of it.
        if !location.meetsDesiredAccuracy, location.source != .ip { text = locale.text(.provenanceLessAccurate, text) }
        return charset.fold(text)
    }

    /// "±8 m", "±25 km", "≈±10 m" for an HDOP estimate, "accuracy unknown".
    static func accuracy(_ location: Location, _ locale: UserLocale = .english) -> String {
        let text = locale.accuracy(location.horizontalAccuracy)
        return location.accuracyIsEstimate ? locale.text(.accuracyEstimated, text) : text
    }
}
