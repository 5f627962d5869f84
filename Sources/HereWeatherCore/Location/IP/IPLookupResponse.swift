#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns an IP-lookup service's HTTP response into a fix or a short reason, by
/// `ServiceAnswer`'s rule (the one weather services and geocoders follow).
///
/// A 2xx body must be a JSON object without the service's failure flag and with a usable
/// position. Error statuses are described by kind (rate limited, access refused, server
/// error), with the service's own words where its body has them. Anything quoted from a
/// body has the service's secrets (ipinfo's token) removed.
enum IPLookupResponse {
    static func read(_ response: HTTPResponse, from endpoint: IPServiceEndpoint) -> Result<IPFix, IPLookupFailure> {
        let answer = ServiceAnswer(response, secrets: endpoint.secrets, maxDetailLength: IPFailureText.maximumLength)
        let detail = answer.detail.map { ": " + IPFailureText.normalize($0) } ?? ""
        let status = answer.status
        switch answer.outcome {
        case .json(let body):
            guard body.isObject else { return .failure(IPLookupFailure(reason: "sent no location data: it is not a JSON object")) }
            let decoder = decoder(for: endpoint.service)
            if let flagged = decoder.failure(in: body) {
                let reason = ServiceText.oneLine(flagged, secrets: endpoint.secrets, maxLength: IPFailureText.maximumLength)
                return .failure(IPLookupFailure(reason: reason))
            }
            guard let fix = decoder.fix(from: body) else {
                return .failure(IPLookupFailure(reason: "answered without a usable position"))
            }
            return .success(fix)
        case .notJSON(let what):
            return .failure(IPLookupFailure(reason: "sent no location data: \(what)"))
        case .rateLimited(let retryAfter):
            let when = retryAfter.flatMap(ServiceText.retryAfter).map { ", retry after " + $0 } ?? ""
            return .failure(IPLookupFailure(reason: "rate limited (HTTP 429\(when))"))
        case .refused:
            let hint = endpoint.service == .ipinfo && !endpoint.secrets.isEmpty
                ? "; check \(ConfigKey.ipinfoToken)" : ""
            return .failure(IPLookupFailure(reason: "access refused (HTTP \(status))" + detail + hint))
        case .failed where status >= 500:
            return .failure(IPLookupFailure(reason: "server error (HTTP \(status))" + detail))
        case .failed:
            return .failure(IPLookupFailure(reason: "HTTP \(status)" + detail))
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
