#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// MET Norway's Locationforecast 2.0, complete product (`/weatherapi/locationforecast/2.0/complete`, for its UV index):
/// keyless and worldwide, on terms that require every request to identify its sender.
///
/// Each request carries `User-Agent: here-weather/<version> <contact>`; without a contact no
/// request is made at all. Coordinates are sent with at most 4 decimals (MET refuses more),
/// and never more than `[privacy] coordinate_decimals`. Given a stored answer with its
/// `Last-Modified`, the request is conditional (`If-Modified-Since`), and a 304 Not Modified
/// comes back as that answer, fresh again for the new `Expires`.
public struct MetNorwayWeatherProvider: WeatherProvider {
    public var kind: WeatherProviderKind { .metNorway }
    public let baseURL: String
    /// The e-mail address or web site MET may reach the user at (`[weather.metno] contact`).
    public let contact: String?
    /// Decimals of the coordinates sent: `[privacy] coordinate_decimals`, at most 4.
    public let coordinateDecimals: Int
    /// Whether a plain-http base URL to a remote host may be used (`allow_plain_http`).
    public let allowPlainHTTP: Bool
    /// The run's clock: "now" for a freshness lifetime from `Expires` without a `Date`.
    public let clock: any RunClock
    /// How long the radar nowcast may take once Locationforecast has answered.
    public let grace: CompanionGrace
    private let http: any HTTPClient

    /// MET's limit on coordinate decimals.
    public static let maxDecimals = 4

    /// Where users set the contact, for error messages.
    public static let howToSetContact =
        "set \(ConfigKey.metNorwayContact) in the config file to an e-mail address or web site where MET Norway can reach you (e.g. contact = \"you@example.org\")"

    public init(baseURL: String, contact: String?, http: any HTTPClient,
                coordinateDecimals: Int = defaultCoordinateDecimals, allowPlainHTTP: Bool = false,
                clock: any RunClock, grace: CompanionGrace? = nil) {
        self.clock = clock
        self.grace = grace ?? CompanionGrace(clock: clock)
        self.allowPlainHTTP = allowPlainHTTP
        self.baseURL = baseURL
        self.contact = ContactRule.contact(contact)
        self.http = http
        self.coordinateDecimals = min(coordinateDecimals, Self.maxDecimals)
    }

    /// `here-weather/<version> <contact>`; `nil` without a contact.
    public var userAgent: String? {
        contact.map { "here-weather/\(HereWeatherVersion.current) \($0)" }
    }

    /// Connects to `baseURL` ahead of the fetch.
    public func preconnect(units: Units, until deadline: ContinuousClock.Instant) {
        http.preconnect(to: baseURL, connections: 1, until: deadline)
    }

    public func checkConfigured() throws {
        try ContactRule.check(contact: contact, howToSet: Self.howToSetContact, baseURL: baseURL,
                              allowPlainHTTP: allowPlainHTTP, kind: kind)
    }

    public func requestURL(for coordinate: Coordinate) -> String {
        let point = coordinate.rounded(toDecimals: coordinateDecimals)
        return URLText.join(baseURL, path: "/weatherapi/locationforecast/2.0/complete", query: [
            ("lat", JSONOutput.format(point.latitude)),
            ("lon", JSONOutput.format(point.longitude)),
        ])
    }

    public func fetch(_ query: WeatherQuery) async throws -> WeatherFetch {
        try await fetch(query, revalidating: nil)
    }

    /// The radar nowcast's URL for `coordinate` (`MetNorwayNowcast`).
    public func nowcastURL(for coordinate: Coordinate) -> String {
        let point = coordinate.rounded(toDecimals: coordinateDecimals)
        return URLText.join(baseURL, path: "/weatherapi/nowcast/2.0/complete", query: [
            ("lat", JSONOutput.format(point.latitude)),
            ("lon", JSONOutput.format(point.longitude)),
        ])
    }

    /// Locationforecast, and at once the radar nowcast for a point inside its area
    /// (`MetNorwayNowcast.covers`). The nowcast is a companion (`CompanionGrace`): when it
    /// fails, has no coverage or is still going when the grace after the forecast is over, the
    /// report has no nowcast, and the recording is the Locationforecast body alone. With a
    /// nowcast the recording is `{"locationforecast": ..., "nowcast": ..., "nowcast_last_modified": ...}`,
    /// and the lifetime the shorter of the two. Both requests are conditional when `stored`
    /// holds their bodies with a `Last-Modified` (MET's terms ask for If-Modified-Since).
    public func fetch(_ query: WeatherQuery, revalidating stored: StoredWeather?) async throws -> WeatherFetch {
        try checkConfigured()
        let userAgent = userAgent ?? ""
        guard MetNorwayNowcast.covers(query.coordinate) else {
            return try await fetchForecast(query, userAgent: userAgent, stored: stored)
        }
        let storedNowcast = stored.flatMap { MetNorwayNowcast.stored(in: $0.recording) }
        let (forecast, fetched) = try await grace.run(.nowcast, deadline: query.deadline) {
            try await fetchForecast(query, userAgent: userAgent, stored: stored)
        } companion: {
            await fetchNowcast(query, userAgent: userAgent, stored: storedNowcast)
        }
        guard let fetched else { return forecast }
        var answer = forecast
        answer.report.nowcast = fetched.nowcast
        answer.recording = MetNorwayNowcast.recording(forecast: answer.recording, nowcast: fetched.stored)
        if let nowcastAge = fetched.maxAge {
            answer.serviceMaxAge = answer.serviceMaxAge.map { min($0, nowcastAge) }
        }
        return answer
    }

    /// A GET of `url` with the identifying User-Agent, conditional (`If-Modified-Since`) when
    /// `lastModified` is given: Locationforecast's and the nowcast's requests alike.
    private func get(_ url: String, userAgent: String, lastModified: String?,
                     deadline: ContinuousClock.Instant) async throws -> HTTPResponse {
        var headers = [(name: "User-Agent", value: userAgent)]
        if let lastModified { headers.append((name: "If-Modified-Since", value: lastModified)) }
        let request = HTTPRequest(url: url, headers: headers, deadline: deadline)
        return try await WeatherServiceResponse.get(request, http: http, service: kind)
    }

    /// Locationforecast's answer; a 304 Not Modified for `stored` is the stored body, fresh again.
    private func fetchForecast(_ query: WeatherQuery, userAgent: String, stored: StoredWeather?) async throws -> WeatherFetch {
        let response = try await get(requestURL(for: query.coordinate), userAgent: userAgent,
                                     lastModified: stored?.lastModified, deadline: query.deadline)
        let maxAge = HTTPFreshness.lifetime(of: response.headers, now: clock.date)
        if response.status == 304, let stored {
            // The stored Locationforecast body: as stored, or taken out of a recording with a nowcast.
            let recorded = try WeatherServiceResponse.recording(stored.recording, service: kind)
            let (forecast, oldNowcast) = MetNorwayNowcast.split(recorded)
            let forecastBody = oldNowcast == nil && recorded["locationforecast"] == nil
                ? stored.recording : Data(JSONOutput(forecast).serialized().utf8)
            return WeatherFetch(report: try MetNorwayDecoder.decode(forecast, units: query.units),
                                recording: forecastBody, serviceMaxAge: maxAge,
                                lastModified: response.headers["last-modified"] ?? stored.lastModified, notModified: true)
        }
        if response.status == 403 {
            throw WeatherError.identificationRefused(kind, userAgent: userAgent)
        }
        let body = try WeatherServiceResponse.json(from: response, service: kind, howToSetKey: nil)
        return WeatherFetch(report: try MetNorwayDecoder.decode(body, units: query.units), recording: response.body,
                            serviceMaxAge: maxAge, lastModified: response.headers["last-modified"])
    }

    /// The nowcast, its body as stored and its lifetime; `nil` for no coverage or any
    /// failure: the nowcast adds to a report, and never fails one. A 304 Not Modified for
    /// `stored` is the stored body.
    private func fetchNowcast(_ query: WeatherQuery, userAgent: String,
                              stored: MetNorwayNowcast.Stored?) async -> (nowcast: Nowcast, stored: MetNorwayNowcast.Stored, maxAge: Double?)? {
        guard let response = try? await get(nowcastURL(for: query.coordinate), userAgent: userAgent,
                                            lastModified: stored?.lastModified, deadline: query.deadline) else { return nil }
        let lastModified = response.headers["last-modified"] ?? stored?.lastModified
        let body: Data
        if response.status == 304, let stored {
            body = stored.body
        } else if (200..<300).contains(response.status) {
            body = response.body
        } else {
            return nil
        }
        guard let json = try? WeatherServiceResponse.recording(body, service: kind),
              let nowcast = MetNorwayNowcast.decode(json) else { return nil }
        return (nowcast, MetNorwayNowcast.Stored(body: body, lastModified: lastModified),
                HTTPFreshness.lifetime(of: response.headers, now: clock.date))
    }

    /// A recording is a Locationforecast body, or `{"locationforecast": ..., "nowcast": ...}`.
    public func report(fromRecording data: Data, units: Units) throws -> WeatherReport {
        let (forecast, nowcast) = MetNorwayNowcast.split(try WeatherServiceResponse.recording(data, service: kind))
        var report = try MetNorwayDecoder.decode(forecast, units: units)
        report.nowcast = nowcast.flatMap(MetNorwayNowcast.decode)
        return report
    }
}
