import Foundation
import Testing
@testable import HereWeatherCore

/// Which language a run speaks and whose customs decide its units and clock
/// (`LanguageChoice`, a value decided from the environment, the config and `--lang`), and the
/// command line's and config file's errors for a language here-weather does not speak.
@Suite struct LanguageChoiceTests {
    func choose(_ environment: [String: String], configured: String? = nil, commandLine: String? = nil) throws -> LanguageChoice {
        try LanguageChoice.resolve(environment: environment, configured: configured, commandLine: commandLine)
    }

    // MARK: The environment, as gettext reads it

    @Test(arguments: [
        (["LANG": "de_DE.UTF-8"], "de"),
        (["LANG": "fr_CA.utf8"], "fr"),
        (["LANG": "de_AT.UTF-8@euro"], "de"),
        (["LANG": "C"], "en"),
        (["LANG": "POSIX"], "en"),
        (["LANG": "C.UTF-8"], "en"),
        ([:], "en"),
        (["LANG": ""], "en"),
        // LANGUAGE is a list of preferences; the first with a catalogue wins.
        (["LANG": "de_DE.UTF-8", "LANGUAGE": "fr:de"], "fr"),
        (["LANG": "fr_FR.UTF-8", "LANGUAGE": "xx:de_CH:fr"], "de"),
        // gettext ignores LANGUAGE in the C locale.
        (["LANG": "C", "LANGUAGE": "de"], "en"),
        (["LANG": "C.UTF-8", "LANGUAGE": "fr"], "en"),
        // The locale for messages: LC_ALL, then LC_MESSAGES, then LANG.
        (["LANG": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"], "fr"),
        (["LANG": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8", "LC_ALL": "C"], "en"),
        (["LANG": "de_DE.UTF-8", "LC_ALL": "fr_FR.UTF-8", "LANGUAGE": ""], "fr"),
        // Other categories do not choose the language.
        (["LANG": "C.UTF-8", "LC_TIME": "de_DE.UTF-8", "LC_NUMERIC": "fr_FR.UTF-8"], "en"),
    ])
    func theEnvironmentChoosesAsGettextDoes(_ environment: [String: String], _ language: String) throws {
        #expect(try choose(environment).locale.code == language, "\(environment)")
    }

    @Test func aLanguageWithoutACatalogueFallsBackToEnglishWithANote() throws {
        for environment in [["LANG": "xx_YY.UTF-8"], ["LANG": "de_DE.UTF-8", "LANGUAGE": "xx"], ["LANG": "zh_TW.UTF-8"],
                            ["LANG": "not a locale"]] {
            let choice = try choose(environment)
            #expect(choice.locale.code == "en", "\(environment)")
            #expect(choice.notes.count == 1)
            #expect(choice.notes[0].hasPrefix("language: en: here-weather does not speak "), "\(choice.notes)")
            #expect(choice.notes[0].contains("de (Deutsch)"), "the note lists the languages there are")
        }
        #expect(try choose(["LANG": "de_DE.UTF-8"]).notes == ["language: de from LANG=de_DE.UTF-8"])
    }

    /// `pt-BR`, `pt_BR` and `pt_BR.UTF-8` name one catalogue: the regional one where there is
    /// one (pt-BR, zh-CN), else the language's; Norwegian "no" is Bokmål; traditional Chinese
    /// is not the simplified catalogue.
    @Test func localeNamesAreReadIntoTheirParts() throws {
        for text in ["pt-BR", "pt_BR", "pt_BR.UTF-8", "pt_BR.utf8@modifier"] {
            let name = try #require(LocaleName(text))
            #expect(name.language == "pt" && name.territory == "BR", "\(text)")
            let expected = LanguageData.named("pt-BR")?.code ?? LanguageData.named("pt")?.code
            #expect(name.catalogue()?.code == expected)
        }
        #expect(LocaleName("zh_Hans_CN")?.script == "Hans")
        #expect(LocaleName("es-419")?.territory == "419")
        #expect(LocaleName("C.UTF-8")?.isC == true)
        for junk in ["", "d", "de_DE_XX", "12_34", "de_!!", "deutsch"] { #expect(LocaleName(junk)?.catalogue() == nil, "\(junk)") }
        #expect(LocaleName("zh_TW.UTF-8")?.catalogue() == nil)
        #expect(LocaleName("zh_CN.UTF-8")?.catalogue()?.code == LanguageData.named("zh-CN")?.code)
        #expect(LocaleName("no_NO")?.catalogue()?.code == LanguageData.named("nb")?.code)
    }

    // MARK: --lang and [output] language

    @Test func theCommandLineWinsOverTheConfigAndTheConfigOverTheEnvironment() throws {
        let environment = ["LANG": "en_US.UTF-8"]
        #expect(try choose(environment).locale.code == "en")
        #expect(try choose(environment, configured: "de").locale.code == "de")
        #expect(try choose(environment, configured: "de", commandLine: "fr").locale.code == "fr")
        #expect(try choose(environment, configured: "de", commandLine: "fr").notes == ["language: fr from --lang fr"])
        #expect(try choose(environment, configured: "de_AT.UTF-8").notes == ["language: de from [output] language de_AT.UTF-8"])
    }

    /// Every language here-weather speaks, as the errors list them: "cs (čeština), da (dansk), ...".
    static let spoken = LanguageData.all.sorted { $0.code < $1.code }.map { "\($0.code) (\($0.name))" }.joined(separator: ", ")

    @Test func aLanguageNamedByTheUserThatHereWeatherDoesNotSpeakIsAnError() throws {
        #expect(throws: LanguageError(name: "xx", origin: .commandLine)) { try choose([:], commandLine: "xx") }
        #expect(throws: LanguageError(name: "klingon", origin: .config)) { try choose([:], configured: "klingon") }
        let usage = LanguageError(name: "xx", origin: .commandLine)
        #expect(usage.exitStatus == .usage)
        #expect(usage.message.contains(Self.spoken), "\(usage.message)")
        #expect(LanguageError(name: "xx", origin: .config).exitStatus == .configuration)
    }

    // MARK: Whose customs: units, clock, dates

    @Test func theCountryDecidesUnitsAndClock() throws {
        let us = try choose(["LANG": "en_US.UTF-8"]).locale
        #expect(us.units == .imperial && us.clock == .twelveHour)
        let german = try choose(["LANG": "de_DE.UTF-8"]).locale
        #expect(german.units == .metric && german.clock == .twentyFourHour)
        for country in ["LR", "MM"] {
            #expect(try choose(["LANG": "en_\(country).UTF-8"]).locale.units == .imperial, "\(country)")
        }
        #expect(try choose(["LANG": "en_GB.UTF-8"]).locale.units == .metric, "Britain keeps Celsius")
        // No country: metric and 24 hours, as here-weather always was.
        let plain = try choose(["LANG": "C.UTF-8"]).locale
        #expect(plain.units == .metric && plain.clock == .twentyFourHour)
        // LC_MEASUREMENT and LC_TIME decide their own categories; LC_ALL wins over both.
        let mixed = try choose(["LANG": "de_DE.UTF-8", "LC_MEASUREMENT": "en_US.UTF-8", "LC_TIME": "en_AU.UTF-8"]).locale
        #expect(mixed.code == "de" && mixed.units == .imperial && mixed.clock == .twelveHour)
        #expect(try choose(["LANG": "en_US.UTF-8", "LC_ALL": "de_DE.UTF-8", "LC_MEASUREMENT": "en_US.UTF-8"]).locale.units == .metric)
        // A country named with --lang decides both.
        let named = try choose(["LANG": "de_DE.UTF-8"], commandLine: "en_US").locale
        #expect(named.units == .imperial && named.clock == .twelveHour)
    }

    @Test func englishWritesDatesAsItsCountryDoes() throws {
        let date = "2026-11-22"
        #expect(try choose(["LANG": "C.UTF-8"]).locale.dayLabel(date) == "Sun 22 Nov")
        #expect(try choose(["LANG": "en_US.UTF-8"]).locale.dayLabel(date) == "Sun, Nov 22")
        #expect(try choose(["LANG": "en_GB.UTF-8"]).locale.dayLabel(date) == "Sun, 22 Nov")
        #expect(try choose(["LANG": "de_DE.UTF-8"]).locale.dayLabel(date) == "So., 22. Nov.")
        #expect(try choose(["LANG": "fr_FR.UTF-8"]).locale.dayLabel(date) == "dim. 22 nov.")
    }

    @Test func forRunResolvesAutoAndKeepsWhatTheFileFixes() throws {
        var configuration = Configuration()
        let (auto, _) = try configuration.forRun(environment: ["LANG": "en_US.UTF-8"])
        #expect(auto.weather.units == .imperial && auto.output.clock == .twelveHour && auto.output.locale.code == "en")
        configuration.weather.units = .metric
        configuration.output.clock = .twentyFourHour
        let (fixed, _) = try configuration.forRun(environment: ["LANG": "en_US.UTF-8"])
        #expect(fixed.weather.units == .metric && fixed.output.clock == .twentyFourHour)
        // A locale that is not UTF-8 draws in ASCII, whatever the language.
        let (latin1, _) = try Configuration().forRun(environment: ["LANG": "de_DE.ISO-8859-1"])
        #expect(latin1.output.charset == .ascii && latin1.output.locale.code == "de")
        // CLDR's Swedish, Norwegian and Finnish minus sign (U+2212) is "-" in ASCII.
        #expect(TextCharset.ascii.fold("\u{2212}3,2 °C") == "-3,2 C")
    }
}
