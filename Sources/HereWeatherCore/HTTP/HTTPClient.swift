#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One HTTP request (a GET, or a POST with a body), with the deadline it must finish by.
public struct HTTPRequest: Sendable {
    public var url: String
    public var headers: [(name: String, value: String)]
    /// The whole exchange (name lookup, connect, TLS, body) ends by this instant.
    public var deadline: ContinuousClock.Instant
    /// A larger body is refused rather than read into memory.
    public var maxBodyBytes: Int
    /// "GET" or "POST".
    public var method: String
    /// The body sent with a POST.
    public var body: Data?
    /// The body as `--verbose` shows it (with what must not be shown masked); `nil` shows its size.
    public var loggedBody: String?
    /// Whether a 3xx answer is followed. When it is not, the 3xx is the response: a request
    /// whose body must reach only the host asked (the Wi-Fi POST) sets this to `false`.
    public var followsRedirects: Bool

    public init(url: String, headers: [(name: String, value: String)] = [],
                deadline: ContinuousClock.Instant, maxBodyBytes: Int = 8 << 20,
                method: String = "GET", body: Data? = nil, loggedBody: String? = nil, followsRedirects: Bool = true) {
        self.url = url
        self.headers = headers
        self.deadline = deadline
        self.maxBodyBytes = maxBodyBytes
        self.method = method
        self.body = body
        self.loggedBody = loggedBody
        self.followsRedirects = followsRedirects
    }
}

extension HTTPRequest {
    /// The User-Agent of a request that sets none.
    public static let defaultUserAgent = "here-weather/\(HereWeatherVersion.current) (+https://github.com/here-weather/here-weather)"
    /// The encodings every request accepts (libcurl decodes them).
    public static let acceptEncoding = "gzip, deflate"

    /// The header fields sent, each name once (names compared without case): the request's
    /// own, a repeated one at its first place with its last value; then, when the request
    /// sets none of them, `Accept: application/json`, the default User-Agent and
    /// `Accept-Encoding`. The client sends exactly these; libcurl adds only `Host` and, for a
    /// body, `Content-Length`. What `--verbose` shows.
    public var sentHeaders: [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        for header in headers {
            if let index = fields.firstIndex(where: { $0.name.lowercased() == header.name.lowercased() }) {
                fields[index].value = header.value
            } else {
                fields.append(header)
            }
        }
        let defaults = [("Accept", "application/json"), ("User-Agent", Self.defaultUserAgent),
                        ("Accept-Encoding", Self.acceptEncoding)]
        for (name, value) in defaults where !fields.contains(where: { $0.name.lowercased() == name.lowercased() }) {
            fields.append((name, value))
        }
        return fields
    }
}

/// What a server answered.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header fields with lower-cased names; a repeated field keeps its last value.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Why an HTTP exchange produced no response. Messages name the host, never the URL
/// (whose query may hold an API key).
public enum HTTPError: Error, Sendable, Equatable {
    case invalidURL
    case cannotResolveHost(String)
    case connectionRefused(String)
    case cannotConnect(String)
    case tlsFailure(String)
    /// An https request was redirected to plain http (or another scheme), which is refused.
    case insecureRedirect(String)
    /// The host redirected the request where it is not followed (`SameOriginRedirects`):
    /// `to` is the target's scheme, host and port.
    case redirected(String, to: String, status: Int)
    case timedOut(String)
    /// Something answered on the service's port, but not with HTTP (an SSH banner, garbage,
    /// a 1xx with nothing after it): a wrong port, or a proxy or firewall in the way.
    case notHTTP(String)
    case bodyTooLarge(limit: Int)
    case cancelled
    case transferFailed(String)
    /// The system refused what the transfer needs (a thread, descriptors, memory):
    /// `ResourceShortage`'s words ("cannot start a thread: ...").
    case noResources(String)

    /// A short description for an error line ("could not resolve host api.open-meteo.com").
    public var summary: String {
        switch self {
        case .invalidURL: return "the service URL is not a valid http(s) URL"
        case .cannotResolveHost(let host): return "could not resolve host \(host)"
        case .connectionRefused(let host): return "connection refused by \(host)"
        case .cannotConnect(let host): return "could not connect to \(host)"
        case .tlsFailure(let host): return "secure connection to \(host) failed"
        case .insecureRedirect(let host): return "\(host) redirected the https request to plain http, which is refused"
        case .redirected(let host, let target, let status):
            return "\(host) redirected the request to \(target) (HTTP \(status)), which is not followed, so nothing was sent there"
        case .timedOut(let host): return "\(host) did not answer in time"
        case .notHTTP(let host): return "\(host) answered, but not with HTTP"
        case .bodyTooLarge(let limit): return "the response was larger than \(limit / 1024) KiB"
        case .cancelled: return "the request was cancelled"
        case .transferFailed(let detail): return "the transfer failed (\(detail))"
        case .noResources(let detail): return detail
        }
    }

    /// What to do instead of checking the network, when the network is not what failed.
    public var advice: String? {
        if case .noResources = self { return ResourceShortage.advice }
        return nil
    }
}

/// Sends HTTP requests. The real one is libcurl (`CurlHTTPClient`); tests run it against a
/// local server.
public protocol HTTPClient: Sendable {
    /// Performs `request` (its method, GET unless it says POST); throws `HTTPError` when no
    /// response arrives by its deadline.
    func get(_ request: HTTPRequest) async throws -> HTTPResponse
    /// Opens `connections` connections to `url`'s host and port ahead of requests that are
    /// not known yet (the weather request, while the location is asked for), kept until
    /// `deadline` for the requests to that host to take. Sends nothing: no request byte, so
    /// no coordinate or key, leaves early. Returns at once; a failure is silent (the request
    /// then connects as it would have). The default does nothing.
    func preconnect(to url: String, connections: Int, until deadline: ContinuousClock.Instant)
}

extension HTTPClient {
    public func preconnect(to url: String, connections: Int, until deadline: ContinuousClock.Instant) {}
}
