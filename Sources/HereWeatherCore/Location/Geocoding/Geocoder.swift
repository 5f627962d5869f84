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
    /// Which service it is (its name in messages and `Location.service`, its config key).
    var kind: GeocoderKind { get }
    /// The places the service finds for `query`, best first (possibly none), by `deadline`.
    /// Throws a `GeocodingError` when the service cannot be asked or fails.
    func search(_ query: CityQuery, deadline: ContinuousClock.Instant) async throws -> [GeocodedPlace]
}

/// Why a city name gave no location.
public enum GeocodingError: UserFacingError, Equatable {
    /// The service found nothing for `name`, or nothing that matches the `qualifiers`;
    /// `suggestion` is the place they nearly name ("Melbourne, Florida, US" for "Florda"),
    /// `others` the places it did find (shown to help pick a qualifier).
    case notFound(name: String, qualifiers: [String], suggestion: String?, others: [String])
    /// The service failed in one of the ways every web service can (`ServiceFailure`), worded
    /// for a place name (the advice: pass `--lat` and `--lon` instead).
    case service(GeocoderKind, ServiceFailure)

    public var message: String {
        switch self {
        case .notFound(let name, let qualifiers, let suggestion, let others):
            let place = "No place named \"\(name)\""
            let within = qualifiers.isEmpty ? "" : " in " + qualifiers.joined(separator: ", ")
            if let suggestion { return "\(place)\(within); did you mean \"\(suggestion)\"?" }
            let found = others.isEmpty ? " found\(within)" : "\(within) (found only: " + others.joined(separator: "; ") + ")"
            return "\(place)\(found); check the spelling or add a country code, e.g. \"Melbourne, AU\"."
        case .service(let kind, let failure):
            return failure.message(.geocoding(kind))
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .notFound: return .noLocation
        case .service(_, let failure): return failure.exitStatus
        }
    }
}

/// Turns a geocoding service's HTTP exchange into its JSON body or a `GeocodingError`, by
/// `ServiceAnswer`'s rule (the one weather services and IP services follow).
enum GeocodingResponse {
    /// Throws unless `TransportSecurity` permits `service`'s URL `baseURL`; before any request.
    static func requireSecure(_ baseURL: String, allowPlainHTTP: Bool, service: GeocoderKind) throws {
        if TransportSecurity.permits(baseURL, allowPlainHTTP: allowPlainHTTP) { return }
        throw GeocodingError.service(service, .insecureBaseURL(key: service.urlKey))
    }

    /// Sends `request`; the JSON body of a 2xx answer, else the error it means. `secrets`
    /// never appear in the error (quoted service text is redacted).
    static func fetch(_ request: HTTPRequest, http: any HTTPClient, service: GeocoderKind, howToSetKey: String?,
                      secrets: [String] = []) async throws -> JSONValue {
        let response = try await ServiceAnswer.sendKeepingHost(request, http: http) {
            GeocodingError.service(service, .unreachable($0))
        }
        do {
            return try ServiceAnswer(response, secrets: secrets).json(howToSetKey: howToSetKey)
        } catch {
            throw GeocodingError.service(service, error)
        }
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
