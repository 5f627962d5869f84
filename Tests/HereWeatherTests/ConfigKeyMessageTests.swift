import Foundation
import Testing
@testable import HereWeatherCore

/// Every message that tells the user to set or check a config key names one the loader
/// reads, in the table of the provider or source in use: each key a message names is
/// written into a config file and loaded, and none is unknown ("Check [weather] base_url"
/// once led to `unknown key weather.base_url`: the key lives under `[weather.open-meteo]`).
@Suite struct ConfigKeyMessageTests {
    /// A key or table a message names.
    struct Named: Hashable, CustomStringConvertible {
        let table: String
        let key: String?
        var description: String { key.map { "[\(table)] \($0)" } ?? "[\(table)]" }
    }

    /// What a message names: `[table] key` (and `[table] key and other`), `key = value under
    /// [table]`, a bare `under [table]`, and the dotted `weather.metno.base_url`.
    static func named(in message: String) -> [Named] {
        var found: [Named] = []
        let tableName = #"([a-z0-9_-]+(?:\.[a-z0-9_-]+)*)"#
        for match in message.matches(of: try! Regex(#"\[\#(tableName)\] ([a-z_]+)(?: and ([a-z_]+))?"#)) {
            let table = String(match.output[1].substring ?? "")
            let before = message[..<match.range.lowerBound]
            if before.hasSuffix("under ") {
                found.append(Named(table: table, key: nil))
                continue
            }
            for index in [2, 3] {
                if let key = match.output[index].substring { found.append(Named(table: table, key: String(key))) }
            }
        }
        for match in message.matches(of: try! Regex(#"([a-z_]+) = \S+ under \[\#(tableName)\]"#)) {
            found.append(Named(table: String(match.output[2].substring ?? ""), key: String(match.output[1].substring ?? "")))
        }
        for match in message.matches(of: try! Regex(#"under \[\#(tableName)\]"#)) {
            found.append(Named(table: String(match.output[1].substring ?? ""), key: nil))
        }
        for match in message.matches(of: try! Regex(#"\b((?:weather|location)(?:\.[a-z0-9-]+)+)\.([a-z_]+)(?![a-z0-9_.-])"#)) {
            found.append(Named(table: String(match.output[1].substring ?? ""), key: String(match.output[2].substring ?? "")))
        }
        return found
    }

    /// Whether the loader knows `named`: loading it gives no unknown-key warning (a value of
    /// the wrong type is fine: the loader then names exactly that key as invalid).
    static func isKnown(_ named: Named) -> Bool {
        let text = "[\(named.table)]\n" + (named.key.map { "\($0) = \"x\"\n" } ?? "")
        do {
            let (_, warnings) = try ConfigurationLoader.parse(text, path: "check.toml")
            return warnings.isEmpty
        } catch ConfigError.invalidValue(_, let key, _, _, _, _) {
            return key == named.key.map { named.table + "." + $0 }
        } catch {
            return false
        }
    }

    static let http = HTTPError.connectionRefused("127.0.0.1")

    /// Every message that may name a config key, for every weather provider and source.
    static var messages: [String] {
        var errors: [any UserFacingError] = []
        for service in WeatherProviderKind.allCases {
            let provider = service
            errors += [
                WeatherError.service(service, .unreachable(http)),
                WeatherError.service(service, .serviceFailed(status: 400, detail: "bad")),
                WeatherError.service(service, .serviceFailed(status: 200, detail: nil)),
                WeatherError.service(service, .undecodable(reason: "it is not JSON")),
                WeatherError.service(service, .insecureBaseURL(key: .baseURL(of: provider))),
                WeatherError.service(service, .missingKey(howToSet: OpenWeatherMapWeatherProvider.howToSetKey)),
                WeatherError.service(service, .missingKey(howToSet: PirateWeatherWeatherProvider.howToSetKey)),
                WeatherError.missingContact(service, howToSet: MetNorwayWeatherProvider.howToSetContact),
                WeatherError.identificationRefused(service, userAgent: "here-weather"),
                WeatherError.planLacksProduct(service, product: "One Call", advice: OneCallWeatherProvider.planAdvice),
            ]
        }
        for service in GeocoderKind.allCases {
            errors += [
                GeocodingError.service(service, .serviceFailed(status: 400, detail: nil)),
                GeocodingError.service(service, .undecodable(reason: "HTML")),
                GeocodingError.service(service, .missingKey(howToSet: OpenWeatherMapWeatherProvider.howToSetKey)),
                GeocodingError.service(service, .keyRejected(status: 401, howToSet: OpenWeatherMapWeatherProvider.howToSetKey)),
            ]
        }
        errors += [
            GeocodingError.service(.openMeteo, .insecureBaseURL(key: .openMeteoGeocodingURL)),
            GeocodingError.service(.openWeatherMap, .insecureBaseURL(key: .baseURL(of: .openWeatherMap))),
            LocationError.noFixedLocation(configPath: "c.toml"),
            LocationError.noSources(configPath: "c.toml"),
            LocationError.noSourcePresent(configPath: "c.toml"),
            LocationError.gpsdNotRunning(address: "127.0.0.1:2947"),
            LocationError.gpsdUnreachable(address: "127.0.0.1:2947", reason: "no route"),
            LocationError.notGPSD(address: "127.0.0.1:2947"),
            LocationError.gpsdSilent(address: "127.0.0.1:2947", seconds: 2),
            LocationError.ipLookupFailed(reasons: []),
            LocationError.ipLookupFailed(reasons: ["ipinfo: refused"]),
            WiFiError.noNetworkManager, WiFiError.noWiFiDevice,
            WiFiError.notInDatabase(host: "beacondb"), WiFiError.serviceFailed(host: "beacondb", reason: "HTTP 500"),
            GeoClueError.notRunning,
            PermissionError.disabledByUser(configPath: "c.toml"),
        ]
        for source in LocationSource.permissionSources {
            errors.append(PermissionError.denied(source, origin: .configFile(path: "c.toml")))
        }
        var messages = errors.map(\.message)
        // Configuration errors that name a URL's key.
        for key in [ConfigKey.wifiBaseURL] + IPService.allCases.map(ConfigKey.baseURL(of:)) {
            do {
                try TransportSecurity.requireSecure("http://remote.example", allowPlainHTTP: false, key: key, configPath: "c.toml")
            } catch {
                messages.append((error as? any UserFacingError)?.message ?? "\(error)")
            }
        }
        // The hints IP and Wi-Fi services add to a refusal.
        let ipinfo = IPServiceEndpoint(.ipinfo, settings: IPServiceSettings(.ipinfo, token: "t0k3n"))
        if case .failure(let failure) = IPLookupResponse.read(HTTPResponse(status: 403, body: Data("{}".utf8)), from: ipinfo) {
            messages.append(failure.reason)
        }
        if case .failure(let failure) = WiFiGeolocateExchange.read(HTTPResponse(status: 403, body: Data("{}".utf8)), host: "beacondb", secrets: []) {
            messages.append(failure.message)
        }
        return messages
    }

    @Test func everyKeyAMessageNamesIsOneTheLoaderReads() {
        let messages = Self.messages
        var checked: Set<Named> = []
        for message in messages {
            for named in Self.named(in: message) where !checked.contains(named) {
                checked.insert(named)
                #expect(Self.isKnown(named), "\(named) is not a config key, in: \(message)")
            }
        }
        // The messages do name keys, per provider: the check above is not vacuous.
        for provider in WeatherProviderKind.allCases {
            #expect(checked.contains(Named(table: "weather." + provider.rawValue, key: "base_url")), "\(provider)")
        }
        #expect(checked.contains(Named(table: "weather", key: "timeout")))
        #expect(checked.contains(Named(table: "weather", key: "provider")))
        #expect(checked.contains(Named(table: "location.gpsd", key: "port")))
        #expect(checked.contains(Named(table: "weather.open-meteo", key: "geocoding_url")))
        #expect(checked.count > 25, "\(checked)")
    }

    @Test func theUnreachableMessageNamesTheProvidersOwnTable() {
        let message = WeatherError.service(.openMeteo, .unreachable(Self.http)).message
        #expect(message.contains("[weather.open-meteo] base_url and [weather] timeout"), "\(message)")
        let metno = WeatherError.service(.metNorway, .undecodable(reason: "x")).message
        #expect(metno.contains("Check [weather.metno] base_url"), "\(metno)")
    }

    @Test func theCheckCatchesAKeyInTheWrongTable() {
        // The old wording: the test's own check must reject it.
        #expect(Self.named(in: "Check the network connection or [weather] base_url and timeout in the config.")
            == [Named(table: "weather", key: "base_url"), Named(table: "weather", key: "timeout")])
        #expect(!Self.isKnown(Named(table: "weather", key: "base_url")))
        #expect(Self.isKnown(Named(table: "weather", key: "timeout")))
        #expect(!Self.isKnown(Named(table: "weather.open-meteoo", key: nil)))
    }
}
