#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads the TOML config file into a `Configuration`.
public enum ConfigurationLoader {
    /// A loaded configuration with what was noticed on the way.
    public struct Loaded: Sendable {
        public var configuration: Configuration
        public var path: String
        /// Whether the file exists (a missing file means defaults).
        public var fileExists: Bool
        /// Warnings for stderr, one line each, without the program's prefix (`WarningStyle`):
        /// unknown keys, a secret in a file others can read.
        public var warnings: [String]
    }

    /// Loads `path`; a missing file gives the defaults.
    public static func load(path: String) throws -> Loaded {
        let text: String
        do {
            guard let contents = try TextFile.read(path) else {
                return Loaded(configuration: Configuration(), path: path, fileExists: false, warnings: [])
            }
            text = contents
        } catch {
            throw ConfigError.unreadable(path: path, reason: error.reason)
        }
        let (configuration, parsed) = try parse(text, path: path)
        var warnings = parsed
        if let exposed = ConfigFileMode.warning(path: path, configuration: configuration) { warnings.append(exposed) }
        return Loaded(configuration: configuration, path: path, fileExists: true, warnings: warnings)
    }

    /// Parses config text; `path` is used in messages only.
    public static func parse(_ text: String, path: String) throws -> (Configuration, [String]) {
        let members: [ConfigMember]
        do {
            members = try ConfigNode.parse(text)
        } catch {
            throw ConfigError.syntax(path: path, line: error.line, column: error.column,
                                     detail: mentionsSecret(text, line: error.line)
                                        ? "the value is not valid TOML (strings need quotes)" : error.reason)
        }
        let root = ConfigTable(path: path, prefix: "", members: members)
        var config = Configuration()
        if let version = try root.integer("version") {
            guard version == 1 else { throw ConfigError.unsupportedVersion(path: path, version: version) }
        }
        if let location = try root.table("location") {
            try readLocation(location, into: &config.location)
        }
        if let weather = try root.table("weather") {
            try readWeather(weather, into: &config.weather)
        }
        if let output = try root.table("output") {
            config.output.icons = try output.choice("icons", Configuration.OutputSettings.Icons.allCases) ?? config.output.icons
            if let clock = try output.choice("clock", ClockChoice.allCases),
               let fixed = Configuration.OutputSettings.ClockFormat(rawValue: clock.rawValue) {
                config.output.clock = fixed
            }
            config.output.formatError = try output.failureLine("format_error")
            config.output.language = try output.language("language")
        }
        if let cache = try root.table("cache") {
            config.cache.ttl = try cache.number("ttl", in: 0...86_400, unit: " seconds") ?? config.cache.ttl
            config.cache.staleLimit = try cache.number("stale_limit", in: 0...2_592_000, unit: " seconds")
                ?? config.cache.staleLimit
        }
        if let alerts = try root.table("alerts") {
            config.alerts.nws = try alerts.bool("nws") ?? config.alerts.nws
            config.alerts.metno = try alerts.bool("metno") ?? config.alerts.metno
            config.alerts.eccc = try alerts.bool("eccc") ?? config.alerts.eccc
            // `dwd = false`, or a table: `[alerts.dwd]` with `enabled` and `base_url` (TOML
            // has no key that is both).
            if alerts.isTable("dwd"), let dwd = try alerts.table("dwd") {
                config.alerts.dwd = try dwd.bool("enabled") ?? config.alerts.dwd
                config.alerts.dwdBaseURL = try dwd.url("base_url") ?? config.alerts.dwdBaseURL
            } else {
                config.alerts.dwd = try alerts.bool("dwd") ?? config.alerts.dwd
            }
            if alerts.isTable("meteoalarm"), let meteoalarm = try alerts.table("meteoalarm") {
                config.alerts.meteoalarm = try meteoalarm.bool("enabled") ?? config.alerts.meteoalarm
                config.alerts.meteoalarmBaseURL = try meteoalarm.url("base_url") ?? config.alerts.meteoalarmBaseURL
            } else {
                config.alerts.meteoalarm = try alerts.bool("meteoalarm") ?? config.alerts.meteoalarm
            }
        }
        if let air = try root.table("air_quality") {
            config.airQuality.enabled = try air.bool("enabled") ?? config.airQuality.enabled
            config.airQuality.baseURL = try air.url("base_url") ?? config.airQuality.baseURL
            config.airQuality.allowPlainHTTP = try air.bool("allow_plain_http") ?? config.airQuality.allowPlainHTTP
        }
        if let privacy = try root.table("privacy") {
            config.privacy.coordinateDecimals = try privacy.number("coordinate_decimals", in: 0...4).map { Int($0) }
                ?? config.privacy.coordinateDecimals
            config.privacy.placeNames = try privacy.bool("place_names") ?? config.privacy.placeNames
        }
        let warnings = UnknownConfigKey.warnings(root.unknownKeys, file: "at \(path)")
        return (config, warnings)
    }

    /// Whether line `number` (1-based) sets a secret, whose text a parser message could quote.
    static func mentionsSecret(_ text: String, line number: Int) -> Bool {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard number >= 1, number <= lines.count else { return false }
        let line = lines[number - 1].lowercased()
        return ["key", "token", "secret"].contains { line.utf8.firstRange(of: $0.utf8) != nil }
    }

    private static func readLocation(_ table: ConfigTable, into settings: inout Configuration.LocationSettings) throws {
        settings.enabled = try table.bool("enabled") ?? settings.enabled
        if let sources = try table.choices("sources", LocationSource.allCases) {
            settings.configuredSources = sources
        }
        if let text = try table.string("accuracy") {
            guard let accuracy = DesiredAccuracy(text) else {
                throw ConfigError.invalidValue(path: table.path, key: "location.accuracy",
                                               expected: "one of " + DesiredAccuracy.choices, found: "\"\(text)\"",
                                               line: table.line("accuracy"),
                                               suggestion: Suggestion.nearest(to: text, among: DesiredAccuracy.levels.map(\.description)))
            }
            settings.accuracy = accuracy
        }
        settings.timeout = try table.number("timeout", in: Configuration.LocationSettings.timeoutRange, unit: " seconds")
            ?? settings.timeout
        if table.isString("max_age") {
            guard try table.string("max_age") == "off" else {
                throw ConfigError.invalidValue(path: table.path, key: "location.max_age",
                                               expected: "a number of seconds or \"off\"", found: "another string",
                                               line: table.line("max_age"))
            }
            settings.maxAge = nil
        } else {
            settings.maxAge = try table.number("max_age", in: Configuration.LocationSettings.maxAgeRange, unit: " seconds, or \"off\"")
                ?? settings.maxAge
        }
        if let ip = try table.table("ip") {
            try readIP(ip, into: &settings)
        }
        if let wifi = try table.table("wifi") {
            settings.permissions[.wifi] = try wifi.choice("permission", LocationPermission.userChoices)
            settings.wifi.baseURL = try wifi.url("base_url") ?? settings.wifi.baseURL
            settings.wifi.key = try wifi.secret("key")
            settings.wifi.allowPlainHTTP = try wifi.bool("allow_plain_http") ?? false
            settings.wifi.rememberDays = try wifi.number("remember_days", in: WiFiSettings.rememberDaysRange, unit: " days")
                ?? settings.wifi.rememberDays
        }
        if let gpsd = try table.table("gpsd") {
            settings.permissions[.gpsd] = try gpsd.choice("permission", LocationPermission.userChoices)
            settings.gpsd.host = try gpsd.string("host") ?? settings.gpsd.host
            settings.gpsd.port = try gpsd.number("port", in: 1...65535).map { Int($0) } ?? settings.gpsd.port
        }
        if let geoclue = try table.table("geoclue") {
            settings.permissions[.geoclue] = try geoclue.choice("permission", LocationPermission.userChoices)
        }
        if let nmea = try table.table("nmea") {
            settings.permissions[.nmea] = try nmea.choice("permission", LocationPermission.userChoices)
            settings.nmea.path = try nmea.string("path")
            if nmea.isString("speed") {
                let text = try nmea.string("speed") ?? ""
                guard let speed = ReplaySpeed(text) else {
                    throw ConfigError.invalidValue(path: table.path, key: "location.nmea.speed",
                                                   expected: "\"max\" or a positive number", found: "\"\(text)\"",
                                                   line: nmea.line("speed"))
                }
                settings.nmea.speed = speed
            } else if let factor = try nmea.number("speed", in: 0.001...1_000_000, unit: ", or \"max\"") {
                settings.nmea.speed = .factor(factor)
            }
        }
        if let fixed = try table.table("fixed") {
            settings.permissions[.fixed] = try fixed.choice("permission", LocationPermission.userChoices)
            let latitude = try fixed.number("latitude", in: -90...90, unit: " degrees")
            let longitude = try fixed.number("longitude", in: -180...180, unit: " degrees")
            let name = try fixed.string("name")
            let accuracy = try fixed.number("accuracy", in: 0...20_000_000, unit: " metres")
            let altitude = try fixed.number("altitude", in: -11_000...100_000, unit: " metres")
            switch (latitude, longitude) {
            case let (latitude?, longitude?):
                settings.fixed = FixedPlace(coordinate: Coordinate(latitude: latitude, longitude: longitude),
                                            name: name, accuracy: accuracy, altitude: altitude)
            case (nil, nil):
                settings.fixed = nil
            case (nil, _?):
                throw ConfigError.invalidValue(path: table.path, key: "location.fixed.latitude",
                                               expected: "set along with longitude", found: "missing", line: fixed.line("longitude"))
            case (_?, nil):
                throw ConfigError.invalidValue(path: table.path, key: "location.fixed.longitude",
                                               expected: "set along with latitude", found: "missing", line: fixed.line("latitude"))
            }
        }
    }

    private static func readIP(_ table: ConfigTable, into settings: inout Configuration.LocationSettings) throws {
        settings.permissions[.ip] = try table.choice("permission", LocationPermission.userChoices)
        settings.ip.services = try table.choices("services", IPService.allCases) ?? settings.ip.services
        for service in IPService.allCases {
            guard let entry = try table.table(service.rawValue) else { continue }
            let configured = IPServiceSettings(
                service, baseURL: try entry.url("base_url"),
                token: service == .ipinfo ? try entry.secret("token") : nil,
                allowPlainHTTP: try entry.bool("allow_plain_http") ?? false)
            // Only what differs from the defaults is kept, so equal settings compare equal.
            settings.ip.settings[service] = configured == IPServiceSettings(service) ? nil : configured
        }
    }

    private static func readWeather(_ table: ConfigTable, into settings: inout Configuration.WeatherSettings) throws {
        settings.provider = try table.choice("provider", WeatherProviderKind.allCases) ?? settings.provider
        if let units = try table.choice("units", UnitsChoice.allCases), let fixed = Units(rawValue: units.rawValue) {
            settings.units = fixed
        }
        settings.timeout = try table.number("timeout", in: 1...300, unit: " seconds") ?? settings.timeout
        if let openMeteo = try table.table("open-meteo") {
            settings.openMeteo.baseURL = try openMeteo.url("base_url") ?? settings.openMeteo.baseURL
            settings.openMeteo.geocodingURL = try openMeteo.url("geocoding_url") ?? settings.openMeteo.geocodingURL
            settings.openMeteo.allowPlainHTTP = try openMeteo.bool("allow_plain_http") ?? false
        }
        if let openWeatherMap = try table.table("openweathermap") {
            settings.openWeatherMap.apiKey = try openWeatherMap.secret("api_key")
            settings.openWeatherMap.baseURL = try openWeatherMap.url("base_url") ?? settings.openWeatherMap.baseURL
            settings.openWeatherMap.api = try openWeatherMap.choice("api", Configuration.OpenWeatherMapAPI.allCases)
                ?? settings.openWeatherMap.api
            settings.openWeatherMap.allowPlainHTTP = try openWeatherMap.bool("allow_plain_http") ?? false
        }
        if let metNorway = try table.table("metno") {
            settings.metNorway.contact = try metNorway.headerText("contact")
            settings.metNorway.baseURL = try metNorway.url("base_url") ?? settings.metNorway.baseURL
            settings.metNorway.allowPlainHTTP = try metNorway.bool("allow_plain_http") ?? false
        }
        if let pirateWeather = try table.table("pirateweather") {
            settings.pirateWeather.apiKey = try pirateWeather.secret("api_key")
            settings.pirateWeather.baseURL = try pirateWeather.url("base_url") ?? settings.pirateWeather.baseURL
            settings.pirateWeather.allowPlainHTTP = try pirateWeather.bool("allow_plain_http") ?? false
        }
        if let nws = try table.table("nws") {
            settings.nws.contact = try nws.headerText("contact")
            settings.nws.baseURL = try nws.url("base_url") ?? settings.nws.baseURL
            settings.nws.allowPlainHTTP = try nws.bool("allow_plain_http") ?? false
        }
    }
}

/// `[output] clock` as written: "auto" (the locale's country decides), "24h" or "12h".
enum ClockChoice: String, CaseIterable {
    case auto
    case twentyFourHour = "24h"
    case twelveHour = "12h"
}

/// `[weather] units` as written: "auto" (the locale's country decides) or a unit system.
enum UnitsChoice: String, CaseIterable {
    case auto, metric, imperial, standard
}

extension ConfigTable {
    /// A language here-weather speaks, as a catalogue's code or a locale name ("de",
    /// "pt_BR.UTF-8"); any other is an error that lists them.
    func language(_ key: String) throws -> String? {
        guard let text = try string(key) else { return nil }
        guard LocaleName(text)?.catalogue() != nil else {
            throw ConfigError.invalidValue(path: path, key: qualified(key),
                                           expected: "a language here-weather speaks: \(LanguageChoice.available)",
                                           found: ConfigNode.string(text).quoted, line: line(key))
        }
        return text
    }
}
