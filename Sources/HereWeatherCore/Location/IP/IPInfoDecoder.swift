/// ipinfo.io's `/json`: the position as a `"loc": "lat,lon"` string.
///
/// A private or reserved caller address comes back as HTTP 200 with `"bogon": true` and no
/// location; errors (rate limit, unknown token, wrong IP) as
/// `{"status": 429, "error": {"title": ..., "message": ...}}`.
enum IPInfoDecoder: IPServiceDecoder {
    static func failure(in body: JSONValue) -> String? {
        if body["bogon"]?.bool == true { return "reserved range" }
        guard let error = body["error"] else { return nil }
        if let text = error.string { return IPFailureText.normalize(text) }
        let parts = [error["title"]?.string, error["message"]?.string].compactMap { $0 }.filter { !$0.isEmpty }
        if parts.isEmpty { return error == .null || error.bool == false ? nil : "the service reported an error" }
        if let title = parts.first, IPFailureText.has(title.lowercased(), "rate limit") { return "rate limited" }
        return IPFailureText.normalize(parts.joined(separator: ": "))
    }

    static func fix(from body: JSONValue) -> IPFix? {
        guard let loc = body["loc"]?.string else { return nil }
        let parts = loc.split(separator: ",", omittingEmptySubsequences: false).map { JSONValue.string(String($0)) }
        guard parts.count == 2 else { return nil }
        return IPFix(latitude: parts[0], longitude: parts[1], body: body,
                     nameParts: [body["city"], body["region"], body["country"]])
    }
}
