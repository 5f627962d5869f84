#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How here-weather talks to api.weather.gov: the identifying User-Agent, GeoJSON asked for,
/// URLs from the service's answers followed only on the configured host, one retry of a
/// 500/502/503/504 inside the deadline, and the service's problem answers (RFC 7807
/// `application/problem+json`: `type`, `title`, `detail`) turned into one-line errors.
struct NWSExchange: Sendable {
    let baseURL: String
    let userAgent: String
    let http: any HTTPClient
    /// The run's clock: whether the deadline leaves time for a retry.
    let clock: any RunClock
    /// Waits between a failed attempt and the retry (`Task.sleep`; tests may shorten it).
    let pause: @Sendable (Duration) async throws -> Void
    static let kind = WeatherProviderKind.nws
    /// The pause before the one retry of a server error (at most a third of the time left).
    static let retryPause = Duration.seconds(1)
    static let retriedStatuses: Set<Int> = [500, 502, 503, 504]

    /// `url`'s path and query on `baseURL`'s host: the points answer names
    /// `https://api.weather.gov/gridpoints/...`, and a mirror or test server set as
    /// `base_url` gets those requests instead; no request goes to a host the config does not
    /// name. `nil` for a URL with no path.
    func onBaseURL(_ url: String) -> String? {
        var rest = Substring(url)
        if let schemeEnd = rest.firstRange(of: "://") {
            rest = rest[schemeEnd.upperBound...]
            guard let slash = rest.firstIndex(of: "/") else { return nil }
            rest = rest[slash...]
        }
        guard rest.hasPrefix("/"), !rest.contains(where: { $0 == " " || $0 == "#" || $0.isNewline }) else { return nil }
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        return base + rest
    }

    /// GETs `url`; a server error is asked again once after a short pause when the deadline
    /// leaves time for it. The last response whatever its status.
    func get(_ url: String, deadline: ContinuousClock.Instant) async throws -> HTTPResponse {
        let request = HTTPRequest(url: url, headers: [("User-Agent", userAgent), ("Accept", "application/geo+json")],
                                  deadline: deadline)
        let first = try await WeatherServiceResponse.get(request, http: http, service: Self.kind)
        guard Self.retriedStatuses.contains(first.status) else { return first }
        let left = clock.now.duration(to: deadline)
        let wait = min(Self.retryPause, left / 3)
        guard wait > .zero else { return first }
        try await pause(wait)
        return try await WeatherServiceResponse.get(request, http: http, service: Self.kind)
    }

    /// The JSON body of `url`, or the error its answer means.
    func json(_ url: String, deadline: ContinuousClock.Instant) async throws -> (JSONValue, HTTPResponse) {
        let response = try await get(url, deadline: deadline)
        return (try Self.body(of: response, userAgent: userAgent), response)
    }

    /// The JSON of a 2xx answer. A 404 `InvalidPoint` is a point outside the US; a 403 a
    /// refused User-Agent; other failures say what the problem answer says.
    static func body(of response: HTTPResponse, userAgent: String) throws -> JSONValue {
        let problem = NWSProblem(response.body)
        if response.status == 404, problem?.isInvalidPoint == true {
            throw WeatherError.outsideCoverage(kind, region: "the United States and its territories")
        }
        if response.status == 403 {
            throw WeatherError.identificationRefused(kind, userAgent: userAgent)
        }
        if !(200..<300).contains(response.status), response.status != 429, let words = problem?.words {
            throw WeatherError.service(kind, .serviceFailed(status: response.status, detail: words))
        }
        return try WeatherServiceResponse.json(from: response, service: kind, howToSetKey: nil)
    }
}

/// An RFC 7807 problem answer of api.weather.gov:
/// `{"type": "https://api.weather.gov/problems/ForecastGridExpired", "title": "Forecast Grid
/// Expired", "status": 503, "detail": "The requested forecast grid has expired."}`.
struct NWSProblem: Equatable {
    var type: String?
    var title: String?
    var detail: String?

    /// `nil` for a body that is not a JSON object with a type, title or detail.
    init?(_ body: Data) {
        guard let value = try? JSONValue.parse(body), value.isObject else { return nil }
        type = value["type"]?.string
        title = value["title"]?.string
        detail = value["detail"]?.string
        if type == nil && title == nil && detail == nil { return nil }
    }

    var isInvalidPoint: Bool { type?.hasSuffix("InvalidPoint") == true }

    /// "Forecast Grid Expired: The requested forecast grid has expired."; the title alone
    /// when the detail only repeats it.
    var words: String? {
        let parts = [title, detail].compactMap { text -> String? in
            guard let text else { return nil }
            let words = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            return words.isEmpty ? nil : words
        }
        guard let first = parts.first else { return nil }
        guard parts.count == 2, parts[1].lowercased() != first.lowercased() else { return first }
        return first + ": " + parts[1]
    }
}
