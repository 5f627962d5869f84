#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// OpenWeatherMap's current weather (`/data/2.5/weather`) and 5 day / 3 hour forecast
/// (`/data/2.5/forecast`): the endpoints the original iOS apps used. Needs an API key.
public struct OpenWeatherMapWeatherProvider: WeatherProvider {
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

    /// Where users set the key, for error messages.
    public static let howToSetKey =
        "set \(ConfigKey.apiKey(of: .openWeatherMap)) in the config file, or the OPENWEATHERMAP_API_KEY environment variable"

    public init(baseURL: String, apiKey: String?, http: any HTTPClient,
                coordinateDecimals: Int = defaultCoordinateDecimals, allowPlainHTTP: Bool = false, clock: any RunClock) {
        self.clock = clock
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.http = http
        self.coordinateDecimals = coordinateDecimals
        self.allowPlainHTTP = allowPlainHTTP
    }

    /// Connects to `baseURL` ahead of the fetch: both endpoints, asked at once, one connection each.
    public func preconnect(units: Units, until deadline: ContinuousClock.Instant) {
        http.preconnect(to: baseURL, connections: 2, until: deadline)
    }

    public func checkConfigured() throws {
        guard let key = apiKey, !key.isEmpty else {
            throw WeatherError.service(kind, .missingKey(howToSet: Self.howToSetKey))
        }
        try WeatherServiceResponse.requireSecure(baseURL, allowPlainHTTP: allowPlainHTTP, service: kind,
                                                 key: .baseURL(of: .openWeatherMap))
    }

    /// The URL of `endpoint` ("weather" or "forecast") for `coordinate`, with the key; `lang`
    /// for a language other than English.
    public func requestURL(_ endpoint: String, for coordinate: Coordinate, units: Units, key: String,
                           language: String = "en") -> String {
        let point = coordinate.rounded(toDecimals: coordinateDecimals)
        let lang = ServiceLanguage.openWeatherMap(language).map { [("lang", $0)] } ?? []
        return URLText.join(baseURL, path: "/data/2.5/\(endpoint)", query: [
            ("lat", JSONOutput.format(point.latitude)),
            ("lon", JSONOutput.format(point.longitude)),
            ("units", units.rawValue),
        ] + lang + [("appid", key)])
    }

    /// Both endpoints at once; the recording is the combined `{"weather": ..., "forecast": ...}`
    /// shape, and the service's freshness lifetime the shorter of the two (none if either lacks one).
    public func fetch(_ query: WeatherQuery) async throws -> WeatherFetch {
        try checkConfigured()
        let key = apiKey ?? ""
        async let current = fetch("weather", query: query, key: key)
        async let forecast = fetch("forecast", query: query, key: key)
        let (currentBody, currentResponse) = try await current
        let (forecastBody, forecastResponse) = try await forecast
        let report = try OpenWeatherMapDecoder.decode(current: currentBody, forecast: forecastBody, units: query.units)
        // Both bodies parsed as JSON, so joining their bytes gives valid JSON without re-encoding.
        let recording = Data(#"{"weather":"#.utf8) + currentResponse.body + Data(#","forecast":"#.utf8)
            + forecastResponse.body + Data("}".utf8)
        var maxAge: Double?
        if let first = HTTPFreshness.lifetime(of: currentResponse.headers, now: clock.date),
           let second = HTTPFreshness.lifetime(of: forecastResponse.headers, now: clock.date) {
            maxAge = min(first, second)
        }
        return WeatherFetch(report: report, recording: recording, serviceMaxAge: maxAge)
    }

    private func fetch(_ endpoint: String, query: WeatherQuery, key: String) async throws -> (JSONValue, HTTPResponse) {
        let request = HTTPRequest(url: requestURL(endpoint, for: query.coordinate, units: query.units, key: key,
                                                  language: query.language),
                                  deadline: query.deadline)
        let response = try await WeatherServiceResponse.get(request, http: http, service: kind)
        let body = try WeatherServiceResponse.json(from: response, service: kind,
                                                   howToSetKey: Self.howToSetKey, secrets: [key])
        return (body, response)
    }

    /// A recording is a `/data/2.5/weather` body, or an object holding both bodies:
    /// `{"weather": {...}, "forecast": {...}}`.
    public func report(fromRecording data: Data, units: Units) throws -> WeatherReport {
        let body = try WeatherServiceResponse.recording(data, service: kind)
        return try OpenWeatherMapDecoder.decode(recording: body, units: units)
    }
}
