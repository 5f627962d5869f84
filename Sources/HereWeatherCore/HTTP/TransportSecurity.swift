/// The one rule for where a web service may be asked: over https; over plain http only to a
/// loopback address (127.0.0.0/8, `localhost`, `[::1]`: tests, local proxies) or when the
/// service's own config table says `allow_plain_http = true`.
///
/// Plain http lets anyone on the path read the request (with any key, token or contact in
/// it) and change the answer (the weather shown, or where an IP service says you are). Every
/// weather service, geocoder and IP service applies it from its settings alone, before any
/// request is made; libcurl keeps an https request from being redirected to plain http.
public enum TransportSecurity {
    /// Whether `url` may be asked, given the service's `allow_plain_http`.
    public static func permits(_ url: String, allowPlainHTTP: Bool) -> Bool {
        let lower = url.lowercased()
        if lower.hasPrefix("https://") { return true }
        guard lower.hasPrefix("http://") else { return false }
        return allowPlainHTTP || ServiceURL(url).isLoopback
    }

    /// Throws the `ConfigError` for a location service's URL at config key `key`
    /// (`[location.wifi] base_url`) that is not an http(s) URL with a host, or that this rule
    /// does not permit; `example` names a case where plain http is the only way.
    static func requireSecure(_ url: String, allowPlainHTTP: Bool, key: ConfigKey, configPath: String, example: String = "") throws {
        let lower = url.lowercased()
        let shown = "\"\(ServiceURL.withoutUserInfo(url))\""
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), !ServiceURL(url).host.isEmpty else {
            throw ConfigError.invalidValue(path: configPath, key: key.dotted, expected: "an https:// URL", found: shown)
        }
        if permits(url, allowPlainHTTP: allowPlainHTTP) { return }
        throw ConfigError.invalidValue(
            path: configPath, key: key.dotted,
            expected: "an https:// URL (plain http lets anyone on the network read the request and change the answer; if you accept that\(example), set \(allowPlainHTTPSetting(key)))",
            found: shown)
    }

    /// The refusal's text for `service`'s URL at config key `key` (`[weather.metno] base_url`):
    /// what is wrong and the two ways to fix it.
    static func refusal(service: WebService, key: ConfigKey) -> String {
        "\(service.displayName)'s \(key.dotted) is plain http to a remote host, which would send the request (and any key or contact) where anyone on the path can read and change it. Set \(key.dotted) to an https:// URL, or, if you accept that, set \(allowPlainHTTPSetting(key)) (127.0.0.1 and localhost need neither)."
    }

    /// "allow_plain_http = true under [weather.metno]", for the URL at `key`.
    private static func allowPlainHTTPSetting(_ key: ConfigKey) -> String {
        "\(key.allowPlainHTTP.name) = true under [\(key.table)]"
    }
}
