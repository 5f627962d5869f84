#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// OpenWeatherMap's Geocoding API, direct geocoding (`GET /geo/1.0/direct`): needs the
/// same API key as the weather.
///
/// Asks for up to 5 places (the service's maximum) for `q`: the name, with a trailing
/// two-letter qualifier appended as the documented `,{country code}`, or a US state's
/// abbreviation as `,{state code},US`. The answer is a JSON
/// array (empty when nothing matches) of `{name, local_names, lat, lon, country, state}`,
/// `country` being the ISO code. The key never appears in an error message.
public struct OpenWeatherMapGeocoder: Geocoder {
    public let baseURL: String
    /// Whether a plain-http base URL to a remote host may be used (`allow_plain_http`).
    public let allowPlainHTTP: Bool
    private let apiKey: String?
    private let http: any HTTPClient

    public var kind: GeocoderKind { .openWeatherMap }

    public init(baseURL: String, apiKey: String?, http: any HTTPClient, allowPlainHTTP: Bool = false) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.http = http
        self.allowPlainHTTP = allowPlainHTTP
    }

    /// The direct-geocoding URL for `query`, with the key.
    public func requestURL(for query: CityQuery, key: String) -> String {
        var q = query.name
        if let state = query.stateCode { q += ",\(state)" }
        if let country = query.countryCode { q += ",\(country)" }
        return URLText.join(baseURL, path: "/geo/1.0/direct", query: [("q", q), ("limit", "5"), ("appid", key)])
    }

    public func search(_ query: CityQuery, deadline: ContinuousClock.Instant) async throws -> [GeocodedPlace] {
        guard let key = apiKey, !key.isEmpty else {
            throw GeocodingError.service(kind, .missingKey(howToSet: OpenWeatherMapWeatherProvider.howToSetKey))
        }
        try GeocodingResponse.requireSecure(baseURL, allowPlainHTTP: allowPlainHTTP, service: kind)
        let request = HTTPRequest(url: requestURL(for: query, key: key), deadline: deadline, maxBodyBytes: 1 << 20)
        let body = try await GeocodingResponse.fetch(request, http: http, service: kind,
                                                     howToSetKey: OpenWeatherMapWeatherProvider.howToSetKey,
                                                     secrets: [key])
        return try Self.places(in: body)
    }

    /// The places in a `/geo/1.0/direct` body, in the service's order.
    static func places(in body: JSONValue) throws -> [GeocodedPlace] {
        guard let entries = body.array else {
            throw GeocodingError.service(.openWeatherMap, .undecodable(reason: "it is not a JSON list"))
        }
        return entries.compactMap { entry in
            guard let name = GeocodingResponse.text(entry["name"]),
                  let coordinate = GeocodingResponse.coordinate(entry["lat"], entry["lon"]) else { return nil }
            return GeocodedPlace(name: name, coordinate: coordinate,
                                 countryCode: GeocodingResponse.text(entry["country"]),
                                 region: GeocodingResponse.text(entry["state"]))
        }
    }
}
