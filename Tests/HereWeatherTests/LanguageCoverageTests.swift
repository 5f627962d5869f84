import Foundation
import Testing
@testable import HereWeatherCore
import HereWeatherPlaces

/// Every text a report can show, in every language but English, has no English word
/// (`EnglishWords`): renderers run on values for what the recordings cannot show (each
/// location source, cached and stale reports, every kind of nowcast, a receiver's clock
/// notes), and the JSON's words. `LanguageGalleryTests` checks what the binary prints.
/// Its cases run one at a time: each renders every report in one language on a cooperative thread,
/// and 20 languages' cases side by side held every such thread of a 2-core machine.
@Suite(.serialized) struct LanguageCoverageTests {
    static let languages = LanguageData.all.map(\.code).filter { $0 != "en" }
    static let now = Date(timeIntervalSince1970: 1_795_374_900)

    func output(_ code: String, icons: GlyphSet = .emoji, clock: Configuration.OutputSettings.ClockFormat = .twentyFourHour)
        -> Configuration.OutputSettings {
        Configuration.OutputSettings(icons: icons, clock: clock, locale: UserLocale(language: code))
    }

    func expectNoEnglish(_ text: String, _ code: String, allowed: Set<String> = [], _ what: String,
                         sourceLocation: SourceLocation = #_sourceLocation) {
        let found = EnglishWords.found(in: text, language: code, allowed: allowed)
        #expect(found.isEmpty, "\(code), \(what): English \(found) in:\n\(text)", sourceLocation: sourceLocation)
    }

    /// The check itself: English output fails it, and so does one English word in a German line.
    @Test func theCheckFindsEnglish() throws {
        let (report, location) = try #require(GalleryRecordings.decoded().first)
        let english = TextReport(location: location, report: report, style: .plain, now: Self.now).render(hourly: true, daily: true)
        #expect(EnglishWords.found(in: english, language: "de").count > 5)
        #expect(EnglishWords.found(in: "Heiter, 26,8 °C, feels like 26,9 °C", language: "de") == ["feels", "like"])
        #expect(EnglishWords.found(in: "Wind 4,9 m/s aus NNO", language: "de").isEmpty, "Wind is German too")
        #expect(EnglishWords.found(in: "dom 16 ago, hace 5 min", language: "es").isEmpty, "ago is agosto in Spanish's CLDR months")
        #expect(EnglishWords.found(in: "ne 16. 8., před 5 min", language: "cs").isEmpty, "ne is neděle in Czech's CLDR days")
        #expect(EnglishWords.found(in: "dom 16 ago, feels like", language: "es") == ["feels", "like"])
    }

    @Test(arguments: languages)
    func everyRecordingInEveryOutput(_ code: String) throws {
        let decoded = try GalleryRecordings.decoded()
        let allowed = EnglishWords.serviceWords(decoded)
        let format = try FormatString("%c|%C|%x|%t|%f|%w|%h|%p|%P|%u|%s|%l|%L|%a|%O|%A|%R")
        // Each recording in full on a terminal, and with ASCII icons, a 12-hour clock and 40 columns;
        // the first also cached, stale and fresh (their lines differ; the rest does not).
        for (index, (report, location)) in decoded.enumerated() {
            let freshnesses = index == 0
                ? [Freshness(replayed: true), Freshness(cached: true, ageSeconds: 150),
                   Freshness(cached: true, ageSeconds: 10_800, stale: true), Freshness(cached: true, ageSeconds: 20), Freshness()]
                : [Freshness(replayed: true)]
            for freshness in freshnesses {
                var report = report
                report.freshness = freshness
                for (settings, style) in [(output(code), TerminalStyle(colour: false, glyphs: true, chart: true, width: 80)),
                                          (output(code, icons: .ascii, clock: .twelveHour),
                                           TerminalStyle(colour: false, glyphs: true, chart: true, width: 40))] {
                    let text = TextReport(location: location, report: report, style: style, output: settings, now: Self.now)
                    expectNoEnglish(text.render(hourly: true, daily: true), code, allowed: allowed, "text report")
                    let fields = ReportFields(location: location, report: report, output: settings, now: Self.now)
                    expectNoEnglish(format.render(fields), code, allowed: allowed, "--format")
                    expectNoEnglish(WaybarReport.tooltip(fields), code, allowed: allowed, "waybar tooltip")
                }
            }
            // JSON keeps its keys and codes; its descriptions and the nearest place are words.
            let json = JSONReport.render(location: location, report: report, now: Self.now, locale: UserLocale(language: code))
            let object = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            #expect(object["language"] as? String == code)
            let weather = try #require(object["weather"] as? [String: Any])
            let entries: [Any] = [weather["current"] as Any] + (weather["hourly"] as? [Any] ?? []) + (weather["daily"] as? [Any] ?? [])
            let words = entries.compactMap { ($0 as? [String: Any])?["description"] as? String }
            #expect(!words.isEmpty)
            expectNoEnglish(words.joined(separator: "\n"), code, allowed: allowed, "JSON descriptions")
        }
    }

    /// Each way a location is had, as the report's first line and `where` show it.
    @Test(arguments: languages)
    func everyLocationSource(_ code: String) throws {
        let locale = UserLocale(language: code)
        let point = Coordinate(latitude: 27.9506, longitude: -82.4572)
        let earlier = Self.now.addingTimeInterval(-12)
        let tampa = PlaceIndex.nearest(latitude: point.latitude, longitude: point.longitude)
        let allowed = Set(EnglishWords.words(tampa?.title ?? ""))
        var locations = [
            Location(coordinate: point, horizontalAccuracy: 8, timestamp: earlier, source: .gpsd, altitude: 12, mode: 3),
            Location(coordinate: point, horizontalAccuracy: 40, timestamp: earlier, source: .gpsd, accuracyIsEstimate: true,
                     meetsDesiredAccuracy: false, mode: 2, simulated: true),
            Location(coordinate: point, horizontalAccuracy: 30, timestamp: earlier, source: .geoclue),
            Location(coordinate: point, horizontalAccuracy: 25_000, timestamp: earlier, source: .ip, accuracyIsEstimate: true,
                     meetsDesiredAccuracy: false, service: "ipinfo.io", nearbyPlace: tampa),
            Location(coordinate: point, horizontalAccuracy: 12_000, timestamp: earlier, source: .ip, meetsDesiredAccuracy: false),
            Location(coordinate: point, horizontalAccuracy: 60, timestamp: earlier, source: .wifi, service: "api.beacondb.net",
                     accessPoints: 5),
            Location(coordinate: point, horizontalAccuracy: 1500, timestamp: earlier, source: .wifi, accessPoints: 1),
            Location(coordinate: point, horizontalAccuracy: nil, timestamp: earlier, source: .nmea, simulated: true),
            Location(coordinate: point, horizontalAccuracy: 1000, timestamp: earlier, source: .fixed, name: "Tampa"),
            Location(coordinate: point, timestamp: earlier, source: .fixed),
            Location(coordinate: point, timestamp: earlier, origin: .commandLine, nearbyPlace: tampa),
            Location(coordinate: point, horizontalAccuracy: 5000, timestamp: earlier, origin: .city, name: "Tampa",
                     service: "Open-Meteo geocoding"),
            Location(coordinate: Coordinate(latitude: -37.81, longitude: 144.96), timestamp: earlier, origin: .city),
        ]
        var replayed = Location(coordinate: point, horizontalAccuracy: 5, timestamp: earlier, source: .nmea, mode: 3)
        replayed.logClock = LogClock(start: earlier.addingTimeInterval(-90), latest: Self.now)
        locations.append(replayed)
        // A fix remembered from an earlier run, for each reason it answered.
        for memory in [Location.Memory.recent, .standsIn] {
            var remembered = locations[0]
            remembered.memory = memory
            locations.append(remembered)
        }
        // A receiver's clock: a week rollover, this machine behind, the receiver behind.
        for offset: TimeInterval in [-ReceiverClock.rolloverPeriod, 3 * 86_400, -9_000] {
            var fix = Location(coordinate: point, horizontalAccuracy: 8, timestamp: earlier, source: .gpsd)
            fix.receiverTime = earlier.addingTimeInterval(offset)
            locations.append(fix)
        }
        for location in locations {
            let allowedHere = allowed.union(EnglishWords.words((location.service ?? "") + " " + (location.name ?? "")))
            expectNoEnglish(Provenance.text(location, now: Self.now, locale: locale), code, allowed: allowedHere, "provenance")
            expectNoEnglish(LocationReport.text(location, now: Self.now, locale: locale), code, allowed: allowedHere, "where")
            let json = LocationReport.json(location, locale: locale)
            #expect(json.hasPrefix(#"{"language":"\#(code)","location":"#), "\(json)")
        }
    }

    /// Every kind of nowcast: starting, stopping, lasting, dry; rain, snow, both, unknown; horizons
    /// under an hour, of whole hours and of hours and minutes; 12- and 24-hour clocks.
    @Test(arguments: languages)
    func everyNowcast(_ code: String) throws {
        let start = Self.now
        func nowcast(_ intensities: [Double?], kind: Nowcast.Kind?, step: Int = 300) -> Nowcast {
            let steps = intensities.enumerated().map { index, intensity in
                Nowcast.Step(start: start.addingTimeInterval(Double(index * step)), intensity: intensity, kind: kind)
            }
            return Nowcast(source: .metNorway, stepSeconds: step, steps: steps, issued: start)
        }
        let spells: [[Double?]] = [
            [0, 0, 0, 0, 0, 0, 1, 2, 3, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],   // starts, ends
            [0, 0, 0, 0, 0, 0, 1, 2, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2],   // starts, lasts past
            [2, 2, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],   // stops
            Array(repeating: 2, count: 24),                                             // throughout
            Array(repeating: 0, count: 24),                                             // dry, 2 hours
            Array(repeating: 0, count: 9),                                              // dry, 45 minutes
            Array(repeating: 0, count: 12),                                             // dry, 1 hour
            Array(repeating: 0, count: 18),                                             // dry, 1 h 30 min
        ]
        for intensities in spells {
            for kind in [Nowcast.Kind.rain, .snow, .mixed, nil] {
                let outlook = try #require(NowcastOutlook(nowcast(intensities, kind: kind), at: start))
                for units in [Units.metric, .imperial] {
                    for icons in [GlyphSet.emoji, .ascii] {
                        for clock in Configuration.OutputSettings.ClockFormat.allCases {
                            let text = NowcastText(outlook, units: units, utcOffset: 3600,
                                                   output: output(code, icons: icons, clock: clock))
                            expectNoEnglish([text.sentence, text.short, text.bars(width: 60)].joined(separator: "\n"), code, "nowcast")
                        }
                    }
                }
            }
        }
    }

    /// What a report says when it is old or long: a stale NWS report whose forecast has no
    /// newer hour ("its last hour", with its date), and more alerts than the text lists.
    @Test(arguments: languages)
    func aStaleForecastAndManyAlerts(_ code: String) throws {
        let decoded = try GalleryRecordings.decoded()
        let allowed = EnglishWords.serviceWords(decoded)
        var (report, location) = try #require(decoded.first)
        report.currentBasis = .forecast
        report.freshness = Freshness(cached: true, ageSeconds: 3 * 86_400, stale: true)
        report.alerts = (1...AlertText.listed + 2).map { _ in WeatherAlert(title: "Flood Warning", severity: "Severe", source: "NWS") }
        for locale in [UserLocale.english, UserLocale(language: code)] {
            let settings = Configuration.OutputSettings(locale: locale)
            let text = TextReport(location: location, report: report, style: .plain, output: settings, now: Self.now)
            let rendered = text.render(hourly: true, daily: true)
            let tooltip = WaybarReport.tooltip(ReportFields(location: location, report: report, output: settings, now: Self.now))
            #expect(rendered.contains(AlertText.more(2, locale: locale)) && tooltip.contains(AlertText.more(2, locale: locale)))
            if locale.code == "en" {
                #expect(rendered.contains("local time (its last hour;"), "the case is made: \(rendered)")
            } else {
                expectNoEnglish(rendered + "\n" + tooltip, code, allowed: allowed.union(["nws"]), "stale, many alerts")
            }
        }
    }

    /// Catalogues whose NWS event names still repeat the alert label's word or hold a colon of
    /// their own ("Varning: Varning för ...", "Emergencia: ..."), for their translators to fix
    /// (issue 30): take a language off once it passes.
    static let eventNamesToFix: Set<String> = []

    /// The NWS event names of `locale` that do not read well after its alert label: one that
    /// starts with the label's word ("Warnung: Warnung vor Ascheregen") or has a colon
    /// ("Warnung: Hinweis für Kleinfahrzeuge: Wind").
    static func eventNameProblems(_ locale: UserLocale) -> [String] {
        let label = locale.text(.alertLabel)
        let labelWord = EnglishWords.words(label).first
        return Message.nwsEvents.map { locale.text($0) }.filter { name in
            name.contains(":") || name.contains("：") || (labelWord != nil && EnglishWords.words(name).first == labelWord)
        }
    }

    @Test(arguments: LanguageData.all.map(\.code))
    func anEventNameReadsWellAfterTheAlertLabel(_ code: String) {
        let problems = Self.eventNameProblems(UserLocale(language: code))
        if Self.eventNamesToFix.contains(code) {
            #expect(!problems.isEmpty, "\(code) passes now: take it off eventNamesToFix")
        } else {
            #expect(problems.isEmpty, "\(code): after \(UserLocale(language: code).text(.alertLabel).debugDescription): \(problems)")
        }
    }

    /// Alerts: the NWS's known events and CAP's severities in the language; other titles as sent.
    @Test(arguments: languages)
    func alertsOfTheNWSsKnownEvents(_ code: String) {
        let locale = UserLocale(language: code)
        let english = UserLocale.english
        for event in Message.nwsEvents {
            let title = english.text(event)
            let alert = WeatherAlert(title: title, severity: "Severe", end: Self.now, source: "NWS Tampa Bay Ruskin FL")
            let line = AlertText.line(alert, utcOffset: 0, clock: .twentyFourHour, locale: locale)
            expectNoEnglish(line, code, allowed: ["nws", "tampa", "bay", "ruskin", "fl"], "alert \(title)")
            #expect(locale.alertTitle(title.uppercased()) == locale.text(event), "matched whatever the case")
        }
        #expect(locale.alertTitle("Avviso di burrasca") == "Avviso di burrasca", "a title the NWS does not list stays")
        // "Flood Warning +1"; Korean "홍수 경보 외 1건".
        let short = AlertText.short([WeatherAlert(title: "Flood Warning"), WeatherAlert(title: "x")], locale: locale)
        #expect(short.contains(locale.alertTitle("Flood Warning")) && short.contains("1") && !short.contains("x"), "\(short)")
    }
}
