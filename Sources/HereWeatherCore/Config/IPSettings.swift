/// The IP-geolocation services here-weather knows.
public enum IPService: String, Sendable, CaseIterable {
    /// ipinfo.io: `{base_url}/json`, location as a "lat,lon" string; optional token.
    case ipinfo
    /// ipwho.is: `{base_url}/`, failure as `"success": false` with HTTP 200.
    case ipwhois
    /// ipapi.co: `{base_url}/json/`, failure as `"error": true` with HTTP 200.
    case ipapi
    /// ip-api.com: `{base_url}/json`, free tier over plain HTTP only (needs `allow_plain_http`).
    case ipApiCom = "ip-api"

    /// The default base URL.
    public var defaultBaseURL: String {
        switch self {
        case .ipinfo: return "https://ipinfo.io"
        case .ipwhois: return "https://ipwho.is"
        case .ipapi: return "https://ipapi.co"
        case .ipApiCom: return "http://ip-api.com"
        }
    }
}

/// `[location.ip]`: the services, tried in order until one answers.
public struct IPSettings: Sendable, Equatable {
    public var services: [IPService] = [.ipinfo, .ipwhois, .ipapi]
    /// Per-service settings; a service without an entry uses `IPServiceSettings(service)`.
    public var settings: [IPService: IPServiceSettings] = [:]

    public init() {}

    /// The settings for `service`, defaults filled in.
    public func settings(for service: IPService) -> IPServiceSettings {
        settings[service] ?? IPServiceSettings(service)
    }
}

/// `[location.ip.<service>]`.
public struct IPServiceSettings: Sendable, Equatable {
    public var baseURL: String
    /// ipinfo's optional token; never printed.
    public var token: String?
    /// Whether a plain-http base URL may be used (ip-api.com's free tier); loopback is exempt.
    public var allowPlainHTTP: Bool

    public init(_ service: IPService, baseURL: String? = nil, token: String? = nil, allowPlainHTTP: Bool = false) {
        self.baseURL = baseURL ?? service.defaultBaseURL
        self.token = token
        self.allowPlainHTTP = allowPlainHTTP
    }
}
