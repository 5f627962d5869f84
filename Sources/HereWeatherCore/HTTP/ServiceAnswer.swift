#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One web service's answer, classified by the one rule that weather services, geocoders and
/// IP-lookup services share; each maps the outcome to its own error type and wording.
///
/// - A cancelled request is `CancellationError`, whoever noticed first (the task, or
///   libcurl's aborted transfer). No response at all is the client's `HTTPError`.
/// - 2xx with a JSON body is `.json`; any other 2xx body is `.notJSON`, with why.
/// - 401 and 403 are `.refused`, 429 is `.rateLimited`, every other status `.failed`.
/// - The service's own words (`detail`) are read from the same fields for every service,
///   with its secrets removed.
struct ServiceAnswer: Sendable {
    /// What the answer came to.
    enum Outcome: Sendable, Equatable {
        case json(JSONValue)
        /// A 2xx body that is not JSON, described for an error line.
        case notJSON(String)
        /// HTTP 401 or 403.
        case refused
        /// HTTP 429, with its `Retry-After` value.
        case rateLimited(retryAfter: String?)
        /// Any other status.
        case failed
    }

    let status: Int
    let outcome: Outcome
    /// The service's words about a failure, secret-free and on one line; `nil` when its body
    /// holds none.
    let detail: String?

    /// Classifies `response`; `secrets` never appear in `detail`, which is cut to
    /// `maxDetailLength` characters.
    init(_ response: HTTPResponse, secrets: [String] = [], maxDetailLength: Int = ServiceText.maxLength) {
        let body = try? JSONValue.parse(response.body)
        status = response.status
        detail = body.flatMap(Self.serviceWords).map {
            ServiceText.oneLine($0, secrets: secrets, maxLength: maxDetailLength)
        }
        switch response.status {
        case 200..<300:
            outcome = body.map(Outcome.json) ?? .notJSON(Self.describeNonJSON(response.body))
        case 401, 403: outcome = .refused
        case 429: outcome = .rateLimited(retryAfter: response.headers["retry-after"])
        default: outcome = .failed
        }
    }

    /// Sends `request`: the response whatever its status. Cancellation throws
    /// `CancellationError`; no response at all throws what `unreachable` makes of the error.
    static func send(_ request: HTTPRequest, http: any HTTPClient,
                     unreachable: (HTTPError) -> any Error) async throws -> HTTPResponse {
        do {
            return try await http.get(request)
        } catch HTTPError.cancelled {
            throw CancellationError()
        } catch let error as HTTPError {
            if Task.isCancelled { throw CancellationError() }
            throw unreachable(error)
        }
    }

    /// As `send`, with redirects followed only to the request's own scheme, host and port,
    /// once (`SameOriginRedirects`): for weather, alerts and geocoding requests.
    static func sendKeepingHost(_ request: HTTPRequest, http: any HTTPClient,
                                unreachable: (HTTPError) -> any Error) async throws -> HTTPResponse {
        try await SameOriginRedirects.send(request, unreachable: unreachable) {
            try await send($0, http: http, unreachable: unreachable)
        }
    }

    /// The JSON body of a 2xx answer; otherwise the `Failure` the outcome means. `howToSetKey`
    /// is given for keyed services: a 401/403 then means the key was rejected.
    func json<Failure: ServiceFailure>(service: String, howToSetKey: String?,
                                       as failure: Failure.Type) throws(Failure) -> JSONValue {
        switch outcome {
        case .json(let body): return body
        case .notJSON(let reason): throw .undecodable(service: service, reason: reason)
        case .refused where howToSetKey != nil:
            throw .keyRejected(service: service, status: status, howToSet: howToSetKey ?? "")
        case .rateLimited(let retryAfter): throw .rateLimited(service: service, retryAfter: retryAfter)
        case .refused, .failed: throw .serviceFailed(service: service, status: status, detail: detail)
        }
    }

    /// The fields services put their words in: `reason` (Open-Meteo, ipapi.co), `message`
    /// (OpenWeatherMap, ipwho.is, ip-api.com), `detail` (Pirate Weather), or `error` as text
    /// or as an object with `title` and `message` (ipinfo.io).
    static func serviceWords(in body: JSONValue) -> String? {
        for field in ["reason", "message", "detail"] {
            if let text = body[field]?.string, !text.isEmpty { return text }
        }
        guard let error = body["error"] else { return nil }
        if let text = error.string, !text.isEmpty { return text }
        let parts = [error["title"]?.string, error["message"]?.string].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: ": ")
    }

    /// A body that should have been JSON, described for an error line.
    static func describeNonJSON(_ body: Data) -> String {
        let start = body.prefix(512).drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if body.isEmpty { return "the body was empty" }
        if start.first == UInt8(ascii: "<") {
            return "it is a web page (HTML), perhaps from a captive portal or proxy"
        }
        return "it is not valid JSON (truncated or corrupt)"
    }
}

/// The errors a service that answers in JSON fails with (`WeatherError`, `GeocodingError`):
/// their cases of these names are what `ServiceAnswer` maps each outcome to.
protocol ServiceFailure: Error {
    /// No HTTP response at all.
    static func unreachable(service: String, _ error: HTTPError) -> Self
    /// A 2xx body that is not JSON.
    static func undecodable(service: String, reason: String) -> Self
    /// 401/403 from a keyed service.
    static func keyRejected(service: String, status: Int, howToSet: String) -> Self
    /// 429.
    static func rateLimited(service: String, retryAfter: String?) -> Self
    /// Any other failing status; `detail` is the service's words.
    static func serviceFailed(service: String, status: Int, detail: String?) -> Self
}
