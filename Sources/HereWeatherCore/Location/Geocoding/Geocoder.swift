#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A geocoding service: a place name in, the places it may mean out, best first.
///
/// One implementation per weather provider (`OpenMeteoGeocoder`, `OpenWeatherMapGeocoder`),
/// so `--city` asks the service the weather comes from.
public protocol Geocoder: Sendable {
    /// The service's name in messages and `Location.service`: "Open-Meteo geocoding".
    var serviceName: String { get }
    /// The places the service finds for `query`, best first (possibly none), by `deadline`.
    /// Throws a `GeocodingError` when the service cannot be asked or fails.
    func search(_ query: CityQuery, deadline: ContinuousClock.Instant) async throws -> [GeocodedPlace]
}

/// Why a city name gave no location.
public enum GeocodingError: UserFacingError, ServiceFailure, Equatable {
    /// The service found nothing for `name`, or nothing that matches the `qualifiers`;
    /// `suggestion` is the place they nearly name ("Melbourne, Florida, US" for "Florda"),
    /// `others` the places it did find (shown to help pick a qualifier).
    case notFound(name: String, qualifiers: [String], suggestion: String?, others: [String])
    /// No HTTP response at all (DNS, refused, timeout, TLS).
    case unreachable(service: String, HTTPError)
    /// The service answered with an error status (or an error flag in the body).
    /// `detail` is the service's own text, without any secret; `message` puts it on one line
    /// (`ServiceText.oneLine`).
    case serviceFailed(service: String, status: Int, detail: String?)
    /// HTTP 429.
    case rateLimited(service: String, retryAfter: String?)
    /// HTTP 401/403 from a keyed service.
    case keyRejected(service: String, status: Int, howToSet: String)
    /// A keyed service without a key.
    case missingKey(service: String, howToSet: String)
    /// The body was not a list of places.
    case undecodable(service: String, reason: String)
    /// A plain-http URL to a remote host without `allow_plain_http` (config key `key`).
    case insecureBaseURL(service: String, key: ConfigKey)

    public var message: String {
        switch self {
        case .notFound(let name, let qualifiers, let suggestion, let others):
            let place = "No place named \"\(name)\""
            let within = qualifiers.isEmpty ? "" : " in " + qualifiers.joined(separator: ", ")
            if let suggestion { return "\(place)\(within); did you mean \"\(suggestion)\"?" }
            let found = others.isEmpty ? " found\(within)" : "\(within) (found only: " + others.joined(separator: "; ") + ")"
            return "\(place)\(found); check the spelling or add a country code, e.g. \"Melbourne, AU\"."
        case .unreachable(let service, let error):
            return "Cannot reach \(service): \(error.summary). " + (error.advice ?? "Check the network connection, or pass --lat and --lon instead of --city.")
        case .serviceFailed(let service, let status, let detail):
            let what = detail.map { ": " + ServiceText.oneLine($0) } ?? ""
            let advice = status >= 500 ? "The service is having trouble; try again in a few minutes, or pass --lat and --lon." : "Check the city name and \(Self.urlKey(service)) in the config."
            let answered = status == 200 ? "reported an error" : "answered HTTP \(status)"
            return "\(service) \(answered)\(what). \(advice)"
        case .rateLimited(let service, let retryAfter):
            let when = retryAfter.flatMap(ServiceText.retryAfter).map { " (retry after " + $0 + ")" } ?? ""
            return "\(service) is rate-limiting requests\(when). Try again later, or pass --lat and --lon."
        case .keyRejected(let service, let status, let howToSet):
            return "\(service) rejected the API key (HTTP \(status)). Check the key (\(howToSet)); a new key can take a couple of hours to activate."
        case .missingKey(let service, let howToSet):
            return "\(service) needs an API key: \(howToSet). Or set \(ConfigKey.weatherProvider) = \"open-meteo\", which needs none."
        case .undecodable(let service, let reason):
            return "\(service) sent a response that is not a list of places: \(reason). Check \(Self.urlKey(service)) in the config, or try again later."
        case .insecureBaseURL(let service, let key):
            return TransportSecurity.refusal(service: service, key: key)
        }
    }

    /// The config key of the URL of the geocoder named `service`.
    static func urlKey(_ service: String) -> String {
        switch service {
        case OpenMeteoGeocoder.name: return ConfigKey.openMeteoGeocodingURL.description
        case OpenWeatherMapGeocoder.name: return ConfigKey.baseURL(of: .openWeatherMap).description
        default: return "the service's URL"
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .notFound: return .noLocation
        case .keyRejected, .missingKey, .insecureBaseURL: return .configuration
        default: return .serviceUnavailable
        }
    }
}

/// Turns a geocoding service's HTTP exchange into its JSON body or a `GeocodingError`, by
/// `ServiceAnswer`'s rule (the one weather services and IP services follow).
enum GeocodingResponse {
    /// Throws unless `TransportSecurity` permits `baseURL` (config key `key`); before any request.
    static func requireSecure(_ baseURL: String, allowPlainHTTP: Bool, service: String, key: ConfigKey) throws {
        if TransportSecurity.permits(baseURL, allowPlainHTTP: allowPlainHTTP) { return }
        throw GeocodingError.insecureBaseURL(service: service, key: key)
    }

    /// Sends `request`; the JSON body of a 2xx answer, else the error it means. `secrets`
    /// never appear in the error (quoted service text is redacted).
    static func fetch(_ request: HTTPRequest, http: any HTTPClient, service: String, howToSetKey: String?,
                      secrets: [String] = []) async throws -> JSONValue {
        let response = try await ServiceAnswer.sendKeepingHost(request, http: http) {
            GeocodingError.unreachable(service: service, $0)
        }
        return try ServiceAnswer(response, secrets: secrets)
            .json(service: service, howToSetKey: howToSetKey, as: GeocodingError.self)
    }

    /// A coordinate from two JSON numbers, when both are present and in range.
    static func coordinate(_ latitude: JSONValue?, _ longitude: JSONValue?) -> Coordinate? {
        guard let latitude = latitude?.double, let longitude = longitude?.double,
              (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// `value` as a string when it is a non-empty one.
    static func text(_ value: JSONValue?) -> String? {
        guard let string = value?.lineText, !string.isEmpty else { return nil }
        return string
    }
}
