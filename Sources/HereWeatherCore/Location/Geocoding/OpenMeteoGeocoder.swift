#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Open-Meteo's geocoding API (`GET /v1/search`): keyless, GeoNames places ranked by
/// relevance and population.
///
/// Asks for 10 results in English; a trailing two-letter qualifier goes along as
/// `countryCode`, which the service applies before the limit. A response without `results`
/// means nothing was found. Each result gives `name`, `latitude`, `longitude`,
/// `country_code`, `country` and `admin1` (the region); empty fields are left out.
public struct OpenMeteoGeocoder: Geocoder {
    public let baseURL: String
    /// Whether a plain-http base URL to a remote host may be used (`allow_plain_http`).
    public let allowPlainHTTP: Bool
    private let http: any HTTPClient

    /// The default base URL (`ConfigKey.openMeteoGeocodingURL`).
    public static let defaultBaseURL = "https://geocoding-api.open-meteo.com"

    public var kind: GeocoderKind { .openMeteo }

    public init(baseURL: String = defaultBaseURL, http: any HTTPClient, allowPlainHTTP: Bool = false) {
        self.baseURL = baseURL
        self.http = http
        self.allowPlainHTTP = allowPlainHTTP
    }

    /// The search URL for `query`.
    public func requestURL(for query: CityQuery) -> String {
        var parameters = [("name", query.name), ("count", "10"), ("language", "en"), ("format", "json")]
        if let code = query.countryCode { parameters.append(("countryCode", code)) }
        return URLText.join(baseURL, path: "/v1/search", query: parameters)
    }

    public func search(_ query: CityQuery, deadline: ContinuousClock.Instant) async throws -> [GeocodedPlace] {
        try GeocodingResponse.requireSecure(baseURL, allowPlainHTTP: allowPlainHTTP, service: kind)
        let request = HTTPRequest(url: requestURL(for: query), deadline: deadline, maxBodyBytes: 1 << 20)
        let body = try await GeocodingResponse.fetch(request, http: http, service: kind, howToSetKey: nil)
        return try Self.places(in: body)
    }

    /// The places in a `/v1/search` body, in the service's order.
    static func places(in body: JSONValue) throws -> [GeocodedPlace] {
        guard body.isObject else {
            throw GeocodingError.service(.openMeteo, .undecodable(reason: "it is not a JSON object"))
        }
        if body["error"]?.bool == true {
            throw GeocodingError.service(.openMeteo, .serviceFailed(status: 200, detail: body["reason"]?.string))
        }
        guard let results = body["results"] else { return [] }
        guard let entries = results.array else {
            throw GeocodingError.service(.openMeteo, .undecodable(reason: "\"results\" is not a list"))
        }
        return entries.compactMap { entry in
            guard let name = GeocodingResponse.text(entry["name"]),
                  let coordinate = GeocodingResponse.coordinate(entry["latitude"], entry["longitude"]) else { return nil }
            return GeocodedPlace(name: name, coordinate: coordinate,
                                 countryCode: GeocodingResponse.text(entry["country_code"]),
                                 country: GeocodingResponse.text(entry["country"]),
                                 region: GeocodingResponse.text(entry["admin1"]))
        }
    }
}
