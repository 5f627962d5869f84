#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns an IP-lookup service's HTTP response into a fix or a short reason.
///
/// A 2xx body must be a JSON object without the service's failure flag and with a usable
/// position. Error statuses are described by kind (rate limited, access refused, server
/// error), with the service's own words where its body has them. Anything quoted from a
/// body has the service's secrets (ipinfo's token) removed.
enum IPLookupResponse {
    static func read(_ response: HTTPResponse, from endpoint: IPServiceEndpoint) -> Result<IPFix, IPLookupFailure> {
        let decoder = decoder(for: endpoint.service)
        let body = try? JSONValue.parse(response.body)
        let detail = body.flatMap { decoder.failure(in: $0) }.map {
            ServiceText.oneLine($0, secrets: endpoint.secrets, maxLength: IPFailureText.maximumLength)
        }
        let status = response.status
        switch status {
        case 200..<300:
            guard let body, body.isObject else {
                let what = body == nil ? WeatherServiceResponse.describeNonJSON(response.body) : "it is not a JSON object"
                return .failure(IPLookupFailure(reason: "sent no location data: \(what)"))
            }
            if let detail { return .failure(IPLookupFailure(reason: detail)) }
            guard let fix = decoder.fix(from: body) else {
                return .failure(IPLookupFailure(reason: "answered without a usable position"))
            }
            return .success(fix)
        case 429:
            let when = response.headers["retry-after"].map { ", retry after " + ServiceText.retryAfter($0) } ?? ""
            return .failure(IPLookupFailure(reason: "rate limited (HTTP 429\(when))"))
        case 401, 403:
            let hint = endpoint.service == .ipinfo && !endpoint.secrets.isEmpty
                ? "; check the token under [location.ip.ipinfo]" : ""
            return .failure(IPLookupFailure(reason: "access refused (HTTP \(status))" + (detail.map { ": \($0)" } ?? "") + hint))
        case 500...:
            return .failure(IPLookupFailure(reason: "server error (HTTP \(status))" + (detail.map { ": \($0)" } ?? "")))
        default:
            return .failure(IPLookupFailure(reason: "HTTP \(status)" + (detail.map { ": \($0)" } ?? "")))
        }
    }

    /// The decoder for `service`'s body format.
    static func decoder(for service: IPService) -> any IPServiceDecoder.Type {
        switch service {
        case .ipinfo: return IPInfoDecoder.self
        case .ipwhois: return IPWhoisDecoder.self
        case .ipapi: return IPAPICoDecoder.self
        case .ipApiCom: return IPAPIComDecoder.self
        }
    }
}
