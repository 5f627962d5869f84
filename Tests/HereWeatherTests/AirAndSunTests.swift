import Foundation
import Testing
@testable import HereWeatherCore

/// The UV index from each provider's forecast request, WHO's categories, the air quality's
/// categories and pollen levels, the Air Quality API's decoder, the moon, and what the
/// outputs make of them (in-process).
@Suite struct AirAndSunTests {
    /// 2026-11-22 14:15 EST, when the Tampa recordings were made.
    static let recorded = Date(timeIntervalSince1970: 1_795_374_900)

    // MARK: UV index

    @Test(arguments: [(0.0, UVIndex.Category.low), (2.4, .low), (2.5, .moderate), (5.4, .moderate), (5.5, .high),
                      (7.4, .high), (7.5, .veryHigh), (10.4, .veryHigh), (10.5, .extreme), (16, .extreme)])
    func whoCategories(_ index: Double, _ category: UVIndex.Category) {
        #expect(UVIndex.category(index) == category)
    }

    /// Each provider's forecast gives the UV index now, per hour and per day; NWS and
    /// OpenWeatherMap's classic API none.
    @Test func everyProviderReadsItsUVIndex() throws {
        let openMeteo = try OpenMeteoDecoder.decode(try JSONValue.parse(Fixtures.data("weather/open-meteo/tampa-metric.json")), units: .metric)
        #expect(openMeteo.current.uvIndex == 3.87)
        #expect(openMeteo.daily.first?.uvIndexMax == 5.57)
        #expect(openMeteo.hourly.contains { $0.uvIndex != nil })
        let oneCall = try OneCallDecoder.decode(try JSONValue.parse(Fixtures.data("weather/openweathermap/onecall-tampa-metric.json")), units: .metric)
        #expect(oneCall.current.uvIndex == 3.12)
        #expect(oneCall.daily.first?.uvIndexMax == 4.6)
        #expect(oneCall.hourly.first?.uvIndex != nil)
        let pirate = try DarkSkyDecoder.decode(try JSONValue.parse(Fixtures.data("weather/pirateweather/tampa-si.json")), units: .metric)
        #expect(pirate.current.uvIndex != nil)
        #expect(pirate.daily.first?.uvIndexMax != nil)
        let metno = try MetNorwayDecoder.decode(try JSONValue.parse(Fixtures.data("weather/metno/oslo-compact.json")), units: .metric)
        #expect(metno.current.uvIndex == 0.3, "ultraviolet_index_clear_sky at 10:00 UTC")
        #expect(metno.daily.first?.uvIndexMax == 0.4, "the day's highest step")
        let classic = try OpenWeatherMapDecoder.decode(current: try JSONValue.parse(Fixtures.data("weather/openweathermap/weather-tampa-metric.json")),
                                                       forecast: nil, units: .metric)
        #expect(classic.current.uvIndex == nil)
    }

    @Test func aUVIndexOutOfRangeIsNone() {
        #expect(UVIndex.reading(-1) == nil)
        #expect(UVIndex.reading(.nan) == nil)
        #expect(UVIndex.reading(1e9) == nil)
        #expect(UVIndex.reading(11.2) == 11.2)
    }

    @Test func theTextReportSaysTheUVIndexAndTheDailyTableHasIt() throws {
        let report = try FormatStringTests.report()
        let text = TextReport(location: FormatStringTests.tampa, report: report, style: TerminalStyle(colour: false, glyphs: false, width: 100),
                              now: Self.recorded).render(daily: true)
        #expect(text.contains("UV index 4 (moderate)"), "\(text)")
        let header = try #require(text.split(separator: "\n").first { $0.hasPrefix("Day ") })
        #expect(header.contains("  UV  Sky"), "\(header)")
        // Narrow: UV is the first column left out.
        let narrow = TextReport(location: FormatStringTests.tampa, report: report, style: TerminalStyle(colour: false, glyphs: false, width: 60),
                                now: Self.recorded).render(daily: true)
        let narrowHeader = try #require(narrow.split(separator: "\n").first { $0.hasPrefix("Day ") })
        #expect(!narrowHeader.contains("UV"), "\(narrow)")
    }

    // MARK: Air quality

    @Test(arguments: [(0.0, AirQuality.EuropeanCategory.good), (19.9, .good), (20, .fair), (40, .moderate), (59, .moderate),
                      (60, .poor), (80, .veryPoor), (100, .veryPoor), (101, .extremelyPoor)])
    func europeanBands(_ index: Double, _ category: AirQuality.EuropeanCategory) {
        #expect(AirQuality.EuropeanCategory(index) == category)
    }

    @Test(arguments: [(0.0, AirQuality.USCategory.good), (50, .good), (51, .moderate), (100, .moderate),
                      (101, .unhealthyForSensitiveGroups), (150, .unhealthyForSensitiveGroups), (151, .unhealthy),
                      (201, .veryUnhealthy), (300, .veryUnhealthy), (301, .hazardous), (500, .hazardous)])
    func usCategories(_ index: Double, _ category: AirQuality.USCategory) {
        #expect(AirQuality.USCategory(index) == category)
    }

    @Test func poorAirIsEuropean60OrUS151() {
        #expect(!AirQuality(europeanAQI: 59, usAQI: 150).isPoor)
        #expect(AirQuality(europeanAQI: 60, usAQI: 40).isPoor)
        #expect(AirQuality(europeanAQI: 30, usAQI: 151).isPoor)
        #expect(!AirQuality().isPoor)
    }

    @Test(arguments: [(PollenSpecies.birch, 0.5, PollenLevel.none), (.birch, 14, .low), (.birch, 15, .moderate), (.birch, 90, .high),
                      (.birch, 1500, .veryHigh), (.grass, 4, .low), (.grass, 5, .moderate), (.grass, 20, .high), (.grass, 200, .veryHigh),
                      (.ragweed, 9, .low), (.ragweed, 10, .moderate), (.mugwort, 50, .high), (.mugwort, 500, .veryHigh),
                      (.olive, 89, .moderate), (.alder, 3, .low)])
    func pollenLevelsFollowTheNationalAllergyBureau(_ species: PollenSpecies, _ grains: Double, _ level: PollenLevel) {
        #expect(species.level(grains) == level)
    }

    @Test func theDecoderReadsEachFixture() throws {
        let tampa = try #require(AirQualityDecoder.decode(try JSONValue.parse(Fixtures.data("weather/air-quality/tampa.json"))))
        #expect(tampa == AirQuality(time: Date(timeIntervalSince1970: 1_795_374_000), europeanAQI: 24, usAQI: 38, pm2_5: 6.1, pm10: 12.3))
        let berlin = try #require(AirQualityDecoder.decode(try JSONValue.parse(Fixtures.data("weather/air-quality/berlin-birch-april.json"))))
        #expect(berlin.pollen?.count == 6)
        #expect(berlin.notablePollen.map(\.species) == [.birch, .grass], "above low, highest first")
        #expect(AirQualityDecoder.decode(try JSONValue.parse(Fixtures.data("weather/air-quality/error-400.json"))) == nil)
        #expect(AirQualityDecoder.decode(try JSONValue.parse(Data(#"{"current":{"european_aqi":null,"us_aqi":"high"}}"#.utf8))) == nil)
        #expect(AirQualityDecoder.decode(try JSONValue.parse(Data(#"{"current":{"us_aqi":1e308,"european_aqi":12}}"#.utf8)))?.usAQI == nil)
    }

    static func withAir(_ fixture: String) throws -> WeatherReport {
        var report = try FormatStringTests.report()
        report.airQuality = AirQualityDecoder.decode(try JSONValue.parse(Fixtures.data("weather/air-quality/\(fixture)")))
        return report
    }

    static let berlin = Location(coordinate: Coordinate(latitude: 52.52, longitude: 13.41), horizontalAccuracy: 1000,
                                 timestamp: Self.recorded, source: .fixed, name: "Berlin")

    @Test func thePlaceChoosesTheIndexAndPollenShowsAboveLow() throws {
        let us = ReportFields(location: FormatStringTests.tampa, report: try Self.withAir("berlin-birch-april.json"),
                              now: Self.recorded)
        #expect(us.airLine == "Air quality: moderate (US AQI 61)")
        #expect(us.airQuality == "61 moderate")
        let europe = ReportFields(location: Self.berlin, report: try Self.withAir("berlin-birch-april.json"), now: Self.recorded)
        #expect(europe.airLine == "Air quality: moderate (European index 47)")
        #expect(europe.pollenLine == "Pollen: birch high, grass moderate")
        #expect(europe.airQuality == "47 moderate")
        let text = TextReport(location: Self.berlin, report: try Self.withAir("berlin-birch-april.json"), style: TerminalStyle(colour: false, glyphs: false, width: 100),
                              now: Self.recorded).render()
        #expect(text.contains("Air quality: moderate (European index 47) · Pollen: birch high, grass moderate"), "\(text)")
    }

    @Test func europeIsTheOfflinePlacesCountryElseTheCAMSDomain() throws {
        let report = try FormatStringTests.report()
        #expect(!AirQualityConvention.usesEuropeanIndex(location: FormatStringTests.tampa, report: report))
        #expect(AirQualityConvention.usesEuropeanIndex(location: Self.berlin, report: report))
        var lisbonReport = report
        lisbonReport.country = "PT"
        #expect(AirQualityConvention.usesEuropeanIndex(location: FormatStringTests.tampa, report: lisbonReport),
                "the provider's country when there is no nearby place")
    }

    // MARK: Status bar

    @Test func waybarClassesAndTooltip() throws {
        var report = try Self.withAir("tampa-smoke.json")
        report.current.uvIndex = 6.2
        let fields = ReportFields(location: FormatStringTests.tampa, report: report, now: Self.recorded)
        let line = WaybarReport.render(fields, format: try FormatString(WaybarReport.defaultText))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(json["class"] as? [String] == ["clear", "uv-high", "air-poor"], "\(line)")
        let tooltip = try #require(json["tooltip"] as? String)
        #expect(tooltip.contains("UV index 6 (high)"))
        #expect(tooltip.contains("Air quality: unhealthy (US AQI 162)"))
        report.current.uvIndex = 5.4
        report.airQuality = AirQuality(europeanAQI: 59, usAQI: 150)
        let calm = WaybarReport.render(ReportFields(location: FormatStringTests.tampa, report: report, now: Self.recorded),
                                       format: try FormatString(WaybarReport.defaultText))
        #expect(!calm.contains("uv-high") && !calm.contains("air-poor"), "\(calm)")
    }

    // MARK: The moon

    /// USNO, "Phases of the Moon, 2026" (aa.usno.navy.mil, Astronomical Applications), UTC to
    /// the minute; checked against PyEphem 4.1.4 (`ephem.next_new_moon`), which agrees to the
    /// minute. The mean synodic month puts a true phase within 0.6 days of its mean instant.
    static let newMoons2026 = ["01-18 19:52", "02-17 12:01", "03-19 01:23", "04-17 11:52", "05-16 20:01", "06-15 02:54",
                               "07-14 09:43", "08-12 17:37", "09-11 03:27", "10-10 15:50", "11-09 07:02", "12-09 00:52"]
    static let fullMoons2026 = ["01-03 10:03", "02-01 22:09", "03-03 11:38", "04-02 02:12", "05-01 17:23", "05-31 08:45",
                                "06-29 23:57", "07-29 14:36", "08-28 04:18", "09-26 16:49", "10-26 04:12", "11-24 14:53",
                                "12-24 01:28"]

    static func instant(_ text: String) throws -> Date {
        try #require(LocalTime(iso8601: "2026-\(text.prefix(5))T\(text.suffix(5))")).date(utcOffset: 0)
    }

    @Test func newMoonsOf2026() throws {
        for text in Self.newMoons2026 {
            let moon = MoonPhase(at: try Self.instant(text))
            let offset = min(moon.age, MoonPhase.synodicMonth - moon.age)
            #expect(offset < 0.75, "\(text): age \(moon.age)")
            #expect(moon.phase == .new, "\(text)")
        }
    }

    @Test func fullMoonsOf2026() throws {
        for text in Self.fullMoons2026 {
            let moon = MoonPhase(at: try Self.instant(text))
            #expect(abs(moon.age - MoonPhase.synodicMonth / 2) < 0.75, "\(text): age \(moon.age)")
            #expect(moon.phase == .full, "\(text)")
            #expect((14...15).contains(moon.day), "\(text): day \(moon.day)")
        }
    }

    @Test func asciiIconsGiveAPlainMoon() throws {
        let fields = ReportFields(location: FormatStringTests.tampa, report: try FormatStringTests.report(),
                                  output: .init(icons: .ascii), now: try Self.instant("11-24 14:53"))
        #expect(try FormatString("%m %M").render(fields) == "O 14")
    }
}
