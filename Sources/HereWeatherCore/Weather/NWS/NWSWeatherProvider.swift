#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The US National Weather Service (api.weather.gov): keyless, US points only, on terms that
/// require every request to identify its sender (`User-Agent: here-weather/<version>
/// (<contact>)`; without a contact no request is made).
///
/// A run asks `/points/{lat},{lon}` (at most 4 decimals, remembered per rounded point in
/// `NWSPointsMemory`: the grid does not move), then follows the URLs it names: the hourly
/// and the 12-hour forecasts, the point's observation stations and the first one's latest
/// observation (used for the current conditions when under 2 hours old; otherwise the
/// forecast for the current hour is, and the report says which), and the active alerts (a
/// companion: `CompanionGrace`).
/// A server error is retried once inside the deadline (`NWSExchange`). The recording is
/// `{"fetched_at", "points", "forecast_hourly", "forecast", "observation", "alerts"}`
/// (`NWSDecoder`).
public struct NWSWeatherProvider: WeatherProvider {
    public var kind: WeatherProviderKind { .nws }
    public let baseURL: String
    /// The e-mail address or web site the NWS may reach the user at (`[weather.nws] contact`).
    public let contact: String?
    /// Decimals of the coordinates sent: `[privacy] coordinate_decimals`, at most 4.
    public let coordinateDecimals: Int
    /// Whether a plain-http base URL to a remote host may be used (`allow_plain_http`).
    public let allowPlainHTTP: Bool
    /// Where points answers are remembered; `nil` remembers nothing.
    public let memory: NWSPointsMemory?
    let exchange: NWSExchange
    /// The run's clock: an observation's age is measured on its date, and a retry pauses on it.
    let clock: any RunClock
    /// How long the alerts may take once the forecasts and the observation have answered.
    public let grace: CompanionGrace

    public static let defaultBaseURL = "https://api.weather.gov"
    /// The NWS's limit on coordinate decimals.
    public static let maxDecimals = 4
    /// An observation older than this (seconds) is not shown as the current conditions.
    public static let maxObservationAge: Double = 7200

    /// Where users set the contact, for error messages.
    public static let howToSetContact =
        "set \(ConfigKey.nwsContact) in the config file to an e-mail address or web site where the NWS can reach you (e.g. contact = \"you@example.org\")"

    public init(baseURL: String, contact: String?, http: any HTTPClient,
                coordinateDecimals: Int = defaultCoordinateDecimals, allowPlainHTTP: Bool = false,
                memory: NWSPointsMemory? = nil, pause: (@Sendable (Duration) async throws -> Void)? = nil,
                clock: any RunClock = ContinuousClock(), grace: CompanionGrace? = nil) {
        self.baseURL = baseURL
        self.contact = ContactRule.contact(contact)
        self.coordinateDecimals = min(coordinateDecimals, Self.maxDecimals)
        self.allowPlainHTTP = allowPlainHTTP
        self.memory = memory
        self.clock = clock
        self.grace = grace ?? CompanionGrace(clock: clock)
        exchange = NWSExchange(baseURL: baseURL, userAgent: Self.userAgent(contact: self.contact), http: http,
                               pause: pause ?? { try await clock.sleep(for: $0) })
    }

    /// `here-weather/<version> (<contact>)`, or without the contact when there is none (the
    /// alerts that other providers' reports get).
    public static func userAgent(contact: String?) -> String {
        "here-weather/\(HereWeatherVersion.current)" + (contact.map { " (\($0))" } ?? "")
    }

    public var userAgent: String { exchange.userAgent }

    /// Connects to `baseURL` ahead of the fetch: the points request and the ones it leads to, one after another on one connection.
    public func preconnect(units: Units, until deadline: ContinuousClock.Instant) {
        exchange.http.preconnect(to: baseURL, connections: 1, until: deadline)
    }

    public func checkConfigured() throws {
        try ContactRule.check(contact: contact, howToSet: Self.howToSetContact, baseURL: baseURL,
                              allowPlainHTTP: allowPlainHTTP, kind: kind)
    }

    public func pointsURL(for coordinate: Coordinate) -> String {
        let point = coordinate.rounded(toDecimals: coordinateDecimals)
        return URLText.join(baseURL, path: "/points/" + JSONOutput.format(point.latitude) + "," + JSONOutput.format(point.longitude),
                            query: [])
    }

    public func fetch(_ query: WeatherQuery) async throws -> WeatherFetch {
        try checkConfigured()
        let point = query.coordinate.rounded(toDecimals: coordinateDecimals)
        var (pointsBody, points, remembered) = try await self.points(point, deadline: query.deadline)
        var forecasts: Forecasts
        do {
            forecasts = try await self.forecasts(points, deadline: query.deadline)
        } catch WeatherError.serviceFailed(_, let status, _) where status == 404 && remembered {
            // The remembered grid is gone: ask the point again, once.
            memory?.forget(point)
            (pointsBody, points, remembered) = try await self.points(point, deadline: query.deadline, remembering: false)
            forecasts = try await self.forecasts(points, deadline: query.deadline)
        }
        let alertsFetcher = NWSAlertsFetcher(exchange: exchange, coordinateDecimals: coordinateDecimals)
        let (observation, alerts) = try await grace.run(.alerts, deadline: query.deadline) { [points] in
            try await latestObservation(points, deadline: query.deadline)
        } companion: { () async throws -> Data? in
            // The grid may reach over a border: only points in the US are asked about (`USRegion`).
            guard USRegion.contains(query.coordinate) else { return nil }
            return try await alertsFetcher.body(for: query.coordinate, deadline: query.deadline)
        }
        let recording = Self.recording(fetchedAt: clock.date, points: pointsBody, hourly: forecasts.hourly.body,
                                       forecast: forecasts.daily.body, observation: observation, alerts: alerts)
        let report = try NWSDecoder.decode(recording: try WeatherServiceResponse.recording(recording, service: kind.displayName),
                                           units: query.units)
        // Remembered only once it led to a report: a points answer that leads nowhere is not kept.
        if !remembered { memory?.store(pointsBody, for: point) }
        var maxAge: Double?
        if let first = HTTPFreshness.lifetime(of: forecasts.hourly.headers),
           let second = HTTPFreshness.lifetime(of: forecasts.daily.headers) {
            maxAge = min(first, second)
        }
        return WeatherFetch(report: report, recording: recording, serviceMaxAge: maxAge)
    }

    public func report(fromRecording data: Data, units: Units) throws -> WeatherReport {
        try NWSDecoder.decode(recording: try WeatherServiceResponse.recording(data, service: kind.displayName), units: units)
    }

    /// The points answer for `point`: remembered, else asked.
    func points(_ point: Coordinate, deadline: ContinuousClock.Instant,
                remembering: Bool = true) async throws -> (body: Data, points: NWSPoints, remembered: Bool) {
        if remembering, let memory, let body = memory.load(point), let points = NWSPoints(body.value) {
            return (body.data, points, true)
        }
        let (body, response) = try await exchange.json(pointsURL(for: point), deadline: deadline)
        guard let points = NWSPoints(body) else {
            throw WeatherError.undecodable(service: kind.displayName,
                                           reason: "its points answer has no \"properties.forecast\" and \"forecastHourly\" URLs")
        }
        return (response.body, points, false)
    }

    struct Forecasts {
        var hourly: HTTPResponse
        var daily: HTTPResponse
    }

    /// The hourly and the 12-hour forecasts, asked at once.
    func forecasts(_ points: NWSPoints, deadline: ContinuousClock.Instant) async throws -> Forecasts {
        guard let hourlyURL = exchange.onBaseURL(points.forecastHourly), let dailyURL = exchange.onBaseURL(points.forecast) else {
            throw WeatherError.undecodable(service: kind.displayName, reason: "its points answer has forecast URLs without a path")
        }
        async let hourly = exchange.json(hourlyURL, deadline: deadline)
        async let daily = exchange.json(dailyURL, deadline: deadline)
        return Forecasts(hourly: (try await hourly).1, daily: (try await daily).1)
    }

    /// The first station's latest observation when it is under `maxObservationAge` old;
    /// `nil` when there is none, it is too old, or any step fails (the forecast stands in).
    func latestObservation(_ points: NWSPoints, deadline: ContinuousClock.Instant) async throws -> Data? {
        do {
            guard let stationsURL = points.observationStations.flatMap(exchange.onBaseURL) else { return nil }
            let (stations, _) = try await exchange.json(stationsURL, deadline: deadline)
            let first = stations["features"]?[0]
            let station = first?["id"]?.string.flatMap(exchange.onBaseURL)
                ?? first?["properties"]?["stationIdentifier"]?.string.map { URLText.join(baseURL, path: "/stations/" + URLText.encode($0), query: []) }
            guard let station else { return nil }
            let (observation, response) = try await exchange.json(station + "/observations/latest", deadline: deadline)
            guard let time = NWSTime.date(observation["properties"]?["timestamp"]) else { return nil }
            let age = clock.date.timeIntervalSince(time)
            guard age < Self.maxObservationAge, age > -600 else { return nil }
            return response.body
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return nil
        }
    }

    /// The bodies in one object, with the time they were had (`fetched_at`, UTC: the time
    /// the report is read at); each was parsed as JSON, so joining their bytes is JSON.
    static func recording(fetchedAt: Date, points: Data, hourly: Data, forecast: Data, observation: Data?, alerts: Data?) -> Data {
        Data(#"{"fetched_at":"#.utf8) + Data(JSONOutput.string(LocalTime.iso8601(fetchedAt, utcOffset: 0)).serialized().utf8)
            + Data(#","points":"#.utf8) + points + Data(#","forecast_hourly":"#.utf8) + hourly
            + Data(#","forecast":"#.utf8) + forecast + Data(#","observation":"#.utf8) + (observation ?? Data("null".utf8))
            + Data(#","alerts":"#.utf8) + (alerts ?? Data("null".utf8)) + Data("}".utf8)
    }
}
