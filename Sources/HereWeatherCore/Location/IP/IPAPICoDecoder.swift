/// ipapi.co's `/json/`: `latitude`/`longitude` numbers.
///
/// Failures come as `"error": true` with a `"reason"` ("Reserved IP Address" with HTTP 200,
/// "RateLimited" with HTTP 429) and sometimes a longer `"message"`.
enum IPAPICoDecoder: IPServiceDecoder {
    static func failure(in body: JSONValue) -> String? {
        guard body["error"]?.bool == true else { return nil }
        let text = body["reason"]?.string ?? body["message"]?.string
        return text.map(IPFailureText.normalize) ?? "the service reported an error"
    }

    static func fix(from body: JSONValue) -> IPFix? {
        IPFix(latitude: body["latitude"], longitude: body["longitude"], body: body,
              nameParts: [body["city"], body["region"], body["country_code"] ?? body["country"]])
    }
}
