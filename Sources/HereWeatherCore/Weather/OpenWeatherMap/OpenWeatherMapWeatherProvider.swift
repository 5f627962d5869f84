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
    private let apiKey: String?
    private let http: any HTTPClient

    /// Where users set the key, for error messages.
    public static let howToSetKey =
        "set api_key under [weather.openweathermap] in the config file, or the OPENWEATHERMAP_API_KEY environment variable"

    public init(baseURL: String, apiKey: String?, http: any HTTPClient,
                coordinateDecimals: Int = defaultCoordinateDecimals) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.http = http
        self.coordinateDecimals = coordinateDecimals
    }

    /// The URL of `endpoint` ("weather" or "forecast") for `coordinate`, with the key.
    public func requestURL(_ endpoint: String, for coordinate: Coordinate, units: Units, key: String) -> String {
        let point = coordinate.rounded(toDecimals: coordinateDecimals)
        return URLText.join(baseURL, path: "/data/2.5/\(endpoint)", query: [
            ("lat", JSONOutput.format(point.latitude)),
            ("lon", JSONOutput.format(point.longitude)),
            ("units", units.rawValue),
            ("appid", key),
        ])
    }

    public func report(for query: WeatherQuery) async throws -> WeatherReport {
        guard let key = apiKey, !key.isEmpty else {
            throw WeatherError.missingKey(service: kind.displayName, howToSet: Self.howToSetKey)
        }
        async let current = fetch("weather", query: query, key: key)
        async let forecast = fetch("forecast", query: query, key: key)
        return try OpenWeatherMapDecoder.decode(current: try await current, forecast: try await forecast, units: query.units)
    }

    private func fetch(_ endpoint: String, query: WeatherQuery, key: String) async throws -> JSONValue {
        let request = HTTPRequest(url: requestURL(endpoint, for: query.coordinate, units: query.units, key: key),
                                  deadline: query.deadline)
        let response: HTTPResponse
        do {
            response = try await http.get(request)
        } catch let error as HTTPError {
            throw WeatherError.unreachable(service: kind.displayName, error)
        }
        return try WeatherServiceResponse.json(from: response, service: kind.displayName,
                                               howToSetKey: Self.howToSetKey, secrets: [key])
    }

    /// A recording is a `/data/2.5/weather` body, or an object holding both bodies:
    /// `{"weather": {...}, "forecast": {...}}`.
    public func report(fromRecording data: Data, units: Units) throws -> WeatherReport {
        let body = try WeatherServiceResponse.json(from: HTTPResponse(status: 200, body: data),
                                                   service: kind.displayName, howToSetKey: nil)
        if let current = body["weather"], current.isObject {
            return try OpenWeatherMapDecoder.decode(current: current, forecast: body["forecast"], units: units)
        }
        return try OpenWeatherMapDecoder.decode(current: body, forecast: nil, units: units)
    }
}
