import HereWeatherPlaces
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The words and numbers the outputs draw, in the run's language: messages, numbers with
/// their units, times, dates, compass points, conditions and alert names.
extension UserLocale {
    /// Whether the run speaks English: a service's own English words are shown as it wrote them.
    public var isEnglish: Bool { catalogue.code == "en" }

    /// `message` filled in with `arguments` (in English's order).
    func text(_ message: Message, _ arguments: String...) -> String {
        catalogue.text(message, arguments)
    }

    /// `message` in its plural form for `count` (its `%d`), then `arguments`.
    func text(_ message: Message, count: Int, _ arguments: String...) -> String {
        catalogue.text(message, count: count, arguments)
    }

    /// `value` with `decimals` decimals in this locale: "14.3", "14,3".
    public func number(_ value: Double, _ decimals: Int) -> String {
        conventions.number(value, decimals)
    }

    /// A percentage rounded to a whole number: "65%", "65 %".
    func percent(_ value: Double) -> String {
        conventions.percent(number(value, 0))
    }

    /// A value and its unit: "4.9 m/s", or "4.9m/s" when `compact`.
    func measure(_ value: String, _ unit: Message, compact: Bool = false) -> String {
        value + (compact ? "" : " ") + text(unit)
    }

    /// A speed in the report's units, one decimal: "4.9 m/s".
    func speed(_ value: Double, _ units: Units, compact: Bool = false) -> String {
        measure(number(value, 1), units == .imperial ? .unitMilesPerHour : .unitMetresPerSecond, compact: compact)
    }

    /// An amount of precipitation in the report's units: "0.2 mm", "0.02 in".
    func amount(_ value: Double, _ units: Units, compact: Bool = false) -> String {
        measure(number(value, units == .imperial ? 2 : 1), units == .imperial ? .unitInches : .unitMillimetres,
                compact: compact)
    }

    /// A time at `utcOffset` on `clock`: "14:05", "2:05 PM", "14.05".
    func clock(_ date: Date?, utcOffset: Int, _ clock: Configuration.OutputSettings.ClockFormat) -> String? {
        date.map { conventions.clock(LocalTime($0, utcOffset: utcOffset), twelveHour: clock == .twelveHour) }
    }

    /// The label of a local `YYYY-MM-DD`: "Sun 22 Nov", "So., 22. Nov."; the text itself when
    /// it is not a date. `padded` aligns one-digit days in a column.
    func dayLabel(_ date: String, padded: Bool = false) -> String {
        guard let local = LocalTime(iso8601: date) else { return date }
        return conventions.dayLabel(local, padded: padded)
    }

    static let compassMessages: [Message] = [
        .compassN, .compassNne, .compassNe, .compassEne, .compassE, .compassEse, .compassSe, .compassSse,
        .compassS, .compassSsw, .compassSw, .compassWsw, .compassW, .compassWnw, .compassNw, .compassNnw,
    ]

    /// The 16-point compass name of a direction in degrees ("NNE", German "NNO").
    func compass(_ degrees: Double?) -> String? {
        Formatting.compassIndex(degrees).map { text(Self.compassMessages[$0]) }
    }

    /// A compass point given by its English name ("NE"), in this language.
    func compassPoint(_ english: String) -> String {
        Formatting.compassPoints.firstIndex(of: english).map { text(Self.compassMessages[$0]) } ?? english
    }

    /// The decimals of a coordinate shown to a person, in a report's place and in `where`
    /// alike (4: about 11 m, well inside any source's accuracy for the weather; JSON keeps all).
    static let coordinateDecimals = 4

    /// "27.9506°N, 82.4572°W".
    func coordinate(_ coordinate: Coordinate) -> String {
        let latitude = number(abs(coordinate.latitude), Self.coordinateDecimals)
        let longitude = number(abs(coordinate.longitude), Self.coordinateDecimals)
        return text(.coordinatePair, text(coordinate.latitude < 0 ? .coordinateSouth : .coordinateNorth, latitude),
                    text(coordinate.longitude < 0 ? .coordinateWest : .coordinateEast, longitude))
    }

    /// A distance: "25 m", "1.5 km", "12 km" (a tenth of a kilometre under 10 km, none when whole).
    func distance(_ metres: Double) -> String {
        guard metres >= 1000 else { return measure(number(metres, 0), .unitMetres) }
        let kilometres = metres / 1000
        let decimals = kilometres < 10 && Formatting.fixed(kilometres, 1).hasSuffix(".0") == false ? 1 : 0
        return measure(number(kilometres, decimals), .unitKilometres)
    }

    /// "±1 km", "±25 m", "accuracy unknown".
    func accuracy(_ metres: Double?) -> String {
        guard let metres else { return text(.accuracyUnknown) }
        return text(.accuracyWithin, distance(metres))
    }

    /// The age of data in a few characters: "now" (under a minute), "5 min", "3 h", "2 d".
    func age(_ seconds: Double) -> String {
        let whole = seconds.isFinite ? Int(min(max(0, seconds), 1e15).rounded(.down)) : 0
        if whole < 60 { return text(.ageNow) }
        if whole < 7200 { return text(.unitMinutes, count: whole / 60) }
        if whole < 172_800 { return text(.unitHours, count: whole / 3600) }
        return text(.unitDays, count: whole / 86_400)
    }

    /// A location's age: "12 s" under two minutes, "5 min" under two hours, else "3 h".
    func elapsed(_ seconds: Double) -> String {
        let whole = seconds.isFinite ? Int(min(max(0, seconds), 1e15).rounded()) : 0
        if whole < 120 { return text(.unitSeconds, count: whole) }
        if whole < 7200 { return text(.unitMinutes, count: whole / 60) }
        return text(.unitHours, count: whole / 3600)
    }

    /// The words for a condition. In English a service's own words (`description`: OpenWeatherMap's,
    /// Pirate Weather's summary, the NWS's forecast, Open-Meteo's and MET's documented words),
    /// as it wrote them; in other languages the catalogue's words for the code.
    func conditionWords(_ condition: Condition, _ description: String) -> String {
        if isEnglish && !description.isEmpty { return Self.sentenceCase(description) }
        return text(condition.message)
    }

    /// A service's words in sentence case, as the catalogue's and Open-Meteo's are: the NWS and
    /// Pirate Weather write Title Case ("Showers And Thunderstorms Likely" becomes "Showers and
    /// thunderstorms likely"; issue 35 D24). A word after the first, or after a full stop, that
    /// is a capital and then small letters is lowered; a word in capitals ("NWS") stays.
    static func sentenceCase(_ text: String) -> String {
        var startsSentence = true
        return text.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            defer { startsSentence = word.last.map { ".!?".contains($0) } ?? startsSentence }
            guard !startsSentence, let first = word.first, first.isUppercase, word.count > 1,
                  word.dropFirst().allSatisfy({ !$0.isUppercase }) else { return String(word) }
            return word.lowercased()
        }.joined(separator: " ")
    }

    /// An alert's title: one of the NWS's known events in this language ("Flood Warning"), any
    /// other as the service wrote it.
    func alertTitle(_ title: String) -> String {
        guard !isEnglish, let event = Self.event(title, among: Message.nwsEvents) ?? Self.event(title, among: Message.hazards)
        else { return title }
        return text(event)
    }

    /// A severity word of the Common Alerting Protocol (Extreme, Severe, Moderate, Minor) in
    /// this language; any other as written.
    func severity(_ word: String) -> String {
        guard !isEnglish, let severity = Self.event(word, among: Message.severities) else { return word }
        return text(severity)
    }

    /// The message among `messages` whose English is `title`, ignoring case.
    static func event(_ title: String, among messages: [Message]) -> Message? {
        let english = UserLocale.english.catalogue
        let wanted = title.lowercased()
        guard wanted.count < 80 else { return nil }
        return messages.first { english.text($0, []).lowercased() == wanted }
    }

    /// Where a location came from: "GPS (gpsd)", "IP lookup", "command line"; a live NMEA
    /// device or FIFO is "NMEA device", a log "NMEA replay" (`Location.originName`).
    func sourceName(_ location: Location) -> String {
        location.isLiveNMEA ? text(.sourceNmeaDevice) : sourceName(location.origin)
    }

    /// Where a location of `origin` came from.
    func sourceName(_ origin: LocationOrigin) -> String {
        switch origin {
        case .source(.gpsd): return text(.sourceGpsd)
        case .source(.geoclue): return text(.sourceGeoclue)
        case .source(.wifi): return text(.sourceWifi)
        case .source(.ip): return text(.sourceIp)
        case .source(.nmea): return text(.sourceNmea)
        case .source(.fixed): return text(.sourceFixed)
        // The options' own names, as the report's headline and waybar's tooltip say (issue 35 D24).
        case .commandLine: return "--lat/--lon"
        case .city: return text(.sourceCity)
        }
    }
}

extension UserLocale {
    /// The nearest town: "near Tampa, Florida, US (3 km NE)"; under `NearbyPlace.closeDistance`,
    /// "near Tampa, Florida, US" (`NearbyPlace.text` in English).
    func nearby(_ place: NearbyPlace) -> String {
        guard place.distance >= NearbyPlace.closeDistance else { return text(.placeNear, place.title) }
        let kilometres = measure(String(Int((place.distance / 1000).rounded())), .unitKilometres)
        return text(.placeNearDistance, place.title, kilometres, compassPoint(place.compassPoint))
    }
}
