#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A Dark Sky format forecast API: Pirate Weather by default (`/forecast/<key>/<lat>,<lon>`),
/// or any service at `base_url` that speaks the same format. Needs an API key.
///
/// The key travels in the URL path, so every error and `--verbose` line redacts it.
public struct PirateWeatherWeatherProvider: WeatherProvider {
    public var kind: WeatherProviderKind { .pirateWeather }
    public let baseURL: String
    /// Decimals of the coordinates sent (`[privacy] coordinate_decimals`).
    public let coordinateDecimals: Int
    /// Whether a plain-http base URL to a remote host may be used (`allow_plain_http`).
    public let allowPlainHTTP: Bool
    /// The run's clock: "now" for a freshness lifetime from `Expires` without a `Date`.
    public let clock: any RunClock
    private let apiKey: String?
    private let http: any HTTPClient

    public static let defaultBaseURL = "https://api.pirateweather.net"

    /// Where users set the key, for error messages.
    public static let howToSetKey =
        "set \(ConfigKey.apiKey(of: .pirateWeather)) in the config file, or the PIRATEWEATHER_API_KEY environment variable"

    public init(baseURL: String, apiKey: String?, http: any HTTPClient,
                coordinateDecimals: Int = defaultCoordinateDecimals, allowPlainHTTP: Bool = false, clock: any RunClock) {
        self.clock = clock
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.http = http
        self.coordinateDecimals = coordinateDecimals
        self.allowPlainHTTP = allowPlainHTTP
    }

    /// The forecast URL for `coordinate`, with the key in its path; `lang` for a language other
    /// than English.
    public func requestURL(for coordinate: Coordinate, units: Units, key: String, language: String = "en") -> String {
        let point = coordinate.rounded(toDecimals: coordinateDecimals)
        let place = JSONOutput.format(point.latitude) + "," + JSONOutput.format(point.longitude)
        let lang = ServiceLanguage.pirateWeather(language).map { [("lang", $0)] } ?? []
        // The `minutely` block is the nowcast (`Nowcast`): not excluded.
        return URLText.join(baseURL, path: "/forecast/\(URLText.encode(key))/\(place)", query: [
            ("units", DarkSkyDecoder.requestUnits(units)),
        ] + lang)
    }

    /// Connects to `baseURL` ahead of the fetch.
    public func preconnect(units: Units, until deadline: ContinuousClock.Instant) {
        http.preconnect(to: baseURL, connections: 1, until: deadline)
    }

    public func checkConfigured() throws {
        guard let key = apiKey, !key.isEmpty else {
            throw WeatherError.service(kind, .missingKey(howToSet: Self.howToSetKey))
        }
        try WeatherServiceResponse.requireSecure(baseURL, allowPlainHTTP: allowPlainHTTP, service: kind,
                                                 key: .baseURL(of: .pirateWeather))
    }

    public func fetch(_ query: WeatherQuery) async throws -> WeatherFetch {
        try checkConfigured()
        let key = apiKey ?? ""
        let request = HTTPRequest(url: requestURL(for: query.coordinate, units: query.units, key: key,
                                                  language: query.language),
                                  deadline: query.deadline)
        let response = try await WeatherServiceResponse.get(request, http: http, service: kind)
        let body = try WeatherServiceResponse.json(from: response, service: kind,
                                                   howToSetKey: Self.howToSetKey, secrets: [key, URLText.encode(key)])
        return WeatherFetch(report: try DarkSkyDecoder.decode(body, units: query.units), recording: response.body,
                            serviceMaxAge: HTTPFreshness.lifetime(of: response.headers, now: clock.date))
    }

    public func report(fromRecording data: Data, units: Units) throws -> WeatherReport {
        let body = try WeatherServiceResponse.recording(data, service: kind)
        return try DarkSkyDecoder.decode(body, units: units)
    }
}
