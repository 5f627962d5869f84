import Foundation
import Testing
@testable import HereWeatherCore

@Suite struct ConfigurationLoaderTests {
    static let path = "/tmp/here-weather-test/config.toml"

    static let fullExample = """
    # here-weather configuration
    version = 1

    [location]
    sources = ["fixed"]

    [location.fixed]
    latitude = 27.9506
    longitude = -82.4572
    name = "Tampa"
    accuracy = 1000

    [weather]
    provider = "openweathermap"
    units = "imperial"
    timeout = 15

    [weather.open-meteo]
    base_url = "http://localhost:8080"

    [weather.openweathermap]
    api_key = "placeholder-key-not-a-real-one-00"
    base_url = "https://owm.example.test/"

    """

    static var fullExampleConfiguration: Configuration {
        var config = Configuration()
        config.version = 1
        config.location.sources = [.fixed]
        config.location.fixed = FixedPlace(coordinate: Coordinate(latitude: 27.9506, longitude: -82.4572),
                                           name: "Tampa", accuracy: 1000, altitude: nil)
        config.weather.provider = .openWeatherMap
        config.weather.units = .imperial
        config.weather.timeout = 15
        config.weather.openMeteo.baseURL = "http://localhost:8080"
        config.weather.openWeatherMap.apiKey = "placeholder-key-not-a-real-one-00"
        config.weather.openWeatherMap.baseURL = "https://owm.example.test/"
        return config
    }

    func parse(_ text: String) throws -> (Configuration, [String]) {
        try ConfigurationLoader.parse(text, path: Self.path)
    }

    /// The `invalidValue` error `text` throws, or a recorded issue.
    func invalidValue(_ text: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> (key: String, expected: String, found: String, message: String)? {
        let error = try #require(throws: ConfigError.self, sourceLocation: sourceLocation) { try parse(text) }
        guard case .invalidValue(let path, let key, let expected, let found) = error else {
            Issue.record("expected invalidValue, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(path == Self.path, sourceLocation: sourceLocation)
        #expect(error.exitStatus == .configuration, sourceLocation: sourceLocation)
        return (key, expected, found, error.message)
    }

    func temporaryDirectory() throws -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("here-weather-config-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    // MARK: load(path:)

    @Test func missingFileGivesDefaults() throws {
        let path = try temporaryDirectory() + "/does-not-exist.toml"
        let loaded = try ConfigurationLoader.load(path: path)
        #expect(loaded.fileExists == false)
        #expect(loaded.path == path)
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.configuration == Configuration())
        // The documented defaults.
        #expect(loaded.configuration.version == 1)
        #expect(loaded.configuration.location.configuredSources == nil, "the zero-config chain")
        #expect(loaded.configuration.location.sources == [.gpsd, .geoclue, .wifi, .ip])
        #expect(loaded.configuration.location.fixed == nil)
        #expect(loaded.configuration.weather.provider == .openMeteo)
        #expect(loaded.configuration.weather.units == .metric)
        #expect(loaded.configuration.weather.timeout == 10)
        #expect(loaded.configuration.weather.openMeteo.baseURL == "https://api.open-meteo.com")
        #expect(loaded.configuration.weather.openWeatherMap.baseURL == "https://api.openweathermap.org")
        #expect(loaded.configuration.weather.openWeatherMap.apiKey == nil)
    }

    @Test func existingFileIsLoaded() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/config.toml"
        try Self.fullExample.write(toFile: path, atomically: true, encoding: .utf8)
        // It holds a key: readable by its owner only, or it draws a warning (ConfigFileModeTests).
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let loaded = try ConfigurationLoader.load(path: path)
        #expect(loaded.fileExists)
        #expect(loaded.path == path)
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.configuration == Self.fullExampleConfiguration)
    }

    @Test func nonUTF8FileIsUnreadable() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/config.toml"
        try Data([0x76, 0x65, 0x72, 0xFF, 0xFE, 0x3D, 0x31]).write(to: URL(fileURLWithPath: path))
        #expect(throws: ConfigError.unreadable(path: path, reason: "it is not UTF-8 text")) {
            try ConfigurationLoader.load(path: path)
        }
    }

    // MARK: parse

    @Test func fullExampleParses() throws {
        let (config, warnings) = try parse(Self.fullExample)
        #expect(warnings.isEmpty)
        #expect(config == Self.fullExampleConfiguration)
        let fixed = try #require(config.location.fixed)
        #expect(fixed.coordinate.latitude == 27.9506)
        #expect(fixed.coordinate.longitude == -82.4572)
        #expect(fixed.name == "Tampa")
        #expect(fixed.accuracy == 1000)
        #expect(config.weather.openWeatherMap.apiKey == "placeholder-key-not-a-real-one-00")
    }

    @Test func emptyTextGivesDefaults() throws {
        let (config, warnings) = try parse("")
        #expect(config == Configuration())
        #expect(warnings.isEmpty)
    }

    @Test func syntaxErrorReportsLineAndColumn() throws {
        // Line 5 has a second value after the first: the stray "2" is in column 14.
        let text = "version = 1\n\n[weather]\nunits = \"metric\"\ntimeout = 10 20\n"
        let error = try #require(throws: ConfigError.self) { try parse(text) }
        guard case .syntax(let path, let line, let column, let detail) = error else {
            Issue.record("expected syntax, got \(error)")
            return
        }
        #expect(path == Self.path)
        #expect(line == 5)
        #expect(column == 14)
        #expect(!detail.isEmpty)
        #expect(error.message.contains("line 5, column 14"))
        #expect(error.exitStatus == .configuration)
    }

    @Test func syntaxErrorOnAnUnclosedTableHeader() throws {
        let text = "version = 1\n[location\nsources = [\"fixed\"]\n"
        let error = try #require(throws: ConfigError.self) { try parse(text) }
        guard case .syntax(_, let line, _, _) = error else {
            Issue.record("expected syntax, got \(error)")
            return
        }
        #expect(line == 2)
    }

    @Test func latitudeOutOfRange() throws {
        let found = try invalidValue("[location.fixed]\nlatitude = 91\nlongitude = 0\n")
        let value = try #require(found)
        #expect(value.key == "location.fixed.latitude")
        #expect(value.found == "91")
        #expect(value.message.contains("-90 to 90"))
        #expect(value.message.contains("location.fixed.latitude"))
    }

    @Test func longitudeOutOfRange() throws {
        let value = try #require(try invalidValue("[location.fixed]\nlatitude = 1\nlongitude = -180.5\n"))
        #expect(value.key == "location.fixed.longitude")
        #expect(value.message.contains("-180 to 180"))
    }

    @Test func unknownUnitsListsTheChoices() throws {
        let value = try #require(try invalidValue("[weather]\nunits = \"kelvinish\"\n"))
        #expect(value.key == "weather.units")
        #expect(value.message.contains("kelvinish"))
        for choice in ["\"metric\"", "\"imperial\"", "\"standard\""] {
            #expect(value.expected.contains(choice))
        }
    }

    @Test func unknownProviderListsTheChoices() throws {
        let value = try #require(try invalidValue("[weather]\nprovider = \"darksky\"\n"))
        #expect(value.key == "weather.provider")
        #expect(value.expected.contains("\"open-meteo\""))
        #expect(value.expected.contains("\"openweathermap\""))
    }

    @Test func latitudeAsAString() throws {
        let value = try #require(try invalidValue("[location.fixed]\nlatitude = \"27.95\"\nlongitude = -82.46\n"))
        #expect(value.key == "location.fixed.latitude")
        #expect(value.expected.contains("number"))
        #expect(value.found == "\"27.95\"")
    }

    @Test func timeoutOutOfRange() throws {
        let value = try #require(try invalidValue("[weather]\ntimeout = 0\n"))
        #expect(value.key == "weather.timeout")
    }

    @Test func baseURLMustBeHTTP() throws {
        let value = try #require(try invalidValue("[weather.open-meteo]\nbase_url = \"ftp://example.com\"\n"))
        #expect(value.key == "weather.open-meteo.base_url")
    }

    @Test func unsupportedLocationSource() throws {
        let value = try #require(try invalidValue("[location]\nsources = [\"fixed\", \"carrier-pigeon\"]\n"))
        #expect(value.key == "location.sources")
        #expect(value.found.contains("carrier-pigeon"))
    }

    @Test func unknownKeysBecomeWarnings() throws {
        let text = """
        colour = "blue"
        version = 1

        [location]
        sources = ["fixed"]

        [location.bluetooth]
        device = "hci0"

        [weather]
        units = "imperial"
        colour = "x"

        [weather.open-meteo]
        base_url = "https://api.open-meteo.com"
        retries = 3

        """
        let (config, warnings) = try parse(text)
        #expect(config.weather.units == .imperial)  // known keys still read
        #expect(warnings == [
            "unknown key colour at \(Self.path):1 (ignored)",
            "unknown key location.bluetooth at \(Self.path):7 (ignored)",
            "unknown key weather.colour at \(Self.path):12 (ignored)",
            "unknown key weather.open-meteo.retries at \(Self.path):16 (ignored)",
        ])
        // Keys inside an unknown table are not listed one by one.
        #expect(!warnings.contains { $0.contains("device") })
    }

    @Test func unsupportedVersion() throws {
        #expect(throws: ConfigError.unsupportedVersion(path: Self.path, version: 2)) {
            try parse("version = 2\n")
        }
        let error = try #require(throws: ConfigError.self) { try parse("version = 2\n") }
        #expect(error.message.contains("version = 2"))
    }

    @Test func versionMustBeAnInteger() throws {
        let value = try #require(try invalidValue("version = \"1\"\n"))
        #expect(value.key == "version")
    }

    @Test func latitudeWithoutLongitude() throws {
        let value = try #require(try invalidValue("[location.fixed]\nlatitude = 27.95\n"))
        #expect(value.key == "location.fixed.longitude")
        #expect(value.message.contains("latitude"))
    }

    @Test func longitudeWithoutLatitude() throws {
        let value = try #require(try invalidValue("[location.fixed]\nlongitude = -82.46\nname = \"x\"\n"))
        #expect(value.key == "location.fixed.latitude")
    }

    @Test func emptyFixedTableMeansNoFixedPlace() throws {
        let (config, warnings) = try parse("[location.fixed]\n")
        #expect(config.location.fixed == nil)
        #expect(warnings.isEmpty)
    }

    @Test func apiKeyOfTheWrongTypeIsNotEchoed() throws {
        let value = try #require(try invalidValue("[weather.openweathermap]\napi_key = 12345\n"))
        #expect(value.key == "weather.openweathermap.api_key")
        #expect(!value.message.contains("12345"))
        #expect(!value.found.contains("12345"))
        #expect(value.message.contains("a string"))
    }

    @Test func unquotedAPIKeyIsNotEchoedInTheSyntaxError() throws {
        // Forgetting the quotes is a syntax error; its message must not show the key either.
        let error = try #require(throws: ConfigError.self) {
            try parse("[weather.openweathermap]\napi_key = deadbeef0123456789cafe\n")
        }
        guard case .syntax(_, let line, _, _) = error else {
            Issue.record("expected syntax, got \(error)")
            return
        }
        #expect(line == 2)
        #expect(!error.message.contains("deadbeef0123456789cafe"))
        #expect(!error.message.contains("deadbeef"))
        // A hex key starting like `false` or `true`: the parser quotes a few characters at most.
        for key in ["fa3b9c0d1e2f4a5b6c7d8e9f0a1b2c3d", "7e3b9c0d1e2f4a5b6c7d8e9f0a1b2c3d", "0123abcd4567ef890123abcd4567ef89"] {
            let error = try #require(throws: ConfigError.self) { try parse("[weather.openweathermap]\napi_key = \(key)\n") }
            #expect(!error.message.contains(key))
            #expect(!error.message.contains(key.prefix(8)))
        }
    }

    // MARK: The OpenWeatherMap key

    @Test func openWeatherMapKeyPrecedence() throws {
        var config = Configuration()
        config.weather.openWeatherMap.apiKey = "from-file"
        #expect(config.openWeatherMapKey(environment: ["OPENWEATHERMAP_API_KEY": "from-env"]) == "from-env")
        #expect(config.openWeatherMapKey(environment: ["OPENWEATHERMAP_API_KEY": ""]) == "from-file")
        #expect(config.openWeatherMapKey(environment: [:]) == "from-file")
        config.weather.openWeatherMap.apiKey = ""
        #expect(config.openWeatherMapKey(environment: [:]) == nil)
        #expect(config.openWeatherMapKey(environment: ["OPENWEATHERMAP_API_KEY": ""]) == nil)
        config.weather.openWeatherMap.apiKey = nil
        #expect(config.openWeatherMapKey(environment: ["OPENWEATHERMAP_API_KEY": "from-env"]) == "from-env")
        #expect(config.openWeatherMapKey(environment: ["OTHER": "x"]) == nil)
    }

    // MARK: ConfigurationText

    @Test func templateParsesToTheDefaultsWithoutWarnings() throws {
        let (config, warnings) = try parse(ConfigurationText.template)
        #expect(warnings.isEmpty)
        #expect(config == Configuration())
    }

    /// `clock` and `units` "auto" (the default, what `config init` writes) leave the choice to the
    /// locale; `language` takes a code or a locale name here-weather speaks, and nothing else.
    @Test func autoAndLanguage() throws {
        #expect(ConfigurationText.template.contains("clock = \"auto\"") && ConfigurationText.template.contains("units = \"auto\""))
        let (auto, _) = try parse("[output]\nclock = \"auto\"\n[weather]\nunits = \"auto\"\n")
        #expect(auto.output.clockIsAuto && auto.weather.unitsAreAuto && auto == Configuration())
        let (fixed, _) = try parse("[output]\nclock = \"12h\"\nlanguage = \"fr_CA.UTF-8\"\n[weather]\nunits = \"standard\"\n")
        #expect(!fixed.output.clockIsAuto && fixed.output.clock == .twelveHour && fixed.output.language == "fr_CA.UTF-8")
        #expect(!fixed.weather.unitsAreAuto && fixed.weather.units == .standard)
        let bad = try #require(try invalidValue("[output]\nlanguage = \"tlh\"\n"))
        #expect(bad.key == "output.language")
        #expect(bad.expected == "a language here-weather speaks: " + LanguageChoice.available)
        #expect(try invalidValue("[output]\nclock = \"13h\"\n")?.expected == #"one of "auto", "24h", "12h""#)
        // config show says what "auto" and an unset language are here.
        let shown = ConfigurationText.effective(Configuration(), environment: ["LANG": "en_US.UTF-8"])
        #expect(shown.contains("clock = \"auto\"   # here: 12h") && shown.contains("units = \"auto\"   # here: imperial"))
        #expect(shown.contains("# language not set: the environment's (here: en)"))
        #expect(ConfigurationText.effective(fixed, environment: [:]).contains("language = \"fr_CA.UTF-8\""))
    }

    @Test func effectiveNeverShowsTheKey() throws {
        var config = Self.fullExampleConfiguration
        let fileKey = "placeholder-key-not-a-real-one-00"
        let environmentKey = "fedcba9876543210"
        config.weather.openWeatherMap.apiKey = fileKey
        let fromFile = ConfigurationText.effective(config, environment: [:])
        #expect(!fromFile.contains(fileKey))
        #expect(fromFile.contains("[redacted]"))
        #expect(fromFile.contains("config file"))
        let fromEnvironment = ConfigurationText.effective(config, environment: ["OPENWEATHERMAP_API_KEY": environmentKey])
        #expect(!fromEnvironment.contains(environmentKey))
        #expect(!fromEnvironment.contains(fileKey))
        #expect(fromEnvironment.contains("OPENWEATHERMAP_API_KEY"))
        config.weather.openWeatherMap.apiKey = nil
        #expect(!ConfigurationText.effective(config, environment: [:]).contains("[redacted]"))
    }

    @Test func effectiveRoundTripsTheFullExample() throws {
        let config = Self.fullExampleConfiguration
        let text = ConfigurationText.effective(config, environment: [:])
        let (decoded, warnings) = try parse(text)
        #expect(warnings.isEmpty)
        var parsed = decoded
        parsed.weather.openWeatherMap.apiKey = config.weather.openWeatherMap.apiKey
        #expect(parsed == config)
    }

    @Test func effectiveRoundTripsTheDefaults() throws {
        let (parsed, warnings) = try parse(ConfigurationText.effective(Configuration(), environment: [:]))
        #expect(warnings.isEmpty)
        #expect(parsed == Configuration())
        #expect(parsed.weather.openWeatherMap.apiKey == nil)
    }

    @Test func effectiveRoundTripsAwkwardValues() throws {
        var config = Configuration()
        config.location.fixed = FixedPlace(coordinate: Coordinate(latitude: -33.856_784, longitude: 151.215_297),
                                           name: "Café \"Opera\" \\ Sydney\tBar\u{1}",
                                           accuracy: 12.5, altitude: -3)
        config.location.sources = []
        config.weather.provider = .openWeatherMap
        config.weather.units = .standard
        config.weather.timeout = 2.5
        config.weather.openMeteo.baseURL = "http://127.0.0.1:9999/path"
        let (parsed, warnings) = try parse(ConfigurationText.effective(config, environment: [:]))
        #expect(warnings.isEmpty)
        #expect(parsed == config)
    }

    // MARK: Weather services

    /// A contact goes into the User-Agent header: a line break in it would end that header and
    /// send another (seen: `contact = "me@example.org\r\nX-Evil: 1"` reached the server as two
    /// headers), and letters outside ASCII may be refused. Both are configuration errors.
    @Test(arguments: ["metno", "nws"], [#""me@example.org\r\nX-Evil: 1""#, #""Jörg <joerg@example.org>""#, #""me@example.org\t""#, #""  ""#])
    func aContactThatCannotBeAHeaderIsRefused(provider: String, contact: String) throws {
        let refused = try #require(try invalidValue("[weather.\(provider)]\ncontact = \(contact)\n"))
        #expect(refused.key == "weather.\(provider).contact")
        #expect(refused.expected.contains("plain ASCII") && refused.expected.contains("User-Agent"), "\(refused.message)")
        let (config, _) = try parse("[weather.\(provider)]\ncontact = \"Jo Bloggs <jo@example.org> https://example.org/~jo\"\n")
        #expect((provider == "metno" ? config.weather.metNorway.contact : config.weather.nws.contact)
                == "Jo Bloggs <jo@example.org> https://example.org/~jo")
    }

    @Test func everyServiceCanBeChosenAndConfigured() throws {
        let (config, warnings) = try parse("""
        [weather]
        provider = "metno"
        [weather.metno]
        contact = "you@example.org"
        base_url = "http://127.0.0.1:8080"
        [weather.pirateweather]
        api_key = "pw-file-key"
        base_url = "https://weather.example.org"
        [weather.openweathermap]
        api = "onecall"
        """)
        #expect(warnings.isEmpty)
        #expect(config.weather.provider == .metNorway)
        #expect(config.weather.metNorway.contact == "you@example.org")
        #expect(config.weather.metNorway.baseURL == "http://127.0.0.1:8080")
        #expect(config.weather.pirateWeather.baseURL == "https://weather.example.org")
        #expect(config.weather.openWeatherMap.api == .onecall)
        #expect(config.pirateWeatherKey(environment: [:]) == "pw-file-key")
        #expect(config.pirateWeatherKey(environment: ["PIRATEWEATHER_API_KEY": "env-key"]) == "env-key")
        #expect(config.pirateWeatherKey(environment: ["PIRATEWEATHER_API_KEY": ""]) == "pw-file-key")
        #expect(config.secrets(environment: [:]).contains("pw-file-key"))
        for name in ["open-meteo", "openweathermap", "metno", "pirateweather", "nws"] {
            let (chosen, _) = try parse("[weather]\nprovider = \"\(name)\"\n")
            #expect(chosen.weather.provider.rawValue == name)
        }
    }

    @Test func unknownOpenWeatherMapAPIListsTheChoices() throws {
        let value = try #require(try invalidValue("[weather.openweathermap]\napi = \"2.5\"\n"))
        #expect(value.key == "weather.openweathermap.api")
        #expect(value.expected.contains("\"classic\""))
        #expect(value.expected.contains("\"onecall\""))
    }

    @Test func unknownKeysInTheNewTablesAreWarnings() throws {
        let (_, warnings) = try parse("[weather.metno]\ncontakt = \"x\"\n[weather.pirateweather]\nkey = \"y\"\n")
        #expect(warnings.count == 2)
        #expect(warnings.contains { $0.contains("weather.metno.contakt") })
        #expect(warnings.contains { $0.contains("weather.pirateweather.key") })
    }

    @Test func effectiveShowsTheNewSettingsButNoPirateKey() throws {
        var config = Configuration()
        config.weather.metNorway.contact = "ops@example.org"
        config.weather.pirateWeather.apiKey = "pw-secret-in-file"
        config.weather.openWeatherMap.api = .onecall
        let text = ConfigurationText.effective(config, environment: [:])
        #expect(text.contains("[weather.metno]\ncontact = \"ops@example.org\""))
        #expect(text.contains("api = \"onecall\""))
        #expect(!text.contains("pw-secret-in-file"))
        #expect(text.contains("[weather.pirateweather]\napi_key = \"[redacted]\"  # from the config file"))
        let (parsed, warnings) = try parse(text)
        #expect(warnings.isEmpty)
        var expected = config
        expected.weather.pirateWeather.apiKey = "[redacted]"  // As for the OpenWeatherMap key: a placeholder.
        #expect(parsed == expected)
    }
}
