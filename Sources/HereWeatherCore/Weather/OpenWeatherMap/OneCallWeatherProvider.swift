#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// OpenWeatherMap's One Call API 3.0 (`/data/3.0/onecall`): current weather, 48 hours,
/// 8 days and government alerts in one request, for keys subscribed to "One Call by Call"
/// (`[weather.openweathermap] api = "onecall"`).
public struct OneCallWeatherProvider: WeatherProvider {
    public var kind: WeatherProviderKind { .openWeatherMap }
    public let baseURL: String
    /// Decimals of the coordinates sent (`[privacy] coordinate_decimals`).
    public let coordinateDecimals: Int
    /// Whether a plain-http base URL to a remote host may be used (`allow_plain_http`).
    public let allowPlainHTTP: Bool
    /// The run's clock: "now" for a freshness lifetime from `Expires` without a `Date`.
    public let clock: any RunClock
    private let apiKey: String?
    private let http: any HTTPClient

    /// What to do when the key's plan has no One Call 3.0, for the 401 message.
    public static let planAdvice =
        "Subscribe the key to \"One Call by Call\" on openweathermap.org, or set \(ConfigKey.openWeatherMapAPI) = \"classic\" to use the current weather and 5-day forecast endpoints, which every key has."

    public init(baseURL: String, apiKey: String?, http: any HTTPClient,
                coordinateDecimals: Int = defaultCoordinateDecimals, allowPlainHTTP: Bool = false, clock: any RunClock) {
        self.clock = clock
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.http = http
        self.coordinateDecimals = coordinateDecimals
        self.allowPlainHTTP = allowPlainHTTP
    }

    /// The URL for `coordinate`, with the key; `lang` for a language other than English.
    public func requestURL(for coordinate: Coordinate, units: Units, key: String, language: String = "en") -> String {
        let point = coordinate.rounded(toDecimals: coordinateDecimals)
        let lang = ServiceLanguage.openWeatherMap(language).map { [("lang", $0)] } ?? []
        return URLText.join(baseURL, path: "/data/3.0/onecall", query: [
            ("lat", JSONOutput.format(point.latitude)),
            ("lon", JSONOutput.format(point.longitude)),
            ("units", units.rawValue),
            ("exclude", "minutely"),
        ] + lang + [("appid", key)])
    }

    /// Connects to `baseURL` ahead of the fetch.
    public func preconnect(units: Units, until deadline: ContinuousClock.Instant) {
        http.preconnect(to: baseURL, connections: 1, until: deadline)
    }

    public func checkConfigured() throws {
        guard let key = apiKey, !key.isEmpty else {
            throw WeatherError.service(kind, .missingKey(howToSet: OpenWeatherMapWeatherProvider.howToSetKey))
        }
        try WeatherServiceResponse.requireSecure(baseURL, allowPlainHTTP: allowPlainHTTP, service: kind,
                                                 key: .baseURL(of: .openWeatherMap))
    }

    public func fetch(_ query: WeatherQuery) async throws -> WeatherFetch {
        try checkConfigured()
        let key = apiKey ?? ""
        let request = HTTPRequest(url: requestURL(for: query.coordinate, units: query.units, key: key,
                                                  language: query.language),
                                  deadline: query.deadline)
        let response = try await WeatherServiceResponse.get(request, http: http, service: kind)
        if response.status == 401 {
            throw WeatherError.planLacksProduct(kind, product: "One Call API 3.0", advice: Self.planAdvice)
        }
        let body = try WeatherServiceResponse.json(from: response, service: kind,
                                                   howToSetKey: OpenWeatherMapWeatherProvider.howToSetKey, secrets: [key])
        return WeatherFetch(report: try OneCallDecoder.decode(body, units: query.units), recording: response.body,
                            serviceMaxAge: HTTPFreshness.lifetime(of: response.headers, now: clock.date))
    }

    /// Reads One Call recordings, and the classic endpoints' too (a cache entry from before
    /// `api` was changed).
    public func report(fromRecording data: Data, units: Units) throws -> WeatherReport {
        let body = try WeatherServiceResponse.recording(data, service: kind)
        return try OpenWeatherMapDecoder.decode(recording: body, units: units)
    }
}
