#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HereWeatherPlaces

/// `here-weather where`: the location only, like GeoClue's where-am-i.
public enum LocationReport {
    /// The words this component adds, in one place.
    enum Words {
        /// "remembered from GPS (gpsd), 3 s ago".
        static func remembered(_ source: String, age: String) -> String {
            "remembered from \(source), \(age) ago"
        }

        /// Why the remembered fix answered, for `--verbose`.
        static func why(_ memory: Location.Memory) -> String {
            switch memory {
            case .recent: return "recent and accurate enough, so no source was asked"
            case .standsIn: return "no source gave a fix, and it is within max age"
            }
        }
    }

    /// Aligned "Label: value" lines, every character in `charset`.
    public static func text(_ location: Location, now: Date, charset: TextCharset = .utf8) -> String {
        var rows: [(String, String)] = [
            ("Latitude", Formatting.fixed(location.coordinate.latitude, 6) + charset.degree),
            ("Longitude", Formatting.fixed(location.coordinate.longitude, 6) + charset.degree),
            ("Accuracy", accuracyText(location)),
        ]
        if let altitude = location.altitude { rows.append(("Altitude", Formatting.fixed(altitude, 1) + " m")) }
        var source = location.originName
        if let service = location.service { source += " via \(service)" }
        if let count = location.accessPoints { source += ", \(count) access points" }
        if let mode = location.mode { source += ", \(mode)D fix" }
        if location.simulated { source += ", simulated" }
        if location.memory != nil { source = Words.remembered(source, age: ageText(location.age(at: now))) }
        rows.append(("Source", source))
        if let name = location.name ?? location.nearbyPlace?.text { rows.append(("Place", name)) }
        rows += timeRows(location, now: now)
        let width = rows.map(\.0.count).max() ?? 0
        var lines = rows.map { TextWidth.pad($0.0 + ":", width + 1) + " " + $0.1 }
        if let note = ReceiverClock.note(for: location) { lines.append("Note: " + note) }
        // The labels are ASCII, so folding the values (a place name) keeps them aligned.
        return charset.fold(lines.joined(separator: "\n"))
    }

    /// `--verbose` lines on the location's time: "location: Time: ...; Age: ...; Receiver time: ...",
    /// and the receiver-clock note when there is one.
    public static func verboseLines(_ location: Location, now: Date) -> [String] {
        let rows = timeRows(location, now: now).map { "\($0.0): \($0.1)" }
        var lines = ["location: " + rows.joined(separator: "; ")]
        if let memory = location.memory {
            lines.append("location: " + Words.remembered(location.originName, age: ageText(location.age(at: now)))
                         + ": " + Words.why(memory))
        }
        if let note = ReceiverClock.note(for: location) { lines.append("location: Note: " + note) }
        return lines
    }

    /// When the fix was had and its age: on this machine's clock with the receiver's own time
    /// beside it, or, for a replay, on the log's clock and where in the log.
    static func timeRows(_ location: Location, now: Date) -> [(String, String)] {
        let time = ReceiverClock.utc(location.timestamp)
        if let log = location.logClock {
            let into = ageText(location.timestamp.timeIntervalSince(log.start))
            let before = ageText(log.latest.timeIntervalSince(location.timestamp))
            return [("Time", "\(time) (log time, \(into) into the log)"),
                    ("Age", "\(before) before the log's latest sentence (the replay runs on the log's clock)")]
        }
        var rows = [("Time", time), ("Age", ageText(location.age(at: now)))]
        if let receiverTime = location.receiverTime {
            rows.append(("Receiver time", ReceiverClock.utc(receiverTime)))
        }
        return rows
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
