#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The Ichnaea/Google geolocate exchange: the POST body and the answer.
///
/// Request: `{"considerIp": false, "wifiAccessPoints": [{"macAddress", "signalStrength",
/// "frequency", "age"}]}`, with the signal in dBm and the age in milliseconds. Answer:
/// `{"location": {"lat", "lng"}, "accuracy"}`; errors as `{"error": {"code", "message"}}`.
enum WiFiGeolocateExchange {
    /// The body sent: no SSID, no IP fallback (`considerIp: false`).
    static func body(_ accessPoints: [AccessPoint]) -> String {
        render(accessPoints, mac: { $0 })
    }

    /// The body as `--verbose` shows it: each MAC address's last three octets masked
    /// ("f4:94:5f:xx:xx:xx"), so a log that is shared does not identify the networks.
    static func maskedBody(_ accessPoints: [AccessPoint]) -> String {
        render(accessPoints, mac: { String($0.prefix(8)) + ":xx:xx:xx" })
    }

    private static func render(_ accessPoints: [AccessPoint], mac: (String) -> String) -> String {
        JSONOutput.object([
            ("considerIp", .bool(false)),
            ("wifiAccessPoints", .array(accessPoints.map { accessPoint in
                .object([
                    ("macAddress", .string(mac(accessPoint.macAddress))),
                    ("signalStrength", .number(Double(accessPoint.signalStrength))),
                    ("frequency", .number(Double(accessPoint.frequency))),
                    ("age", .number(accessPoint.age.map(Double.init))),
                ])
            })),
        ]).serialized()
    }

    /// The host a redirect's `Location` names, fit for a message: `service` itself for a
    /// relative one, "another address" when there is none.
    static func redirectTarget(_ location: String?, service: String, secrets: [String]) -> String {
        guard let location, !location.isEmpty else { return "another address" }
        guard location.contains("://") else { return "another address on \(service)" }
        let target = ServiceText.oneLine(ServiceURL(location).shown, secrets: secrets, maxLength: 120)
        return target.isEmpty ? "another address" : target
    }

    /// The largest accuracy radius taken, in metres: half the Earth's circumference. More
    /// (1e308 was accepted and remembered) says nothing about where the access points are.
    static let maximumAccuracy = 20_000_000.0

    /// The position and radius (metres) in a response, or the error to report, classified by
    /// the rule every web service shares (`ServiceAnswer`).
    static func read(_ response: HTTPResponse, service: String, secrets: [String]) -> Result<(Coordinate, Double), WiFiError> {
        if (300..<400).contains(response.status) {
            return .failure(.redirected(service: service, status: response.status,
                                        target: redirectTarget(response.headers["location"], service: service, secrets: secrets)))
        }
        let answer = ServiceAnswer(response, secrets: secrets, maxDetailLength: 120)
        func failed(_ reason: String) -> Result<(Coordinate, Double), WiFiError> {
            .failure(.serviceFailed(service: service, reason: reason + (answer.detail.map { ": \($0)" } ?? "")))
        }
        switch answer.outcome {
        case .json(let body):
            guard body.isObject else {
                return .failure(.serviceFailed(service: service, reason: "the answer holds no location: it is not a JSON object"))
            }
            guard let latitude = body["location"]?["lat"]?.double, let longitude = body["location"]?["lng"]?.double,
                  case let coordinate = Coordinate(latitude: latitude, longitude: longitude), coordinate.isValid,
                  case .number(let accuracy)? = body["accuracy"], accuracy.isFinite, accuracy > 0,
                  accuracy <= maximumAccuracy else {
                return .failure(.serviceFailed(service: service, reason: "the answer holds no usable position and accuracy"))
            }
            return .success((coordinate, accuracy))
        case .notJSON(let what):
            return .failure(.serviceFailed(service: service, reason: "the answer holds no location: \(what)"))
        case .refused:
            return .failure(.serviceFailed(service: service, reason: "access refused (HTTP \(response.status))"
                + (answer.detail.map { ": \($0)" } ?? "") + "; check \(ConfigKey.wifiKey)"))
        case .rateLimited(let retryAfter):
            let when = retryAfter.flatMap(ServiceText.retryAfter).map { ", retry after " + $0 } ?? ""
            return failed("rate limited (HTTP 429\(when))")
        case .failed:
            switch response.status {
            case 404: return .failure(.notInDatabase(service: service))
            case 400: return failed("the request was refused (HTTP 400)")
            case 500...: return failed("server error (HTTP \(response.status))")
            default: return failed("HTTP \(response.status)")
            }
        }
    }
}
