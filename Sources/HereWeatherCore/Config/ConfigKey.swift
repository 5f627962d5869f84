/// A key of the config file, named as it must be written: `base_url` under
/// `[weather.open-meteo]`.
///
/// Every message that tells the user to set or check a key names it through this type, so
/// the table it names is the one the loader reads the key from, for the provider or source in
/// use (ConfigKeyMessageTests loads every key the messages name and finds none unknown).
public struct ConfigKey: Sendable, Hashable, CustomStringConvertible {
    /// The table, dotted: `weather.open-meteo`.
    public let table: String
    /// The key inside it: `base_url`.
    public let name: String

    init(_ table: String, _ name: String) {
        self.table = table
        self.name = name
    }

    /// `[weather.open-meteo] base_url`: the header to write it under, then the key.
    public var description: String { "[\(table)] \(name)" }

    /// `weather.open-meteo.base_url`, as unknown-key warnings and invalid-value errors name it.
    public var dotted: String { table + "." + name }

    /// `[location.gpsd] host and port`: two keys of one table.
    public static func both(_ first: ConfigKey, _ second: ConfigKey) -> String {
        "[\(first.table)] \(first.name) and \(second.name)"
    }

    /// The key in the same table that allows a plain-http URL.
    public var allowPlainHTTP: ConfigKey { ConfigKey(table, "allow_plain_http") }

    // MARK: [location]

    public static let locationEnabled = ConfigKey("location", "enabled")
    public static let locationSources = ConfigKey("location", "sources")

    /// `[location.<source>] permission`.
    public static func permission(of source: LocationSource) -> ConfigKey {
        ConfigKey("location." + source.rawValue, "permission")
    }

    public static let fixedLatitude = ConfigKey("location.fixed", "latitude")
    public static let fixedLongitude = ConfigKey("location.fixed", "longitude")
    public static let gpsdHost = ConfigKey("location.gpsd", "host")
    public static let gpsdPort = ConfigKey("location.gpsd", "port")
    public static let nmeaPath = ConfigKey("location.nmea", "path")
    public static let wifiBaseURL = ConfigKey("location.wifi", "base_url")
    public static let wifiKey = ConfigKey("location.wifi", "key")
    public static let ipServices = ConfigKey("location.ip", "services")

    /// `[location.ip.<service>] base_url`.
    public static func baseURL(of service: IPService) -> ConfigKey {
        ConfigKey("location.ip." + service.rawValue, "base_url")
    }

    /// ipinfo.io's token: `[location.ip.ipinfo] token` (the one IP service that takes one).
    public static let ipinfoToken = ConfigKey("location.ip." + IPService.ipinfo.rawValue, "token")

    // MARK: [weather]

    public static let weatherProvider = ConfigKey("weather", "provider")
    public static let weatherTimeout = ConfigKey("weather", "timeout")

    /// `[weather.<provider>] base_url`.
    public static func baseURL(of provider: WeatherProviderKind) -> ConfigKey {
        ConfigKey("weather." + provider.rawValue, "base_url")
    }

    /// `[weather.<provider>] api_key` (OpenWeatherMap, Pirate Weather).
    public static func apiKey(of provider: WeatherProviderKind) -> ConfigKey {
        ConfigKey("weather." + provider.rawValue, "api_key")
    }

    public static let metNorwayContact = ConfigKey("weather." + WeatherProviderKind.metNorway.rawValue, "contact")
    public static let nwsContact = ConfigKey("weather." + WeatherProviderKind.nws.rawValue, "contact")
    /// `[alerts] nws`: the NWS's official alerts for US points with other providers.
    public static let alertsNWS = ConfigKey("alerts", "nws")
    /// `[air_quality] base_url`: Open-Meteo's Air Quality API.
    public static let airQualityBaseURL = ConfigKey("air_quality", "base_url")
    public static let openWeatherMapAPI = ConfigKey("weather." + WeatherProviderKind.openWeatherMap.rawValue, "api")
    /// Open-Meteo's geocoding service (`--city`).
    public static let openMeteoGeocodingURL = ConfigKey("weather." + WeatherProviderKind.openMeteo.rawValue, "geocoding_url")
}
