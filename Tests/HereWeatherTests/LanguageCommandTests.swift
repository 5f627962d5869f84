import Foundation
import Testing
@testable import HereWeatherCore

/// The language on the command line and in the config file, as a run sees it: `--lang`,
/// `[output] language`, the environment; what a language here-weather does not speak costs;
/// "auto" units and clock; JSON's codes against its words; and the services that write words
/// of their own asked in the run's language, their answers cached per language.
@Suite struct LanguageCommandTests {
    static let tampa = Fixtures.url("weather/open-meteo/tampa-metric.json").path
    static let place = ["--lat", "27.95", "--lon", "-82.46"]

    func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func aLanguageTheCommandLineNamesThatHereWeatherDoesNotSpeakIsAUsageError() async throws {
        let result = try await InProcessCommand().run(Self.place + ["--lang", "tlh", "--weather-replay", Self.tampa])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("--lang tlh: here-weather does not speak that language. Give one of \(LanguageChoiceTests.spoken),"),
                "\(result.stderr)")
        let whereRun = try await InProcessCommand().run(["where", "--lat", "1", "--lon", "2", "--lang", "xx_YY.UTF-8"])
        #expect(whereRun.status == 64, "\(whereRun.stderr)")
    }

    @Test func aLanguageTheConfigNamesThatHereWeatherDoesNotSpeakIsAConfigError() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("[output]\nlanguage = \"Deutsch\"\n")
        let result = try await runner.run(Self.place + ["--weather-replay", Self.tampa])
        #expect(result.status == 78)
        #expect(result.stderr.contains("config.toml:2: [output] language must be a language here-weather speaks: \(LanguageChoiceTests.spoken)"),
                "\(result.stderr)")
        #expect(result.stderr.contains(#"not "Deutsch""#))
    }

    @Test func theCommandLineWinsOverTheConfigWhichWinsOverTheEnvironment() async throws {
        let runner = try InProcessCommand()
        let format = ["--format", "%C|%h", "--weather-replay", Self.tampa]
        #expect(try await runner.run(Self.place + format, environment: ["LANG": "fr_FR.UTF-8"]).stdout == "Généralement dégagé|65\u{A0}%\n")
        try runner.writeConfig("[output]\nlanguage = \"de_AT.UTF-8\"\n")
        #expect(try await runner.run(Self.place + format, environment: ["LANG": "fr_FR.UTF-8"]).stdout == "Heiter|65\u{A0}%\n")
        #expect(try await runner.run(Self.place + format + ["--lang", "en"], environment: ["LANG": "fr_FR.UTF-8"]).stdout
                    == "Mainly clear|65%\n")
        let verbose = try await runner.run(Self.place + format + ["--lang", "fr", "--verbose"], environment: ["LANG": "de_DE.UTF-8"])
        #expect(verbose.stderr.contains("language: fr from --lang fr\n"), "\(verbose.stderr)")
        let unknown = try await InProcessCommand().run(Self.place + format + ["--verbose"], environment: ["LANG": "tlh_XX.UTF-8"])
        #expect(unknown.status == 0 && unknown.stdout == "Mainly clear|65%\n")
        #expect(unknown.stderr.contains("language: en: here-weather does not speak LANG=tlh_XX.UTF-8"), "\(unknown.stderr)")
    }

    /// In the US a report is in °F, mph and inches on a 12-hour clock, with no setting; --units
    /// and the config's units and clock win.
    @Test func autoUnitsAndClockFollowTheLocalesCountry() async throws {
        let runner = try InProcessCommand()
        let arguments = Self.place + ["--format", "%t|%w|%S", "--weather-replay", Self.tampa]
        #expect(try await runner.run(arguments, environment: ["LANG": "en_US.UTF-8"]).stdout == "80.2°F|↙10.9mph|6:56 AM\n")
        #expect(try await runner.run(arguments, environment: ["LANG": "en_GB.UTF-8"]).stdout == "26.8°C|↙4.9m/s|06:56\n")
        #expect(try await runner.run(arguments + ["--units", "metric"], environment: ["LANG": "en_US.UTF-8"]).stdout
                    == "26.8°C|↙4.9m/s|6:56 AM\n")
        try runner.writeConfig("[weather]\nunits = \"metric\"\n[output]\nclock = \"24h\"\n")
        #expect(try await runner.run(arguments, environment: ["LANG": "en_US.UTF-8"]).stdout == "26.8°C|↙4.9m/s|06:56\n")
        let json = try json(try await runner.run(Self.place + ["--json", "--weather-replay", Self.tampa],
                                                 environment: ["LANG": "en_US.UTF-8"]).stdout)
        #expect((json["weather"] as? [String: Any])?["units"] as? String == "metric")
    }

    /// JSON's codes, keys and numbers are the same in every language; the words follow it.
    @Test func jsonKeepsItsCodesAndSpeaksTheLanguageInItsWords() async throws {
        let arguments = Self.place + ["--json", "--weather-replay", Fixtures.url("weather/open-meteo/tampa-rain-in-30-min.json").path]
        let english = try json(try await InProcessCommand().run(arguments).stdout)
        let german = try json(try await InProcessCommand().run(arguments, environment: ["LANG": "de_DE.UTF-8"]).stdout)
        #expect(english["language"] as? String == "en" && german["language"] as? String == "de")
        func weather(_ object: [String: Any]) -> [String: Any] { object["weather"] as? [String: Any] ?? [:] }
        func current(_ object: [String: Any]) -> [String: Any] { weather(object)["current"] as? [String: Any] ?? [:] }
        #expect(current(english)["description"] as? String == "Mainly clear")
        #expect(current(german)["description"] as? String == "Heiter")
        for key in ["condition", "condition_group", "wind_direction", "temperature", "time"] {
            #expect("\(current(english)[key] ?? "none")" == "\(current(german)[key] ?? "none")", "\(key) is the same")
        }
        #expect(current(german)["wind_direction"] as? String == "NNE", "the compass code stays English")
        #expect(JSONSerialization.isValidJSONObject(weather(german)["nowcast"] as Any))
        let place = (german["location"] as? [String: Any])?["nearest_place"] as? [String: Any]
        #expect(place?["text"] as? String == "bei Tampa, Florida, US")
        #expect(place?["bearing"] as? String == (english["location"] as? [String: Any]).flatMap {
            ($0["nearest_place"] as? [String: Any])?["bearing"] as? String })
    }

    /// OpenWeatherMap and Pirate Weather are asked in the run's language (their own codes), and
    /// their answers are cached per language: a German run does not show a French answer. An
    /// English run asks as it always did, and its cache files keep their names.
    @Test(arguments: ProviderSetup.all.filter { $0.name == "openweathermap classic" || $0.name == "pirateweather" })
    func servicesWithWordsOfTheirOwnAreAskedInTheLanguage(_ setup: ProviderSetup) async throws {
        let server = try FixtureServer(routes: setup.routes)
        let runner = try InProcessCommand()
        try runner.writeConfig(setup.config(server.baseURL))
        // English, German, German again (from its cache entry), French.
        for (lang, expected) in [("en", ""), ("de", "lang=de"), ("de", nil), ("fr", "lang=fr")] as [(String, String?)] {
            let before = server.requests.count
            let result = try await runner.run(["--json", "--lang", lang], environment: setup.environment)
            #expect(result.status == 0, "\(result.stderr)")
            #expect((try json(result.stdout))["language"] as? String == lang)
            let asked = server.requests.dropFirst(before).filter { !$0.hasPrefix("/alerts") }
            guard let expected else {
                #expect(asked.isEmpty, "a second German run is answered by the German cache entry: \(asked)")
                continue
            }
            #expect(!asked.isEmpty, "\(lang) asks the service")
            for request in asked {
                #expect(expected.isEmpty ? !request.contains("lang=") : request.contains(expected), "\(lang): \(request)")
            }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: runner.home.path + "/.cache/here-weather")
            .filter { $0.hasSuffix(".weather") }.sorted()
        #expect(names.count == 3, "\(names)")
        #expect(names.contains { $0.hasSuffix("_de.weather") } && names.contains { $0.hasSuffix("_fr.weather") })
        #expect(names.contains { !$0.contains("_de.") && !$0.contains("_fr.") }, "English's file keeps its old name")
        #expect(ServiceLanguage.openWeatherMap("cs") == "cz" && ServiceLanguage.openWeatherMap("zh-CN") == "zh_cn")
        #expect(ServiceLanguage.pirateWeather("pt-BR") == "pt" && ServiceLanguage.pirateWeather("en") == nil)
    }
}
