/// `[location.wifi]`: where Wi-Fi positioning asks, with what key.
public struct WiFiSettings: Sendable, Equatable {
    /// BeaconDB: volunteer-run, no key, Ichnaea's API.
    public static let defaultBaseURL = "https://api.beacondb.net/v1/geolocate"

    /// The full endpoint URL of an Ichnaea/Google geolocate API.
    public var baseURL = WiFiSettings.defaultBaseURL
    /// A key for services that need one (Google's); sent as `?key=`, never printed.
    public var key: String?
    /// Whether a plain-http URL to a remote host may be used.
    public var allowPlainHTTP = false
    /// How long a neighbourhood's answer is remembered, in days (`remember_days`): access
    /// points do not move, so the same ones answer from memory without a request. 0: never.
    public var rememberDays = WiFiSettings.defaultRememberDays
    public static let defaultRememberDays = 7.0
    public static let rememberDaysRange = 0.0...365.0

    public init(baseURL: String = WiFiSettings.defaultBaseURL, key: String? = nil, allowPlainHTTP: Bool = false) {
        self.baseURL = baseURL
        self.key = key
        self.allowPlainHTTP = allowPlainHTTP
    }

    /// The config key of the URL, for messages.
    static let baseURLKey = ConfigKey.wifiBaseURL

    /// The endpoint's host, for messages and `Location.service` ("api.beacondb.net").
    public var host: String {
        let host = ServiceURL(baseURL).host
        return host.isEmpty ? "the Wi-Fi positioning service" : host
    }

    /// The request URL: `base_url`, with `key=` added to its query when a key is set.
    var requestURL: String {
        guard let key, !key.isEmpty else { return baseURL }
        return baseURL + (baseURL.contains("?") ? "&" : "?") + "key=" + URLText.encode(key)
    }

    /// Throws a `ConfigError` when the URL is not https (or permitted plain http). Makes no request.
    func validate(configPath: String) throws {
        try TransportSecurity.requireSecure(baseURL, allowPlainHTTP: allowPlainHTTP, key: Self.baseURLKey, configPath: configPath)
    }
}
