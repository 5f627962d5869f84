import Foundation
import Testing
@testable import HereWeatherCore
import HereWeatherPlaces

/// The warnings sources' decoders and MeteoAlarm's matching, in-process, on the recorded
/// bodies of Fixtures/weather/alerts (issue 34).
@Suite struct RegionalAlertsDecoderTests {
    static func body(_ name: String) throws -> JSONValue {
        try JSONValue.parse(Fixtures.data("weather/alerts/" + name))
    }

    static let gospic = Coordinate(latitude: 44.5461, longitude: 15.3747)
    static let karlobagSea = Coordinate(latitude: 44.53, longitude: 15.05)
    static let zagreb = Coordinate(latitude: 45.8150, longitude: 15.9819)
    static let osijek = Coordinate(latitude: 45.5550, longitude: 18.6955)
    /// 2026-11-28 12:00 UTC: within the recorded warnings, after the expired one.
    static let now = Date(timeIntervalSince1970: 1_795_867_200)

    @Test func theCountryOfAPointComesFromTheOfflinePlaces() {
        #expect(RegionalAlertsWeatherProvider.country(of: Self.gospic) == "HR")
        #expect(RegionalAlertsWeatherProvider.country(of: Coordinate(latitude: 60.39, longitude: 5.32)) == "NO")
        #expect(RegionalAlertsWeatherProvider.country(of: Coordinate(latitude: 48.137, longitude: 11.575)) == "DE")
        #expect(RegionalAlertsWeatherProvider.country(of: Coordinate(latitude: 27.9506, longitude: -82.4572)) == nil,
                "a US point asks none of them")
        #expect(RegionalAlertsWeatherProvider.country(of: Coordinate(latitude: 0, longitude: -30)) == nil, "open sea")
    }

    @Test func metAlertsKeepsWhatMETReturnsButCancellations() throws {
        let alerts = MetAlertsDecoder.alerts(try Self.body("metalerts-bergen-en.json"))
        #expect(alerts.map(\.title) == ["Gale", "Rain"])
        let gale = try #require(alerts.first)
        #expect(gale.level == .yellow)
        #expect(gale.severity == "Moderate")
        #expect(gale.area == "Hordaland coast")
        #expect(gale.source == "MET Norway")
        #expect(gale.end == ISO8601DateFormatter().date(from: "2026-11-29T06:00:00Z"))
        #expect(gale.description?.contains("Difficult conditions at sea.") == true, "consequences follow the description")
        #expect(MetAlertsDecoder.alerts(try Self.body("metalerts-bergen-no.json")).map(\.title) == ["Kuling", "Regn"])
        #expect(MetAlertsSource.language("nb") == "no")
        #expect(MetAlertsSource.language("de") == "en")
    }

    @Test func dwdInGermanAndInOtherLanguages() throws {
        let german = DWDDecoder.alerts(try Self.body("dwd-munich.json"), german: true)
        #expect(german.map(\.title) == ["Sturmböen", "Frost"], "the repeated warning once, the cancellation dropped")
        #expect(german.first?.headline == "Amtliche WARNUNG vor STURMBÖEN")
        #expect(german.first?.area == "Stadt München")
        let english = DWDDecoder.alerts(try Self.body("dwd-munich.json"), german: false)
        #expect(english.map(\.title) == ["Wind", "Frost"])
        #expect(english.allSatisfy { $0.description == nil && $0.headline == nil && $0.instruction == nil },
                "German texts are not shown under another language")
        #expect(UserLocale(language: "fr").alertTitle("Wind") == "Vent", "the hazard is translated")
    }

    func croatia(at coordinate: Coordinate, names: Set<String>? = nil, language: String = "en") throws -> RegionalAlerts {
        let point = names.map { MeteoAlarmMatch.Point(coordinate: coordinate, names: $0) } ?? MeteoAlarmMatch.Point(coordinate)
        return MeteoAlarmDecoder.alerts(try Self.body("meteoalarm-croatia.json"), at: point, language: language, country: "HR")
    }

    @Test func meteoAlarmMatchesTheRegionByName() throws {
        let alerts = try croatia(at: Self.gospic)
        let local = WeatherAlert.inForce(alerts.local, at: Self.now)
        #expect(local.map(\.title) == ["Orange wind warning"], "the expired one is left out; the cancelled red one too")
        #expect(local.first?.level == .orange)
        #expect(local.first?.area == "Gospić region")
        let elsewhere = WeatherAlert.inForce(alerts.elsewhere, at: Self.now)
        #expect(elsewhere.map(\.title) == ["Red wind warning", "Orange wind warning", "Yellow rain warning",
                                            "Yellow coastal event warning"],
                "Split's, Zagreb's update (not the warning it updates), Dubrovnik's, the channel's")
    }

    @Test func anotherRegionsWarningIsNeverLocal() throws {
        let zagreb = try croatia(at: Self.zagreb)
        #expect(WeatherAlert.inForce(zagreb.local, at: Self.now).map(\.title) == ["Orange wind warning"])
        #expect(zagreb.local.allSatisfy { $0.area == "Zagreb region" })
        let osijek = try croatia(at: Self.osijek)
        #expect(osijek.local.isEmpty, "no region of the feed is Osijek's")
        #expect(WeatherAlert.inForce(osijek.elsewhere, at: Self.now).count == 5)
    }

    @Test func aPolygonDecidesAlone() throws {
        let sea = try croatia(at: Self.karlobagSea, names: ["gospic"])
        #expect(WeatherAlert.inForce(sea.local, at: Self.now).map(\.title).contains("Yellow coastal event warning"))
        let town = try croatia(at: Self.gospic, names: ["velebit channel"])
        #expect(!town.local.contains { $0.title == "Yellow coastal event warning" },
                "the area's name matches, but the polygon does not hold the point")
    }

    @Test func theOutputLanguageIsChosenElseEnglishElseTheFirst() throws {
        #expect(try croatia(at: Self.gospic, language: "en").local.first?.title == "Orange wind warning")
        let message = try #require(CAPDecoder.message(try Self.body("meteoalarm-croatia.json")["warnings"]?[0]?["alert"]))
        #expect(MeteoAlarmDecoder.chosenInfo(message.infos, language: "de")?.language == "en-GB", "no German: English")
        var croatianOnly = message.infos
        croatianOnly.removeAll { $0.language == "en-GB" }
        #expect(MeteoAlarmDecoder.chosenInfo(croatianOnly, language: "de")?.language == "hr-HR", "no English: the first")
        let croatian = CAPMessage.Info(language: "hr-HR", parameters: [:], areas: [])
        #expect(MeteoAlarmDecoder.chosenInfo([message.infos[1], croatian], language: "hr")?.language == "hr-HR")
    }

    @Test func namesFoldDiacriticsAndKindWords() {
        #expect(NameFold.core("Gospić region") == "gospic")
        #expect(NameFold.core("GOSPIC") == "gospic")
        #expect(NameFold.core("Landkreis Rosenheim") == "rosenheim")
        #expect(NameFold.core("Ærø Kommune") == "aero")
        #expect(NameFold.core("Kreis") == "")
    }

    @Test func awarenessLevelsAsServicesWriteThem() {
        #expect(AwarenessLevel("3; orange; Severe") == .orange)
        #expect(AwarenessLevel("red") == .red)
        #expect(AwarenessLevel("2") == .yellow)
        #expect(AwarenessLevel("1; green; Minor") == nil)
        #expect(AwarenessLevel(nil) == nil)
        #expect(WeatherAlert(title: "x", level: .red).severityRank < WeatherAlert(title: "y", level: .yellow).severityRank)
    }

    @Test func capPolygonsAndOddBodies() {
        #expect(CAPDecoder.polygon("44.4,14.9 44.7,14.9 44.7,15.15 44.4,14.9")?.count == 4)
        #expect(CAPDecoder.polygon("44.4,14.9 91,14.9 44.7,15.15") == nil)
        #expect(CAPDecoder.polygon("nonsense") == nil)
        #expect(CAPDecoder.message(.string("x")) == nil)
        #expect(MeteoAlarmDecoder.alerts(.array([]), at: .init(coordinate: Self.gospic, names: []), language: "en",
                                         country: "HR").local.isEmpty)
        #expect(DWDDecoder.alerts(.object(["features": .array([.number(1)])]), german: true).isEmpty)
        #expect(MetAlertsDecoder.alerts(.object(["features": .array([.object(["properties": .null])])])).isEmpty)
    }

    @Test func placesAroundAPoint() {
        let places = PlaceIndex.places(latitude: Self.gospic.latitude, longitude: Self.gospic.longitude, within: 30_000)
        #expect(places.first?.name == "Gospić")
        #expect(places.allSatisfy { $0.distance <= 30_100 })
        #expect(zip(places, places.dropFirst()).allSatisfy { $0.distance <= $1.distance })
    }

    /// `[alerts] dwd = false` and `[alerts.dwd] enabled = false` say the same (TOML has no key
    /// that is both a switch and a table); the defaults are on.
    @Test func theSwitchesInBothForms() throws {
        let defaults = Configuration().alerts
        #expect(defaults.metno && defaults.dwd && defaults.meteoalarm && defaults.eccc)
        let (short, _) = try ConfigurationLoader.parse("[alerts]\nmetno = false\ndwd = false\nmeteoalarm = false\n", path: "c.toml")
        #expect(!short.alerts.metno && !short.alerts.dwd && !short.alerts.meteoalarm)
        let (long, warnings) = try ConfigurationLoader.parse("""
            [alerts.dwd]
            enabled = false
            base_url = "https://dwd.example.org"
            [alerts.meteoalarm]
            base_url = "https://meteoalarm.example.org"
            """, path: "c.toml")
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(!long.alerts.dwd && long.alerts.meteoalarm)
        #expect(long.alerts.dwdBaseURL == "https://dwd.example.org")
        #expect(long.alerts.meteoalarmBaseURL == "https://meteoalarm.example.org")
        #expect(throws: (any Error).self) { try ConfigurationLoader.parse("[alerts]\ndwd = \"no\"\n", path: "c.toml") }
    }

    /// The alert label's colour follows CAP's severity, else the awareness level; Minor stays bold.
    @Test func labelsAreColouredBySeverity() {
        let style = TerminalStyle(colour: true, glyphs: false)
        #expect(style.alertLabel("Alert: ", WeatherAlert(title: "x", severity: "Extreme")) == "\u{1B}[1;31mAlert: \u{1B}[0m")
        #expect(style.alertLabel("Alert: ", WeatherAlert(title: "x", level: .orange)) == "\u{1B}[1;38;5;208mAlert: \u{1B}[0m")
        #expect(style.alertLabel("Alert: ", WeatherAlert(title: "x", severity: "Moderate")) == "\u{1B}[1;33mAlert: \u{1B}[0m")
        #expect(style.alertLabel("Alert: ", WeatherAlert(title: "x", severity: "Minor")) == "\u{1B}[1mAlert: \u{1B}[0m")
        #expect(TerminalStyle.plain.alertLabel("Alert: ", WeatherAlert(title: "x", severity: "Extreme")) == "Alert: ")
    }

    /// Every country MeteoAlarm carries (and Norway, Germany) has a name in every language, from CLDR.
    @Test func everyWarningCountryIsNamedInEveryLanguage() {
        for language in LanguageData.all.map(\.code) {
            let conventions = UserLocale(language: language).conventions
            for code in MeteoAlarmSource.feeds.keys.sorted() {
                let name = conventions.countryName(code)
                #expect(name != nil && name != code && name?.isEmpty == false, "\(language) \(code)")
            }
        }
        #expect(UserLocale.english.conventions.countryName("HR") == "Croatia")
        #expect(UserLocale(language: "de").conventions.countryName("HR") == "Kroatien")
        #expect(UserLocale.english.conventions.countryName("XX") == nil)
    }
}
