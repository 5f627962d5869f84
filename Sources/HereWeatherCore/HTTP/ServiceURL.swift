/// The authority of a web service's URL (`scheme://user@host:port/...`), read by the one
/// parser every rule and message uses: the HTTP client's host in error lines, the loopback
/// test of `TransportSecurity`, and the URL quoted in configuration errors.
public struct ServiceURL: Sendable, Equatable {
    /// The host, lower-cased, without user info, port or IPv6 brackets: `api.open-meteo.com`,
    /// `127.0.0.1`, `::1`; "" when the URL has none.
    public let host: String
    /// `host[:port]` as written (brackets kept), without user info: what messages name.
    public let hostAndPort: String

    /// Reads `url`'s authority; a URL without `://` has none.
    public init(_ url: String) {
        guard let schemeEnd = url.utf8.firstRange(of: "://".utf8) else {
            host = ""
            hostAndPort = ""
            return
        }
        var authority = url[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        hostAndPort = String(authority)
        if authority.hasPrefix("[") {
            host = String(authority.dropFirst().prefix { $0 != "]" }).lowercased()
        } else {
            host = String(authority.prefix { $0 != ":" }).lowercased()
        }
    }

    /// `host[:port]` for a message, or "the server" when the URL names none.
    public var shown: String { hostAndPort.isEmpty ? "the server" : hostAndPort }

    /// Whether the host is a loopback address (127.0.0.0/8, `::1`) or `localhost`.
    public var isLoopback: Bool {
        if host == "localhost" || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4 else { return false }
        let values = octets.compactMap { $0.count <= 3 && $0.allSatisfy(\.isASCII) ? UInt8($0) : nil }
        return values.count == 4 && values[0] == 127
    }

    /// `url` with any `user:password@` removed, for quoting in messages.
    public static func withoutUserInfo(_ url: String) -> String {
        guard let schemeEnd = url.utf8.firstRange(of: "://".utf8) else { return url }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<schemeEnd.upperBound]) + String(rest[rest.index(after: at)...])
    }

    /// Whether `url` is an http or https URL (any case), the only schemes ever requested.
    public static func isHTTP(_ url: String) -> Bool {
        let lower = url.prefix(8).lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://")
    }
}
