/// The redirect rule for requests to a configured service (weather, alerts, geocoding): a
/// redirect is followed only to the same scheme, host and port, and only once; one that
/// points anywhere else is an error naming where it pointed (`HTTPError.redirected`), and
/// nothing is sent there. Each request of a followed redirect goes through the client on its
/// own, so `--verbose` shows it as sent.
///
/// The Wi-Fi POST follows none (`WiFiGeolocateExchange`); IP lookups keep libcurl's rule.
enum SameOriginRedirects {
    /// How many same-origin redirects are followed.
    static let limit = 1
    /// The statuses that redirect (not 304 Not Modified, which is an answer).
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Sends `request` through `send` (libcurl following nothing) and follows its redirects
    /// by the rule; throws `unreachable(.redirected)` for one it does not follow.
    static func send(_ request: HTTPRequest, unreachable: (HTTPError) -> any Error,
                     _ send: (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        var current = request
        current.followsRedirects = false
        var response = try await send(current)
        var followed = 0
        while statuses.contains(response.status) {
            let location = response.headers["location"] ?? ""
            let next = target(location, from: current.url)
            guard followed < limit, let next, let origin = Origin(next), origin == Origin(current.url) else {
                throw unreachable(.redirected(ServiceURL(current.url).shown, to: shown(next, location: location),
                                              status: response.status))
            }
            followed += 1
            current.url = next
            response = try await send(current)
        }
        return response
    }

    /// The absolute URL a `Location` value names from `url`: absolute as it is, scheme-relative
    /// (`//host/path`) on `url`'s scheme, a path on `url`'s origin; `nil` for none.
    static func target(_ location: String, from url: String) -> String? {
        let value = location.trimmingSpaces
        guard !value.isEmpty else { return nil }
        if value.contains("://") { return value }
        guard let schemeEnd = url.firstRange(of: "://") else { return nil }
        let scheme = String(url[..<schemeEnd.lowerBound])
        if value.hasPrefix("//") { return scheme + ":" + value }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let origin = String(url[..<schemeEnd.upperBound]) + authority
        if value.hasPrefix("/") { return origin + value }
        // A relative path: beside the request's path.
        let path = rest.dropFirst(authority.count).prefix { $0 != "?" && $0 != "#" }
        let directory = path.lastIndex(of: "/").map { path[...$0] } ?? "/"
        return origin + directory + value
    }

    /// Where a redirect pointed, for a message: its scheme, host and port only (a query may
    /// hold a key), "another address" when it names none.
    static func shown(_ target: String?, location: String) -> String {
        guard let target else { return "another address" }
        let origin = Origin(target)
        let host = ServiceText.oneLine(ServiceURL(target).hostAndPort, maxLength: 120)
        guard !host.isEmpty, let scheme = origin?.scheme else { return "another address" }
        return ServiceText.oneLine(scheme, maxLength: 20) + "://" + host
    }

    /// A URL's scheme, host and port, with the scheme's default port filled in.
    struct Origin: Equatable {
        var scheme: String
        var host: String
        var port: String

        init?(_ url: String) {
            guard let schemeEnd = url.firstRange(of: "://") else { return nil }
            scheme = url[..<schemeEnd.lowerBound].lowercased()
            let authority = ServiceURL(url)
            host = authority.host
            let afterHost = authority.hostAndPort.hasPrefix("[")
                ? authority.hostAndPort.drop { $0 != "]" }.dropFirst() : authority.hostAndPort.drop { $0 != ":" }
            let written = afterHost.hasPrefix(":") ? String(afterHost.dropFirst()) : ""
            port = written.isEmpty ? (scheme == "https" ? "443" : scheme == "http" ? "80" : "") : written
            guard !host.isEmpty else { return nil }
        }
    }
}

extension String {
    /// Without spaces and tabs at either end.
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
