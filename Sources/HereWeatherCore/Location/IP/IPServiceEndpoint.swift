#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension IPService {
    /// The service's name as users know it ("ipinfo.io"), used in messages and `Location.service`.
    public var displayName: String {
        switch self {
        case .ipinfo: return "ipinfo.io"
        case .ipwhois: return "ipwho.is"
        case .ipapi: return "ipapi.co"
        case .ipApiCom: return "ip-api.com"
        }
    }

    /// The path asked for: the caller's own address, as JSON (no IP in the path).
    var lookupPath: String {
        switch self {
        case .ipinfo: return "/json"
        case .ipwhois: return "/"
        case .ipapi: return "/json/"
        case .ipApiCom: return "/json"
        }
    }
}

/// One configured IP-lookup service: where to send the request, and whether that is allowed.
///
/// A plain `http://` base URL is refused unless the service's `allow_plain_http` is set or
/// the host is a loopback address (127.0.0.0/8, `localhost`, `[::1]`): the answer decides
/// where the weather is fetched for, and anyone on the path could change it.
struct IPServiceEndpoint: Sendable {
    let service: IPService
    let settings: IPServiceSettings

    init(_ service: IPService, settings: IPServiceSettings) {
        self.service = service
        self.settings = settings
    }

    /// The config key of this service's base URL, for messages.
    var baseURLKey: ConfigKey { .baseURL(of: service) }

    /// Throws a `ConfigError` when the base URL is not https (or allowed plain http).
    ///
    /// Decided from the settings alone, before any request is made.
    func validate(configPath: String) throws {
        try TransportSecurity.requireSecure(settings.baseURL, allowPlainHTTP: settings.allowPlainHTTP, key: baseURLKey,
                                            configPath: configPath, example: ", e.g. for ip-api.com's free tier")
    }

    /// The GET request for the caller's own location, ending by `deadline`.
    ///
    /// ipinfo's token travels in an `Authorization: Bearer` header (one of the three ways
    /// ipinfo documents), so it never appears in a URL, a log line or an error message.
    func request(deadline: ContinuousClock.Instant) -> HTTPRequest {
        var headers: [(name: String, value: String)] = []
        if service == .ipinfo, let token = settings.token, !token.isEmpty {
            headers.append((name: "Authorization", value: "Bearer \(token)"))
        }
        return HTTPRequest(url: URLText.join(settings.baseURL, path: service.lookupPath, query: []),
                           headers: headers, deadline: deadline, maxBodyBytes: 256 << 10)
    }

    /// Secrets that must never be quoted back to the user.
    var secrets: [String] { [settings.token].compactMap { $0 }.filter { !$0.isEmpty } }
}
