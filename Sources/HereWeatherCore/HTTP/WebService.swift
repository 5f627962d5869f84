/// A web service here-weather asks for the weather or for places, named by its kind: the
/// weather services (`WeatherProviderKind`) and the geocoders `--city` asks (`GeocoderKind`).
/// Errors, messages and config keys come from the kind, never from looking a display name up.
public enum WebService: Sendable, Hashable {
    case weather(WeatherProviderKind)
    case geocoding(GeocoderKind)

    /// The service's name as users know it: "Open-Meteo", "OpenWeatherMap geocoding".
    public var displayName: String {
        switch self {
        case .weather(let kind): return kind.displayName
        case .geocoding(let kind): return kind.displayName
        }
    }

    /// The config key of the URL it is asked at: `[weather.metno] base_url`,
    /// `[weather.open-meteo] geocoding_url`.
    public var urlKey: ConfigKey {
        switch self {
        case .weather(let kind): return ConfigKey.baseURL(of: kind)
        case .geocoding(let kind): return kind.urlKey
        }
    }
}

/// The geocoding services `--city` asks: each weather provider's, or Open-Meteo's for those
/// without one.
public enum GeocoderKind: Sendable, Hashable, CaseIterable {
    case openMeteo
    case openWeatherMap

    /// The service's name in messages and a city's `Location.service`: "Open-Meteo geocoding".
    public var displayName: String {
        switch self {
        case .openMeteo: return "Open-Meteo geocoding"
        case .openWeatherMap: return "OpenWeatherMap geocoding"
        }
    }

    /// The config key of its URL.
    public var urlKey: ConfigKey {
        switch self {
        case .openMeteo: return .openMeteoGeocodingURL
        case .openWeatherMap: return .baseURL(of: .openWeatherMap)
        }
    }
}

/// How a web service failed, in the ways every weather service and geocoder can: the
/// outcomes of `ServiceAnswer`'s one rule, a missing key and a refused plain-http URL.
/// `WeatherError` and `GeocodingError` carry it with the service's kind, and word it here,
/// once, with the advice that fits the service (`message(_:)`).
public enum ServiceFailure: Sendable, Equatable, Error {
    /// No HTTP response at all (DNS, refused, timeout, TLS).
    case unreachable(HTTPError)
    /// The service answered with an error status (200: an error flag in the body). `detail`
    /// is the service's own text, without any secret; the message puts it on one line
    /// (`ServiceText.oneLine`).
    case serviceFailed(status: Int, detail: String?)
    /// HTTP 429.
    case rateLimited(retryAfter: String?)
    /// HTTP 401/403 from a keyed service: the key is wrong, expired or lacks the plan.
    case keyRejected(status: Int, howToSet: String)
    /// A keyed service with no key configured.
    case missingKey(howToSet: String)
    /// The body was not what the service sends (weather data, a list of places).
    case undecodable(reason: String)
    /// A plain-http URL to a remote host without `allow_plain_http`, at config key `key`:
    /// anyone on the path could read or change it.
    case insecureBaseURL(key: ConfigKey)

    /// The one-line message for `service` failing this way: what happened, and what to do.
    public func message(_ service: WebService) -> String {
        let name = service.displayName
        switch self {
        case .unreachable(let error):
            return "Cannot reach \(name): \(error.summary). " + Self.unreachableAdvice(service, error)
        case .serviceFailed(let status, let detail):
            let what = detail.map { ": " + ServiceText.oneLine($0) } ?? ""
            // 200: the body itself reported the error (Open-Meteo's {"error": true}).
            let answered = status == 200 ? "reported an error" : "answered HTTP \(status)"
            return "\(name) \(answered)\(what). " + (status >= 500 ? Self.troubleAdvice(service) : Self.settingsAdvice(service))
        case .rateLimited(let retryAfter):
            let when = retryAfter.flatMap(ServiceText.retryAfter).map { " (retry after " + $0 + ")" } ?? ""
            let advice: String
            switch service {
            case .weather: advice = "Run less often, or try again later."
            case .geocoding: advice = "Try again later, or pass --lat and --lon."
            }
            return "\(name) is rate-limiting requests\(when). \(advice)"
        case .keyRejected(let status, let howToSet):
            return "\(name) rejected the API key (HTTP \(status)). Check the key (\(howToSet)); a new key can take a couple of hours to activate."
        case .missingKey(let howToSet):
            return "\(name) needs an API key: \(howToSet). Or set \(ConfigKey.weatherProvider) = \"open-meteo\", which needs none."
        case .undecodable(let reason):
            switch service {
            case .weather:
                return "\(name) sent a response that is not weather data: \(reason). Check \(service.urlKey), or try again later."
            case .geocoding:
                return "\(name) sent a response that is not a list of places: \(reason). Check \(service.urlKey) in the config, or try again later."
            }
        case .insecureBaseURL(let key):
            return TransportSecurity.refusal(service: service, key: key)
        }
    }

    /// Every one of these failures that the user's settings can fix is a configuration error
    /// (78); the others are the service's (69).
    public var exitStatus: ExitStatus {
        switch self {
        case .keyRejected, .missingKey, .insecureBaseURL: return .configuration
        case .unreachable, .serviceFailed, .rateLimited, .undecodable: return .serviceUnavailable
        }
    }

    /// What to check when `service` cannot be reached at all (`error`).
    static func unreachableAdvice(_ service: WebService, _ error: HTTPError) -> String {
        switch (service, error) {
        case (.weather, .redirected):
            return "If that is the service's new address, set \(service.urlKey) to it; a network with a sign-in page redirects until you sign in."
        case (.weather, .cannotResolveHost):
            // A longer timeout does not help a name nobody can look up.
            return "Check the network connection and its name server (DNS), or the host in \(service.urlKey)."
        case (.weather, _):
            return error.advice ?? "Check the network connection, or \(service.urlKey) and \(ConfigKey.weatherTimeout) in the config."
        case (.geocoding, _):
            return error.advice ?? "Check the network connection, or pass --lat and --lon instead of --city."
        }
    }

    /// What to do when `service` has trouble of its own (5xx).
    static func troubleAdvice(_ service: WebService) -> String {
        switch service {
        case .weather: return "The service is having trouble; try again in a few minutes."
        case .geocoding: return "The service is having trouble; try again in a few minutes, or pass --lat and --lon."
        }
    }

    /// What to check when `service` refused the request (4xx).
    static func settingsAdvice(_ service: WebService) -> String {
        switch service {
        case .weather: return "Check the settings under [\(service.urlKey.table)] in the config."
        case .geocoding: return "Check the city name and \(service.urlKey) in the config."
        }
    }
}
