import Foundation
import Testing
@testable import HereWeatherCore
import HereWeatherHTTP

/// Inputs the fuzz targets in `Fuzz/` found to break an invariant (docs/development.md: "Fuzzing"), kept
/// here so that `make test` keeps them fixed; and the config fixture the config target is
/// seeded with, round-tripped.
@Suite struct FuzzRegressionTests {
    /// Whether `text` would print as one plain line: no line breaks, escapes or DEL.
    static func isOneLine(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }
    }

    /// The error `body` throws, as the user sees it.
    func message(_ body: () async throws -> Any) async -> String {
        do {
            let value = try await body()
            Issue.record("expected an error, got \(value)")
        } catch let error as any UserFacingError {
            return error.message
        } catch {
            Issue.record("not a user-facing error: \(error)")
        }
        return ""
    }

    // MARK: Remembered location

    /// FuzzRememberedLocation: a file with more decimals than the store writes read back
    /// rounded to 6 (0.11 m, as every JSON number is written), which the target's invariant
    /// called a different place. The place stays; and once saved it reads back exactly.
    @Test func aRememberedLocationWithMoreDecimalsReadsBackRoundedAndThenStays() throws {
        let file = #"{"version":1,"latitude":52.52437,"longitude":13.410535555555555555555,"accuracy_m":42,"timestamp":1764201600,"source":"wifi","access_points":7}"#
        let location = try #require(LastLocationStore.decode(Array(file.utf8)))
        let saved = try #require(LastLocationStore.decode(Array(LastLocationStore.encode(location).utf8)))
        #expect(saved.coordinate.longitude == 13.410536)
        #expect(abs(saved.coordinate.longitude - location.coordinate.longitude) <= 0.000_000_6)
        let again = try #require(LastLocationStore.decode(Array(LastLocationStore.encode(saved).utf8)))
        #expect(again.coordinate == saved.coordinate)
    }

    /// FuzzDecisions: a decision written `"d\ny"` (a TOML escape) was quoted in its warning
    /// with the line break itself, so the warning spanned two lines. A quoted value shows its
    /// escapes, as the file has them; config errors quote the same way.
    @Test func aQuotedValueWithALineBreakStaysOnOneLine() throws {
        let store = PermissionStore(path: "/home/user/.local/state/here-weather/permissions.toml")
        let loaded = store.parse("version = 1\n[decisions]\nip = \"allow\"\ngeoclue = \"d\\ny\"\n")
        #expect(loaded.warnings.count == 1)
        #expect(loaded.warnings.allSatisfy { !$0.contains("\n") }, "\(loaded.warnings)")
        #expect(loaded.warnings.first?.contains(#"not "d\ny" (ignored)"#) == true, "\(loaded.warnings)")
        let refused = #expect(throws: ConfigError.self) {
            try ConfigurationLoader.parse("[weather]\nprovider = \"open\\u0007meteo\\r\\n\\\"\"\n", path: "/c.toml")
        }
        guard case .invalidValue(_, _, _, let found, _, _) = refused else { Issue.record("\(String(describing: refused))"); return }
        #expect(found == #""open\u0007meteo\r\n\"""#, "\(found)")
    }

    /// FuzzRememberedLocation: a remembered location whose name held tabs printed them in
    /// `where`'s Place line (and a line break would have split it). A location's name is shown
    /// with control characters as spaces, whoever wrote it (the file, the config, a geocoder).
    @Test func aNameWithControlCharactersStaysOnItsLine() throws {
        let body = #"{"version":1,"latitude":27.95,"longitude":-82.46,"accuracy_m":5.5,"timestamp":1764201600.25,"#
            + #""source":"gpsd","name":"Tf\ts\naam","mode":3}"#
        let location = try #require(LastLocationStore.decode(Array(body.utf8)))
        #expect(location.name == "Tf s aam")
        for locale in [UserLocale.english, UserLocale(language: "de")] {
            let text = LocationReport.text(location, now: location.timestamp, locale: locale)
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(text.debugDescription)")
            #expect(text.split(separator: "\n").count == 7, "\(text)")
        }
        #expect(Location(coordinate: Coordinate(latitude: 1, longitude: 2), timestamp: Date(), source: .fixed,
                         name: "Tampa\r\nBay").name == "Tampa  Bay")
    }

    /// FuzzRememberedLocation (CI's fuzz smoke): a remembered Wi-Fi fix whose service holds a
    /// DEL (0x7F) put a control character in where's Source line; the service is shown as a
    /// name is, control characters as spaces.
    @Test func aServiceWithControlCharactersStaysOnItsLine() throws {
        let body = #"{"version":1,"latitude":52.52437,"longitude":13.41053,"accuracy_m":42,"timestamp":1764201600,"#
            + #""source":"wifi","service":"127.0.rece2iver\u007ftiitude_m0.1","access_points":7}"#
        let location = try #require(LastLocationStore.decode(Array(body.utf8)))
        #expect(location.service == "127.0.rece2iver tiitude_m0.1")
        for locale in [UserLocale.english, UserLocale(language: "de"), UserLocale(language: "ja")] {
            let text = LocationReport.text(location, now: location.timestamp, locale: locale)
            #expect(!text.unicodeScalars.contains { ServiceText.isControl($0) && $0 != "\n" }, "\(text.debugDescription)")
        }
        var changed = location
        changed.service = "ipinfo.io\u{85}"
        #expect(changed.service == "ipinfo.io ")
        // A name is made printable the same way, set or initialised (its setter once turned it into nil).
        changed.name = "Tampa\u{7}Bay"
        #expect(changed.name == "Tampa Bay")
        changed.name = " \t"
        #expect(changed.name == nil)
    }

    // MARK: JSON

    /// FuzzJSON: a number too large for a Double parsed as infinity, which no service means
    /// and the output writer cannot write. JSONDecoder refuses it; so does the parser now.
    @Test(arguments: [
        "1e999", "-1e999", "[0, 1e400]", #"{"temp": 2e308}"#,
        String(repeating: "6", count: 178) + "00000133584280347" + String(repeating: "6", count: 130) + "000001335842803471264427",
    ])
    func numbersBeyondDoubleAreNotJSON(_ text: String) {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(Data(text.utf8)) }
    }

    @Test func theLargestDoubleIsStillANumber() throws {
        #expect(try JSONValue.parse(Data("1.7976931348623157e308".utf8)) == .number(.greatestFiniteMagnitude))
    }

    // MARK: Text quoted from a service

    /// FuzzIPLookup: ip-api's `status` quoted with its DEL characters, and at full length.
    @Test func ipServiceTextIsQuotedOnOneLineAndShort() async throws {
        let status = "AS64500 Example Broadbited StaBroadbandDictio" + String(repeating: "\u{7F}", count: 92)
            + "narExamp98.51.100.23\r\n\u{1B}[2J" + String(repeating: " and more", count: 20)
        let body = try String(data: JSONSerialization.data(withJSONObject: ["status": status]), encoding: .utf8) ?? ""
        let server = try FixtureServer(routes: ["/ip-api/json": .json(200, body)])
        defer { server.stop() }
        var settings = IPSettings()
        settings.services = [.ipApiCom]
        settings.settings[.ipApiCom] = IPServiceSettings(.ipApiCom, baseURL: server.baseURL + "/ip-api")
        let provider = IPLocationProvider(settings: settings, http: CurlHTTPClient(clock: ContinuousClock()), clock: ContinuousClock())
        let text = await message { try await provider.requestLocation(LocationRequest(start: .now)) }
        #expect(text.contains("AS64500 Example"))
        #expect(Self.isOneLine(text), "\(text.debugDescription)")
        #expect(text.contains("…"), "cut at \(IPFailureText.maximumLength) characters: \(text)")
    }

    /// Reading the code for FuzzIPLookup's secret check: ipinfo's text was cut at 160
    /// characters before the token was redacted, so a token straddling the cut left its
    /// first characters in the message.
    @Test func ipinfoTokenIsRedactedBeforeTheTextIsCut() async throws {
        let token = "tok_5e3ret7a1b2c3d4"
        // "Unknown token: " (15) + 135 = 150 characters before the token: the old cut at 160
        // kept "tok_5e3ret".
        let body = #"{"status":403,"error":{"title":"Unknown token","message":""#
            + String(repeating: "a", count: 135) + token + #" is not a token"}}"#
        let server = try FixtureServer(routes: ["/ipinfo/json": .json(403, body)])
        defer { server.stop() }
        var settings = IPSettings()
        settings.services = [.ipinfo]
        settings.settings[.ipinfo] = IPServiceSettings(.ipinfo, baseURL: server.baseURL + "/ipinfo", token: token)
        let provider = IPLocationProvider(settings: settings, http: CurlHTTPClient(clock: ContinuousClock()), clock: ContinuousClock())
        let text = await message { try await provider.requestLocation(LocationRequest(start: .now)) }
        #expect(text.contains("access refused (HTTP 403)"))
        let characters = Array(token)
        for start in 0...(characters.count - 5) {
            let part = String(characters[start..<start + 5])
            #expect(!text.contains(part), "part of the token (\(part)) in: \(text)")
        }
    }

    /// FuzzGeocoding: Open-Meteo's `reason` in a 200 error body quoted with its line breaks.
    @Test func geocodingReasonIsQuotedOnOneLine() async throws {
        let body = #"{"error":true,"reason":"Parameter count\r\n\r\u001b[31mmust be between 1 and 100."}"#
        let server = try FixtureServer(routes: ["/v1/search": .json(200, body)])
        defer { server.stop() }
        let geocoder = OpenMeteoGeocoder(baseURL: server.baseURL, http: CurlHTTPClient(clock: ContinuousClock()))
        let text = await message { try await geocoder.search(try #require(CityQuery("Melbourne")), deadline: .now + .seconds(10)) }
        #expect(text.contains("Parameter count"))
        #expect(text.contains("must be between 1 and 100."))
        #expect(Self.isOneLine(text), "\(text.debugDescription)")
    }

    /// The same for every weather service's quoted text: in a 200 body (Open-Meteo's
    /// `reason`, OpenWeatherMap's `message` beside `cod`) and in an error status's body.
    @Test(arguments: [
        (WeatherProviderKind.openMeteo, #"{"error":true,"reason":"bad\nvariable\u001b]0;owned\u0007"}"#),
        (WeatherProviderKind.openWeatherMap, #"{"cod":"500","message":"internal\r\nerror\u009b2J"}"#),
    ])
    func weatherTextInARecordingIsQuotedOnOneLine(_ kind: WeatherProviderKind, _ body: String) async {
        let http = CurlHTTPClient(clock: ContinuousClock())
        let provider: any WeatherProvider = kind == .openMeteo
            ? OpenMeteoWeatherProvider(baseURL: "https://api.open-meteo.com", http: http, clock: ContinuousClock())
            : OpenWeatherMapWeatherProvider(baseURL: "https://api.openweathermap.org", apiKey: "k", http: http, clock: ContinuousClock())
        let text = await message { try provider.report(fromRecording: Data(body.utf8), units: .metric) }
        #expect(text.contains("bad variable") || text.contains("internal error"), "\(text)")
        #expect(Self.isOneLine(text), "\(text.debugDescription)")
    }

    @Test func weatherErrorStatusTextIsQuotedOnOneLine() async throws {
        let body = #"{"error":true,"reason":"Cannot initialize\n\u001b[1mWeatherVariable"}"#
        let server = try FixtureServer(routes: ["/v1/forecast": .json(400, body)])
        defer { server.stop() }
        let provider = OpenMeteoWeatherProvider(baseURL: server.baseURL, http: CurlHTTPClient(clock: ContinuousClock()), clock: ContinuousClock())
        let query = WeatherQuery(coordinate: Coordinate(latitude: 27.95, longitude: -82.46), units: .metric,
                                 deadline: .now + .seconds(10))
        let text = await message { try await provider.report(for: query) }
        #expect(text.contains("answered HTTP 400: Cannot initialize"))
        #expect(Self.isOneLine(text), "\(text.debugDescription)")
    }

    // MARK: Text shown from a service

    /// FuzzIPLookup: ip-api's `regionName` with DEL characters went into the place name as
    /// they were, and from there to the terminal; an escape sequence would have too.
    @Test func ipPlaceNameIsPlainText() async throws {
        let body = #"{"status":"success","country":"United States","countryCode":"US","region":"FL","#
            + #""regionName":"Fl\u007f\u001b[2Jorida","city":"Tam\npa","lat":27.9517,"lon":-82.4588}"#
        let server = try FixtureServer(routes: ["/ip-api/json": .json(200, body)])
        defer { server.stop() }
        var settings = IPSettings()
        settings.services = [.ipApiCom]
        settings.settings[.ipApiCom] = IPServiceSettings(.ipApiCom, baseURL: server.baseURL + "/ip-api")
        let location = try await IPLocationProvider(settings: settings, http: CurlHTTPClient(clock: ContinuousClock()), clock: ContinuousClock())
            .requestLocation(LocationRequest(desiredAccuracy: .any, start: .now))
        #expect(location.name == "Tam pa, Fl  [2Jorida, US")
        #expect(Self.isOneLine(location.name ?? ""))
    }

    /// The same for what a weather service names: a condition, the place, an alert's title
    /// and sender. The text report shows each on its line, with no control character.
    @Test func weatherTextsArePlainText() throws {
        let escape = #"\u001b]0;owned\u0007"#
        let body = #"{"currently":{"time":1795000000,"summary":"Clear"# + escape + #"","temperature":20},"#
            + #""alerts":[{"title":"Flood"# + escape + #"","severity":"Severe\r\n","expires":1795003600}],"#
            + #""flags":{"units":"si"},"offset":0}"#
        let provider = PirateWeatherWeatherProvider(baseURL: "https://api.pirateweather.net", apiKey: "k", http: CurlHTTPClient(clock: ContinuousClock()), clock: ContinuousClock())
        let report = try provider.report(fromRecording: Data(body.utf8), units: .metric)
        #expect(report.current.description == "Clear ]0;owned ")
        #expect(report.alerts.first?.title == "Flood ]0;owned ")
        #expect(report.alerts.first?.severity == "Severe  ")
        let location = Location(coordinate: Coordinate(latitude: 27.95, longitude: -82.46), timestamp: Date(),
                                source: .fixed, name: "Tampa")
        let text = TextReport(location: location, report: report, style: TerminalStyle(colour: false, glyphs: false), now: Date())
            .render(hourly: true, daily: true)
        #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F }, "\(text.debugDescription)")
    }

    // MARK: Values too large to format

    /// FuzzOpenMeteo, FuzzOpenWeatherMap: a finite but huge number (a day's precipitation of
    /// 2.2e47 mm, a temperature of 1e300) trapped converting to Int in the text report.
    @Test(arguments: [(2.2e47, 1, "2.2e+47"), (-1e300, 0, "-1e+300"), (27.25, 1, "27.3"), (-0.04, 1, "0.0")])
    func hugeNumbersFormat(_ value: Double, _ decimals: Int, _ expected: String) {
        #expect(Formatting.fixed(value, decimals) == expected)
    }

    /// The same through every output, and times a service sent 1e300 seconds from 1970,
    /// which trapped converting to Int in the local time.
    @Test func aReportWithHugeValuesAndTimesRenders() throws {
        let body = #"{"currently":{"time":1795000000,"summary":"Hot","temperature":1e300,"windSpeed":-1e300,"#
            + #""precipIntensity":1e300,"precipProbability":1},"#
            + #""hourly":{"data":[{"time":1e300,"temperature":1e300},{"time":-1e300,"temperature":-1e300}]},"#
            + #""daily":{"data":[{"time":1795000000,"temperatureHigh":1e300,"temperatureLow":-1e300,"#
            + #""sunriseTime":1e300,"sunsetTime":-1e300}]},"#
            + #""alerts":[{"title":"Heat","time":-1e300,"expires":1e300}],"flags":{"units":"si"},"offset":0}"#
        let provider = PirateWeatherWeatherProvider(baseURL: "https://api.pirateweather.net", apiKey: "k", http: CurlHTTPClient(clock: ContinuousClock()), clock: ContinuousClock())
        let report = try provider.report(fromRecording: Data(body.utf8), units: .imperial)
        #expect(report.current.temperature == 1.8e300)
        let location = Location(coordinate: Coordinate(latitude: 27.95, longitude: -82.46), timestamp: Date(),
                                source: .fixed, name: "Tampa")
        let text = TextReport(location: location, report: report, style: TerminalStyle(colour: true, glyphs: true, chart: true), now: Date())
            .render(hourly: true, daily: true)
        #expect(text.contains("1.8e+300"))
        let json = JSONReport.render(location: location, report: report, now: Date())
        #expect(throws: Never.self) { try JSONValue.parse(Data(json.utf8)) }
        let fields = ReportFields(location: location, report: report, now: Date())
        let waybar = WaybarReport.render(fields, format: try FormatString("%c %t %f %w %p %u %s %a %A"))
        #expect(throws: Never.self) { try JSONValue.parse(Data(waybar.utf8)) }
    }

    @Test func timesFarFromNowAreShownAtTheLimit() {
        let late = LocalTime(Date(timeIntervalSince1970: 1e300), utcOffset: 3600)
        #expect(late == LocalTime(Date(timeIntervalSince1970: LocalTime.range.upperBound), utcOffset: 3600))
        #expect(LocalTime(Date(timeIntervalSince1970: -1e300), utcOffset: 0).year == 1)
        #expect(Formatting.age(1e300) == "\(Int(1e15) / 86_400) d")
        #expect(LocationReport.ageText(1e300) == "\(Int(1e15) / 3600) h")
    }

    // MARK: Config

    /// FuzzConfig's seed with every key: it loads without a warning, sets every section, and
    /// what `config show` prints of it loads back to the same text (secrets aside, which it
    /// never prints), as FuzzConfig checks for any config that loads.
    @Test func everyKeyFixtureLoadsAndRoundTrips() throws {
        let text = try #require(String(data: Fixtures.data("config/every-key.toml"), encoding: .utf8))
        let (config, warnings) = try ConfigurationLoader.parse(text, path: "every-key.toml")
        #expect(warnings.isEmpty)
        let defaults = Configuration()
        #expect(config.location != defaults.location)
        #expect(config.weather != defaults.weather)
        #expect(config.privacy != defaults.privacy)
        #expect(config.output != defaults.output)
        #expect(config.cache != defaults.cache)
        #expect(config.alerts != defaults.alerts)
        #expect(config.weather.nws.contact == "fuzz@example.org")
        #expect(config.location.fixed?.name == "Melbourne \"CBD\"")
        let rendered = ConfigurationText.effective(config, environment: [:])
        #expect(!rendered.contains("not-a-real"))
        let (again, _) = try ConfigurationLoader.parse(rendered, path: "rendered.toml")
        #expect(ConfigurationText.effective(again, environment: [:]) == rendered)
        var expected = config
        expected.weather.openWeatherMap.apiKey = "[redacted]"
        expected.weather.pirateWeather.apiKey = "[redacted]"
        expected.location.ip.settings[.ipinfo]?.token = "[redacted]"
        expected.location.wifi.key = "[redacted]"
        #expect(again == expected)
    }
}

/// FuzzNMEA broke its own invariant (issue 25 item 11): a GGA whose HDOP is `1000…0.20`
/// (about 1e200) gave a fix of infinite accuracy, printed "inf m". DOPs over 99.99 (the most
/// a receiver sends) and error estimates beyond the Earth's size are malformed where parsed.
@Suite struct NMEAAbsurdPrecisionTests {
    static let hugeHDOP = "1" + String(repeating: "0", count: 200) + ".20"

    func fixes(_ lines: [String]) -> [NMEAFix] {
        var stream = NMEAStream(reader: NMEALineReader(bytes: Array((lines.joined(separator: "\n") + "\n").utf8)),
                                date: NMEADate(year: 2026, month: 11, day: 22))
        var result: [NMEAFix] = []
        while let fix = stream.nextFix() { result.append(fix) }
        return result
    }

    /// A GGA with `hdop`, then an RMC ending its epoch, then the next epoch's GGA.
    func log(hdop: String, gst: String? = nil) -> [String] {
        ["$GPGGA,123519,4807.038,N,01131.000,E,1,08,\(hdop),545.4,M,46.9,M,,"]
            + (gst.map { ["$GPGST,123519,\($0),1.0,0.5,45.0,\($0),\($0),2.0"] } ?? [])
            + ["$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,221126,003.1,W",
               "$GPGGA,123520,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
               "$GPRMC,123520,A,4807.038,N,01131.000,E,022.4,084.4,221126,003.1,W"]
    }

    @Test(arguments: [hugeHDOP, "100.0", "1e5", "-1.0", "99.991"])
    func anAbsurdHDOPGivesNoAccuracy(hdop: String) {
        let fixes = fixes(log(hdop: hdop))
        #expect(!fixes.isEmpty)
        for fix in fixes {
            #expect(fix.horizontalAccuracy.map { $0.isFinite && $0 >= 0 && $0 <= 500 } ?? true, "\(fix)")
            #expect(fix.hdop.map { $0 <= NMEAFix.maximumDOP } ?? true, "\(fix)")
        }
    }

    @Test func aGSTSigmaBeyondTheEarthGivesNoAccuracy() {
        for fix in fixes(log(hdop: "0.9", gst: "1" + String(repeating: "0", count: 200))) {
            #expect(fix.horizontalAccuracy.map(\.isFinite) ?? true, "\(fix)")
        }
    }

    @Test func aReceiversLargestHDOPIsStillTaken() {
        let first = fixes(log(hdop: "99.99")).first
        #expect(first?.hdop == 99.99)
        #expect(first?.horizontalAccuracy == 99.99 * NMEAFix.metresPerHDOP)
    }
}
