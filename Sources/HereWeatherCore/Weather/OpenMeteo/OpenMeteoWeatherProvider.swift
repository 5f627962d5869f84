#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Open-Meteo's forecast API (`/v1/forecast`): keyless, the default provider.
public struct OpenMeteoWeatherProvider: WeatherProvider {
    public var kind: WeatherProviderKind { .openMeteo }
    public let baseURL: String
    /// Decimals of the coordinates sent (`[privacy] coordinate_decimals`).
    public let coordinateDecimals: Int
    /// Whether a plain-http base URL to a remote host may be used (`allow_plain_http`).
    public let allowPlainHTTP: Bool
    /// The run's clock: "now" for a freshness lifetime from `Expires` without a `Date`.
    public let clock: any RunClock
    private let http: any HTTPClient

    static let currentVariables = [
        "temperature_2m", "relative_humidity_2m", "apparent_temperature", "is_day", "precipitation",
        "rain", "showers", "snowfall", "weather_code", "cloud_cover", "pressure_msl",
        "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m", "visibility", "uv_index",
    ]
    static let hourlyVariables = [
        "temperature_2m", "apparent_temperature", "precipitation_probability", "precipitation",
        "weather_code", "wind_speed_10m", "wind_direction_10m", "is_day", "uv_index",
    ]
    /// The nowcast (`Nowcast`): precipitation in 15-minute steps. Each value is the 15 minutes
    /// before its time, so 9 of them reach two hours past the current quarter-hour.
    static let minutelyVariables = ["precipitation", "rain", "snowfall", "weather_code"]
    static let minutelySteps = 9
    static let dailyVariables = [
        "weather_code", "temperature_2m_max", "temperature_2m_min", "precipitation_sum",
        "precipitation_probability_max", "wind_speed_10m_max", "sunrise", "sunset", "uv_index_max",
    ]

    public init(baseURL: String, http: any HTTPClient, coordinateDecimals: Int = defaultCoordinateDecimals,
                allowPlainHTTP: Bool = false, clock: any RunClock) {
        self.clock = clock
        self.baseURL = baseURL
        self.http = http
        self.coordinateDecimals = coordinateDecimals
        self.allowPlainHTTP = allowPlainHTTP
    }

    /// Connects to `baseURL` ahead of the fetch: its one request.
    public func preconnect(units: Units, until deadline: ContinuousClock.Instant) {
        http.preconnect(to: baseURL, connections: 1, until: deadline)
    }

    public func checkConfigured() throws {
        try WeatherServiceResponse.requireSecure(baseURL, allowPlainHTTP: allowPlainHTTP, service: kind,
                                                 key: .baseURL(of: .openMeteo))
    }

    /// The request URL for `coordinate` in `units` (coordinates rounded to 2 decimals).
    public func requestURL(for coordinate: Coordinate, units: Units) -> String {
        let point = coordinate.rounded(toDecimals: coordinateDecimals)
        var parameters = [
            ("latitude", JSONOutput.format(point.latitude)),
            ("longitude", JSONOutput.format(point.longitude)),
            ("current", Self.currentVariables.joined(separator: ",")),
            ("hourly", Self.hourlyVariables.joined(separator: ",")),
            ("daily", Self.dailyVariables.joined(separator: ",")),
            ("minutely_15", Self.minutelyVariables.joined(separator: ",")),
            ("timezone", "auto"),
            ("forecast_days", "7"),
            ("forecast_minutely_15", String(Self.minutelySteps)),
        ]
        switch units {
        case .metric, .standard:  // Open-Meteo has no Kelvin: °C is converted on decoding.
            parameters.append(("wind_speed_unit", "ms"))
        case .imperial:
            parameters += [("temperature_unit", "fahrenheit"), ("wind_speed_unit", "mph"), ("precipitation_unit", "inch")]
        }
        return URLText.join(baseURL, path: "/v1/forecast", query: parameters)
    }

    public func fetch(_ query: WeatherQuery) async throws -> WeatherFetch {
        try checkConfigured()
        let request = HTTPRequest(url: requestURL(for: query.coordinate, units: query.units), deadline: query.deadline)
        let response = try await WeatherServiceResponse.get(request, http: http, service: kind)
        let body = try WeatherServiceResponse.json(from: response, service: kind, howToSetKey: nil)
        return WeatherFetch(report: try OpenMeteoDecoder.decode(body, units: query.units), recording: response.body,
                            serviceMaxAge: HTTPFreshness.lifetime(of: response.headers, now: clock.date))
    }

    public func report(fromRecording data: Data, units: Units) throws -> WeatherReport {
        try OpenMeteoDecoder.decode(WeatherServiceResponse.recording(data, service: kind), units: units)
    }
}
