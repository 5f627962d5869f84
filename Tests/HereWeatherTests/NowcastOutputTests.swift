import Foundation
import Testing
@testable import HereWeatherCore

/// The nowcast in every output: the text report's line and bars, `%R`, waybar's tooltip and
/// `rain-soon` class, and `weather.nowcast` in JSON. Recordings are replayed in-process (a
/// replay is read at its own time, so the minutes are fixed); one run asks a local server for
/// a body made for this minute, to see the live path read the wall clock. Renderers on values.
@Suite struct NowcastOutputTests {
    /// A recording with rain starting 30 minutes after its time, and what each output says.
    struct Case: Sendable, CustomTestStringConvertible {
        var provider: String
        var file: String
        var sentence: String
        var starts: String
        var ends: String
        var testDescription: String { file }
    }

    static let rainCases = [
        Case(provider: "open-meteo", file: "open-meteo/tampa-rain-in-30-min.json",
             sentence: "Rain from 14:45 (in 30 min), about 45 min, up to 1.4 mm/h",
             starts: "2026-11-22T14:45:00-05:00", ends: "2026-11-22T15:30:00-05:00"),
        Case(provider: "pirateweather", file: "pirateweather/tampa-rain-in-30-min.json",
             sentence: "Rain from 14:45 (in 30 min), about 25 min, up to 1.4 mm/h",
             starts: "2026-11-22T14:45:00-05:00", ends: "2026-11-22T15:10:00-05:00"),
        Case(provider: "metno", file: "metno/oslo-compact-with-nowcast.json",
             sentence: "Precipitation from 11:35 (in 30 min), about 45 min, up to 1.4 mm/h",
             starts: "2026-11-22T11:35:00+01:00", ends: "2026-11-22T12:20:00+01:00"),
    ]

    func replay(_ provider: String, _ file: String, _ extra: [String], config: String? = nil) async throws -> InProcessCommand.Result {
        let runner = try InProcessCommand()
        if let config { try runner.writeConfig(config) }
        let result = try await runner.run(["--lat", "27.95", "--lon", "-82.46", "--provider", provider,
                                           "--weather-replay", Fixtures.url("weather/" + file).path] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return result
    }

    func weatherJSON(_ text: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return try #require(object?["weather"] as? [String: Any])
    }

    /// A recording that says rain starts in 30 minutes says so in its tables too: the hours the
    /// spell falls in and its day have rain (the README's and the gallery's Tampa examples
    /// showed "0.0 mm", "0%" and "Mainly clear" under "Rain from 14:45"; issue 35 D30).
    @Test(arguments: rainCases)
    func theTablesAgreeWithTheNowcast(_ rain: Case) async throws {
        let weather = try weatherJSON(try await replay(rain.provider, rain.file, ["--json"]).stdout)
        let hourly = try #require(weather["hourly"] as? [[String: Any]])
        let dates = ISO8601DateFormatter()
        let starts = try #require(dates.date(from: rain.starts)), ends = try #require(dates.date(from: rain.ends))
        let wet = hourly.filter { hour in
            guard let time = (hour["time"] as? String).flatMap(dates.date(from:)) else { return false }
            return time > starts.addingTimeInterval(-3600) && time < ends.addingTimeInterval(3600)
        }
        #expect(!wet.isEmpty && wet.contains { ($0["precipitation"] as? Double ?? 0) > 0 }, "\(wet)")
        // MET Norway gives no chance of precipitation: only a chance that is given must agree.
        #expect(wet.compactMap { $0["precipitation_probability"] as? Double }.max() ?? 100 >= 50, "\(wet)")
        #expect(wet.contains { $0["condition_group"] as? String == "rain" }, "\(wet)")
        let today = try #require((weather["daily"] as? [[String: Any]])?.first)
        #expect(today["precipitation"] as? Double ?? 0 > 0 && today["condition_group"] as? String == "rain", "\(today)")
    }

    @Test(arguments: rainCases)
    func rainInThirtyMinutesInEveryOutput(_ rain: Case) async throws {
        let text = try await replay(rain.provider, rain.file, [])
        #expect(text.stdout.contains(rain.sentence + "\n"), "\(text.stdout)")

        let short = try await replay(rain.provider, rain.file, ["--format", "[%R]"])
        #expect(short.stdout == "[🌧️ in 30 min]\n")

        let waybar = try await replay(rain.provider, rain.file, ["--waybar"])
        let line = try #require(JSONSerialization.jsonObject(with: Data(waybar.stdout.utf8)) as? [String: Any])
        #expect((line["class"] as? [String])?.contains("rain-soon") == true, "\(waybar.stdout)")
        #expect((line["tooltip"] as? String)?.contains(rain.sentence) == true)

        let json = try weatherJSON(try await replay(rain.provider, rain.file, ["--json"]).stdout)
        let nowcast = try #require(json["nowcast"] as? [String: Any])
        #expect(nowcast["precipitation_starts"] as? String == rain.starts)
        #expect(nowcast["precipitation_ends"] as? String == rain.ends)
        #expect(nowcast["precipitation_now"] as? Bool == false)
        #expect(nowcast["peak_intensity"] as? Double == 1.4)
        #expect(nowcast["current"] as? Bool == true)
    }

    @Test(arguments: [("open-meteo", "open-meteo/tampa-dry-nowcast.json", "No rain or snow in the next 2 hours"),
                      ("pirateweather", "pirateweather/tampa-dry-nowcast.json", "No rain or snow in the next hour")])
    func aDryHorizonGivesAnEmptyShortFormAndNulls(_ provider: String, _ file: String, _ sentence: String) async throws {
        #expect(try await replay(provider, file, []).stdout.contains(sentence + "\n"))
        #expect(try await replay(provider, file, ["--format", "[%R]"]).stdout == "[]\n")
        let waybar = try await replay(provider, file, ["--waybar"]).stdout
        #expect(!waybar.contains("rain-soon"))
        let nowcast = try #require(try weatherJSON(try await replay(provider, file, ["--json"]).stdout)["nowcast"] as? [String: Any])
        #expect(nowcast["precipitation_starts"] is NSNull)
        #expect(nowcast["precipitation_ends"] is NSNull)
        #expect(nowcast["kind"] is NSNull)
    }

    @Test func withoutANowcastNothingIsSaid() async throws {
        let text = try await replay("open-meteo", "open-meteo/tampa-metric.json", [])
        #expect(!text.stdout.contains("rain or snow"))
        #expect(!text.stdout.contains("Rain from"))
        #expect(try await replay("open-meteo", "open-meteo/tampa-metric.json", ["--format", "[%R]"]).stdout == "[]\n")
        #expect(try weatherJSON(try await replay("open-meteo", "open-meteo/tampa-metric.json", ["--json"]).stdout)["nowcast"] is NSNull)
    }

    /// Issue 35 A4: steps all at one time (one of them over the physical limit) are no
    /// nowcast in any output: never "No rain or snow in the next 0 min".
    @Test func anEmptyHorizonIsNoNowcast() async throws {
        let file = "pirateweather/tampa-nowcast-one-time.json"
        let text = try await replay("pirateweather", file, [])
        #expect(!text.stdout.contains("in the next"), "\(text.stdout)")
        #expect(!text.stdout.contains("0 min"), "\(text.stdout)")
        #expect(try await replay("pirateweather", file, ["--format", "[%R]"]).stdout == "[]\n")
        let waybar = try await replay("pirateweather", file, ["--waybar"]).stdout
        #expect(!waybar.contains("rain-soon") && !waybar.contains("in the next"), "\(waybar)")
        let nowcast = try #require(try weatherJSON(try await replay("pirateweather", file, ["--json"]).stdout)["nowcast"] as? [String: Any])
        #expect(nowcast["horizon_s"] is NSNull && nowcast["peak_intensity"] is NSNull, "\(nowcast)")
    }

    /// The bars' times at both ends; their source is Open-Meteo, the report's own provider,
    /// which the next line names (the bars named it too until issue 35 D25).
    @Test func theBarsHaveTimesAtBothEndsAndTheSource() async throws {
        let text = try await replay("open-meteo", "open-meteo/tampa-rain-in-30-min.json", [])
        #expect(text.stdout.contains("14:15 ▁▁▂▄▃▁▁▁ 16:15\nOpen-Meteo, "), "\(text.stdout)")
        let ascii = try await replay("open-meteo", "open-meteo/tampa-rain-in-30-min.json", ["--format", "%R"],
                                     config: "version = 1\n[output]\nicons = \"ascii\"\n")
        #expect(ascii.stdout == "rain in 30 min\n")
        let asciiText = try await replay("open-meteo", "open-meteo/tampa-rain-in-30-min.json", [],
                                         config: "version = 1\n[output]\nicons = \"ascii\"\nclock = \"12h\"\n")
        #expect(asciiText.stdout.contains("2:15 PM __,~-___ 4:15 PM\n"), "\(asciiText.stdout)")
        #expect(asciiText.stdout.contains("Rain from 2:45 PM (in 30 min)"))
    }

    /// A live run reads the nowcast at the wall clock: the server makes a body whose rain
    /// starts 30 minutes after the current minute.
    @Test func aLiveRunReadsTheNowcastAtTheWallClock() async throws {
        let recorded = Fixtures.data("weather/pirateweather/tampa-rain-in-30-min.json")
        let server = try FixtureServer { _ in
            let minute = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60
            let shift = minute - 1_795_374_900
            var body = (try? JSONSerialization.jsonObject(with: recorded)) as? [String: Any] ?? [:]
            var currently = body["currently"] as? [String: Any] ?? [:]
            currently["time"] = minute
            body["currently"] = currently
            var minutely = body["minutely"] as? [String: Any] ?? [:]
            minutely["data"] = (minutely["data"] as? [[String: Any]] ?? []).map { point in
                var shifted = point
                shifted["time"] = (point["time"] as? Double ?? 0) + shift
                return shifted
            }
            body["minutely"] = minutely
            let data = (try? JSONSerialization.data(withJSONObject: body)) ?? Data()
            return FixtureServer.Response(status: 200, body: Array(data))
        }
        let runner = try InProcessCommand()
        try runner.writeConfig(ProviderSetup.fixedLocation + """

        [weather]
        provider = "pirateweather"
        [weather.pirateweather]
        api_key = "key"
        base_url = "\(server.baseURL)"
        """)
        let result = try await runner.run(["--format", "%R"])
        #expect(result.status == 0, "\(result.stderr)")
        // 30 minutes after the minute the body was made in: 29 when the run crossed a half minute.
        #expect(["🌧️ in 30 min\n", "🌧️ in 29 min\n"].contains(result.stdout), "\(result.stdout)")
    }

    /// A live run reads the nowcast at the run's clock, and its cache keeps it: fetched at
    /// 14:15, read from the cache at 14:25 (rain in 20 minutes), not shown at 14:31.
    @Test func theRunsClockReadsTheNowcastAndTheCacheKeepsItFifteenMinutes() async throws {
        let server = try FixtureServer { $0.hasPrefix("/v1/forecast?") ? .fixture("weather/open-meteo/tampa-rain-in-30-min.json") : .notFound }
        let clock = TestClock(date: NowcastServiceTests.tampaNow)
        let runner = try InProcessCommand()
        // The test clock's instants stand still: a long weather timeout keeps a slow first run
        // on a loaded machine within its deadline.
        try runner.writeConfig(ProviderSetup.all[0].config(server.baseURL, ttl: 3600)
            .replacing("[weather]\n", with: "[weather]\ntimeout = 300\n"))
        func run(_ arguments: [String]) async throws -> String {
            let result = try await runner.run(arguments, assembly: .test(.test(clock: clock)))
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
        #expect(try await run(["--format", "%R"]) == "🌧️ in 30 min\n")
        clock.advance(600)
        #expect(try await run(["--format", "%R %a"]) == "🌧️ in 20 min 10 min\n")
        #expect(try await run([]).contains("Rain from 14:45 (in 20 min), about 45 min, up to 1.4 mm/h\n"))
        clock.advance(360)
        #expect(try await run(["--format", "[%R] %a"]) == "[] 16 min\n", "16 minutes old: not current")
        let text = try await run([])
        #expect(!text.contains("Rain from"))
        let nowcast = try #require(try weatherJSON(try await run(["--json"]))["nowcast"] as? [String: Any])
        #expect(nowcast["current"] as? Bool == false)
        #expect(nowcast["precipitation_starts"] is NSNull)
        // The server also answers the NWS alerts of this US point (ProviderSetup points them here).
        #expect(server.requests.filter { $0.hasPrefix("/v1/forecast?") }.count == 1, "every later run came from the cache: \(server.requests)")
    }

    // MARK: Renderers on values

    static let now = NowcastOutlookTests.now

    func text(_ intensities: [Double?], step: Int = 900, kinds: [Nowcast.Kind?]? = nil, units: Units = .metric,
              output: Configuration.OutputSettings = Configuration.OutputSettings()) throws -> NowcastText {
        let outlook = try #require(NowcastOutlookTests.outlook(intensities, step: step, kinds: kinds))
        return NowcastText(outlook, units: units, utcOffset: 0, output: output)
    }

    @Test func sentences() throws {
        #expect(try text([2, 1, 0.5, 0, 0, 0, 0, 0]).sentence == "Precipitation stopping in 45 min (14:45), up to 2.0 mm/h")
        #expect(try text([1, 2, 3, 2, 1, 1, 1, 1], kinds: Array(repeating: .snow, count: 8)).sentence
            == "Snow for the next 2 hours, up to 3.0 mm/h")
        #expect(try text([0, 0, 0, 0, 0, 0, 0.5, 3], kinds: [nil, nil, nil, nil, nil, nil, .rain, .snow]).sentence
            == "Rain and snow from 15:30 (in 1 h 30 min), lasting past 16:00, up to 3.0 mm/h")
        #expect(try text([0, 0, 1.27, 0], kinds: [nil, nil, .rain, nil], units: .imperial).sentence
            == "Rain from 14:30 (in 30 min), about 15 min, up to 0.05 in/h")
        #expect(try text([0, 0, 0]).sentence == "No rain or snow in the next 45 min")
        #expect(try text([0, 0, 0, 0, 0]).sentence == "No rain or snow in the next 1 h 15 min")
    }

    @Test func shortForms() throws {
        #expect(try text([2, 0]).short == "precipitation stops in 15 min")
        #expect(try text([0, 0, 1, 0], kinds: [nil, nil, .snow, nil]).short == "❄️ in 30 min")
        var ascii = Configuration.OutputSettings()
        ascii.icons = .ascii
        #expect(try text([0, 0, 1, 0], kinds: [nil, nil, .snow, nil], output: ascii).short == "snow in 30 min")
        #expect(try text([0, 0, 0, 0]).short == "", "dry: nothing changes")
        #expect(try text([1, 1, 1, 1, 1, 1, 1, 1]).short == "", "wet throughout: nothing changes")
    }

    @Test func soonIsThirtyMinutesAsShown() throws {
        #expect(try text([0, 0, 1]).startsSoon, "in 30 min")
        #expect(try !text([0, 0, 0, 1]).startsSoon, "in 45 min")
        #expect(try !text([1, 0]).startsSoon, "already raining")
        let values: [Double?] = (0..<40).map { $0 >= 31 ? 1 : 0 }
        #expect(try !text(values, step: 60).startsSoon, "in 31 min")
    }

    @Test func barsUseAFixedScaleAndMergeStepsToFit() throws {
        let scale = try text([0, 0.1, 0.5, 1, 2, 4, 8, 16])
        #expect(scale.bars(width: 80) == "14:00 ▁▂▃▄▅▆▇█ 16:00  Open-Meteo")
        let minutes: [Double?] = (0..<61).map { $0 == 40 ? 20 : 0 }
        let wide = try text(minutes, step: 60)
        let line = wide.bars(width: 80)
        #expect(TextWidth.columns(line) <= 80)
        #expect(line.hasSuffix("  Open-Meteo"))
        #expect(line.contains("█"), "the wettest minute survives the merge")
        let narrow = wide.bars(width: 40)
        #expect(TextWidth.columns(narrow) <= 40, "\(narrow)")
        #expect(narrow.contains("█"))
    }

    /// The report names its provider on a line of its own: the bars name a nowcast from the
    /// same service not again ("16:00  Open-Meteo" over "Open-Meteo, 14:00 local time"), and
    /// use the room for bars; another source (MET Norway's radar) is still named (issue 35 D25).
    @Test func barsDoNotNameTheReportsOwnProviderAgain() throws {
        let scale = try text([0, 0.1, 0.5, 1, 2, 4, 8, 16])
        #expect(scale.bars(width: 80, besides: .openMeteo) == "14:00 ▁▂▃▄▅▆▇█ 16:00")
        #expect(scale.bars(width: 80, besides: .nws) == "14:00 ▁▂▃▄▅▆▇█ 16:00  Open-Meteo")
        let minutes: [Double?] = (0..<61).map { $0 == 40 ? 20 : 0 }
        #expect(TextWidth.columns(try text(minutes, step: 60).bars(width: 40, besides: .openMeteo)) <= 40)
    }
}
