#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HereWeatherPlaces

/// `here-weather where`: the location only, like GeoClue's where-am-i.
public enum LocationReport {
    /// Why the remembered fix answered, for `--verbose` (English, as every `--verbose` line).
    static func why(_ memory: Location.Memory) -> String {
        switch memory {
        case .recent: return "recent and accurate enough, so no source was asked"
        case .standsIn: return "no source gave a fix, and it is within max age"
        }
    }

    /// Aligned "Label: value" lines, every character in `charset`, in `locale`'s language; with
    /// a `width`, a longer value wraps at spaces, its later lines indented under it.
    public static func text(_ location: Location, now: Date, charset: TextCharset = .utf8,
                            locale: UserLocale = .english, width: Int? = nil) -> String {
        let degree = charset.degree
        var rows: [(String, String)] = [
            (locale.text(.whereLatitude), locale.number(location.coordinate.latitude, UserLocale.coordinateDecimals) + degree),
            (locale.text(.whereLongitude), locale.number(location.coordinate.longitude, UserLocale.coordinateDecimals) + degree),
            (locale.text(.whereAccuracy), accuracyText(location, locale)),
        ]
        if let altitude = location.altitude {
            rows.append((locale.text(.whereAltitude), locale.measure(locale.number(altitude, 1), .unitMetres)))
        }
        var source = locale.sourceName(location)
        if let service = location.service { source = locale.text(.whereVia, source, service) }
        if let count = location.accessPoints { source = locale.text(.whereAccessPoints, count: count, source) }
        if let mode = location.mode { source = locale.text(.whereFixMode, source, String(mode)) }
        if location.simulated { source = locale.text(.provenanceSimulated, source) }
        if location.memory != nil { source = locale.text(.whereRemembered, source, locale.elapsed(location.age(at: now))) }
        rows.append((locale.text(.whereSource), source))
        if let name = location.name ?? location.nearbyPlace.map(locale.nearby) { rows.append((locale.text(.wherePlace), name)) }
        rows += timeRows(location, now: now, locale: locale)
        let labelWidth = (rows.map { TextWidth.columns($0.0) }.max() ?? 0) + 2
        var lines = rows.flatMap { label, value in
            hanging(TextWidth.pad(label + ":", labelWidth - 1) + " ", value, width: width, charset: charset)
        }
        if let note = ReceiverClock.note(for: location, locale: locale) {
            lines += hanging(locale.text(.whereNote) + ": ", note, width: width, charset: charset)
        }
        // The labels are padded by their width, so folding the values (a place name) keeps them aligned.
        return charset.fold(lines.joined(separator: "\n"))
    }

    /// `label` then `value`, wrapped to `width` with its later lines under the value's start
    /// (no last line of one word: `TextWidth.withoutWidow`).
    static func hanging(_ label: String, _ value: String, width: Int?, charset: TextCharset) -> [String] {
        let indent = TextWidth.columns(label)
        guard let width, indent + TextWidth.columns(charset.fold(value)) > width else { return [label + value] }
        let room = max(12, width - indent)
        let wrapped = TextWidth.withoutWidow(TextWidth.wrap(charset.fold(value), room, ellipsis: charset.ellipsis), width: room)
        return wrapped.enumerated().map { ($0.offset == 0 ? label : String(repeating: " ", count: indent)) + $0.element }
    }

    /// `--verbose` lines on the location's time: "location: Time: ...; Age: ...; Receiver time: ...",
    /// and the receiver-clock note when there is one. Always English, as every `--verbose` line.
    public static func verboseLines(_ location: Location, now: Date) -> [String] {
        let rows = timeRows(location, now: now, locale: .english).map { "\($0.0): \($0.1)" }
        var lines = ["location: " + rows.joined(separator: "; ")]
        if let memory = location.memory {
            let remembered = UserLocale.english.text(.whereRemembered, location.originName, ageText(location.age(at: now)))
            lines.append("location: " + remembered + ": " + why(memory))
        }
        if let note = ReceiverClock.note(for: location) { lines.append("location: Note: " + note) }
        return lines
    }

    /// When the fix was had and its age: on this machine's clock with the receiver's own time
    /// beside it, or, for a replay, on the log's clock and where in the log.
    static func timeRows(_ location: Location, now: Date, locale: UserLocale) -> [(String, String)] {
        let time = ReceiverClock.utc(location.timestamp)
        if let log = location.logClock {
            let into = locale.elapsed(location.timestamp.timeIntervalSince(log.start))
            let before = locale.elapsed(log.latest.timeIntervalSince(location.timestamp))
            return [(locale.text(.whereTime), locale.text(.whereLogTime, time, into)),
                    (locale.text(.whereAge), locale.text(.whereLogAge, before))]
        }
        var rows = [(locale.text(.whereTime), time), (locale.text(.whereAge), locale.elapsed(location.age(at: now)))]
        if let receiverTime = location.receiverTime {
            rows.append((locale.text(.whereReceiverTime), ReceiverClock.utc(receiverTime)))
        }
        return rows
    }

    /// `{"language":"de","location":{...}}` with the main JSON's keys plus `meets_accuracy`,
    /// `mode`, `simulated`; the nearest place's text in `locale`'s language.
    public static func json(_ location: Location, locale: UserLocale = .english) -> String {
        JSONOutput.object([("language", .string(locale.code)),
                           ("location", JSONReport.locationObject(location, utcOffset: 0, locale: locale))]).serialized()
    }

    static func accuracyText(_ location: Location, _ locale: UserLocale = .english) -> String {
        guard let metres = location.horizontalAccuracy else { return locale.text(.whereAccuracyUnknown) }
        var text = locale.measure(locale.number(metres, metres < 10 ? 1 : 0), .unitMetres)
        if location.accuracyIsEstimate {
            // An IP service that gives no radius is assumed right to the city; a receiver's from HDOP.
            text = locale.text(location.source == .ip ? .whereAssumedCity : .whereFromHdop, text)
        }
        if !location.meetsDesiredAccuracy {
            // An IP fix is city level by nature: say that, not the rule it missed.
            if location.source != .ip {
                text = locale.text(.whereNotDesired, text)
            } else if !location.accuracyIsEstimate {
                text = locale.text(.whereCityLevel, text)
            }
        }
        return text
    }

    /// A location's age: "12 s", "5 min", "3 h", in English (`UserLocale.elapsed`).
    static func ageText(_ seconds: Double) -> String {
        UserLocale.english.elapsed(seconds)
    }
}
