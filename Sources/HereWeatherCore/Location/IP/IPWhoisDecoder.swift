/// ipwho.is's `/`: `latitude`/`longitude` numbers.
///
/// Failures come back as HTTP 200 with `"success": false` and a `"message"`
/// ("Reserved range", "Invalid IP address", a usage limit).
enum IPWhoisDecoder: IPServiceDecoder {
    static func failure(in body: JSONValue) -> String? {
        guard body["success"]?.bool == false else { return nil }
        return body["message"]?.string.map(IPFailureText.normalize) ?? "the service reported a failure"
    }

    static func fix(from body: JSONValue) -> IPFix? {
        IPFix(latitude: body["latitude"], longitude: body["longitude"], body: body,
              nameParts: [body["city"], body["region"], body["country_code"] ?? body["country"]])
    }
}
