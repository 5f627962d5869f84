#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// MET Norway's Locationforecast 2.0, compact product (`/weatherapi/locationforecast/2.0/compact`):
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
    private let http: any HTTPClient

    /// MET's limit on coordinate decimals.
    public static let maxDecimals = 4

    /// Where users set the contact, for error messages.
    public static let howToSetContact =
        "set \(ConfigKey.metNorwayContact) in the config file to an e-mail address or web site where MET Norway can reach you (e.g. contact = \"you@example.org\")"

    public init(baseURL: String, contact: String?, http: any HTTPClient,
                coordinateDecimals: Int = defaultCoordinateDecimals, allowPlainHTTP: Bool = false) {
        self.allowPlainHTTP = allowPlainHTTP
        self.baseURL = baseURL
        self.contact = contact.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
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
        guard contact != nil else {
            throw WeatherError.missingContact(service: kind.displayName, howToSet: Self.howToSetContact)
        }
        try WeatherServiceResponse.requireSecure(baseURL, allowPlainHTTP: allowPlainHTTP, service: kind.displayName,
                                                 key: .baseURL(of: .metNorway))
    }

    public func requestURL(for coordinate: Coordinate) -> String {
        let point = coordinate.rounded(toDecimals: coordinateDecimals)
        return URLText.join(baseURL, path: "/weatherapi/locationforecast/2.0/compact", query: [
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
    /// (`MetNorwayNowcast.covers`). The nowcast is asked afresh each time (its data changes
    /// every 5 minutes); when it fails or has no coverage the report has no nowcast, and the
    /// recording is the Locationforecast body alone. With a nowcast the recording is
    /// `{"locationforecast": ..., "nowcast": ...}`, and the lifetime the shorter of the two.
    public func fetch(_ query: WeatherQuery, revalidating stored: StoredWeather?) async throws -> WeatherFetch {
        try checkConfigured()
        let userAgent = userAgent ?? ""
        async let nowcast = MetNorwayNowcast.covers(query.coordinate) ? fetchNowcast(query, userAgent: userAgent) : nil
        var headers = [(name: "User-Agent", value: userAgent)]
        if let stored { headers.append((name: "If-Modified-Since", value: stored.lastModified)) }
        let request = HTTPRequest(url: requestURL(for: query.coordinate), headers: headers, deadline: query.deadline)
        let response = try await WeatherServiceResponse.get(request, http: http, service: kind.displayName)
        var maxAge = HTTPFreshness.lifetime(of: response.headers)
        var answer: WeatherFetch
        if response.status == 304, let stored {
            // The stored Locationforecast body: as stored, or taken out of a recording with a nowcast.
            let recorded = try WeatherServiceResponse.recording(stored.recording, service: kind.displayName)
            let (forecast, oldNowcast) = MetNorwayNowcast.split(recorded)
            let forecastBody = oldNowcast == nil && recorded["locationforecast"] == nil
                ? stored.recording : Data(JSONOutput(forecast).serialized().utf8)
            answer = WeatherFetch(report: try MetNorwayDecoder.decode(forecast, units: query.units),
                                  recording: forecastBody, serviceMaxAge: maxAge,
                                  lastModified: response.headers["last-modified"] ?? stored.lastModified, notModified: true)
        } else {
            if response.status == 403 {
                throw WeatherError.identificationRefused(service: kind.displayName, userAgent: userAgent)
            }
            let body = try WeatherServiceResponse.json(from: response, service: kind.displayName, howToSetKey: nil)
            answer = WeatherFetch(report: try MetNorwayDecoder.decode(body, units: query.units), recording: response.body,
                                  serviceMaxAge: maxAge, lastModified: response.headers["last-modified"])
        }
        guard let fetched = await nowcast else { return answer }
        let nowcastResponse = fetched.1
        answer.report.nowcast = fetched.0
        answer.recording = MetNorwayNowcast.recording(forecast: answer.recording, nowcast: nowcastResponse.body)
        if let nowcastAge = HTTPFreshness.lifetime(of: nowcastResponse.headers) {
            maxAge = maxAge.map { min($0, nowcastAge) }
            answer.serviceMaxAge = maxAge
        }
        return answer
    }

    /// The nowcast and its response; `nil` for no coverage or any failure: the nowcast adds
    /// to a report, and never fails one.
    private func fetchNowcast(_ query: WeatherQuery, userAgent: String) async -> (Nowcast, HTTPResponse)? {
        let request = HTTPRequest(url: nowcastURL(for: query.coordinate), headers: [(name: "User-Agent", value: userAgent)],
                                  deadline: query.deadline)
        guard let response = try? await WeatherServiceResponse.get(request, http: http, service: kind.displayName),
              let body = try? WeatherServiceResponse.json(from: response, service: kind.displayName, howToSetKey: nil),
              let nowcast = MetNorwayNowcast.decode(body) else { return nil }
        return (nowcast, response)
    }

    /// A recording is a Locationforecast body, or `{"locationforecast": ..., "nowcast": ...}`.
    public func report(fromRecording data: Data, units: Units) throws -> WeatherReport {
        let (forecast, nowcast) = MetNorwayNowcast.split(try WeatherServiceResponse.recording(data, service: kind.displayName))
        var report = try MetNorwayDecoder.decode(forecast, units: units)
        report.nowcast = nowcast.flatMap(MetNorwayNowcast.decode)
        return report
    }
}
