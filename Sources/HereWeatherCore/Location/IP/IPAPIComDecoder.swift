/// ip-api.com's `/json`: `lat`/`lon` numbers, `regionName` and `countryCode`.
///
/// Failures come back as HTTP 200 with `"status": "fail"` and a `"message"`: "private
/// range", "reserved range" or "invalid query". Over the rate limit it answers HTTP 429.
enum IPAPIComDecoder: IPServiceDecoder {
    static func failure(in body: JSONValue) -> String? {
        guard let status = body["status"]?.string, status.lowercased() != "success" else { return nil }
        return body["message"]?.string.map(IPFailureText.normalize) ?? "the service reported status \"\(status)\""
    }

    static func fix(from body: JSONValue) -> IPFix? {
        IPFix(latitude: body["lat"], longitude: body["lon"], body: body,
              nameParts: [body["city"], body["regionName"], body["countryCode"] ?? body["country"]])
    }
}
