import Foundation
import Testing
@testable import HereWeatherCore

/// One way a web service (or the network to it) fails, as the fault suite stages it.
enum HTTPFault: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case connectionRefused = "connection refused"
    case dnsFailure = "DNS failure"
    case acceptsNeverAnswers = "accepts, never answers"
    case stallsMidBody = "stalls mid-body"
    case status500 = "HTTP 500"
    case status502 = "HTTP 502"
    case status503 = "HTTP 503"
    case rateLimited = "429 with Retry-After"
    case unauthorized = "HTTP 401"
    case truncatedJSON = "truncated JSON"
    case htmlWith200 = "HTML with status 200"
    case numbersAsWords = "wrong types: words where numbers are"
    case arraysForObjects = "wrong types: arrays where objects are"
    case hugeBody = "huge body"
    case redirectLoop = "redirect loop"
    case sshBanner = "not HTTP: an SSH banner"
    case garbage = "not HTTP: binary garbage"
    case continueThenJSON = "not HTTP: 100 Continue, then a bare JSON body"

    var testDescription: String { rawValue }

    /// A host that cannot resolve (RFC 2606 reserves `.invalid`).
    static let unresolvableBaseURL = "https://here-weather-fault.invalid"

    /// Whether the fault is staged by an HTTP server that records requests (not: refused,
    /// DNS, a peer that does not speak HTTP).
    var needsServer: Bool { self != .connectionRefused && self != .dnsFailure && peerGreeting(success: Data()) == nil }

    /// What a peer that does not speak HTTP sends as soon as a client connects (it then
    /// holds the connection open); `nil` for faults staged otherwise.
    func peerGreeting(success: Data) -> [UInt8]? {
        switch self {
        case .sshBanner: return Array("SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\r\n".utf8)
        case .garbage: return [0x00, 0xFF, 0x16, 0x03, 0x01, 0x02, 0x00, 0x01] + Array("\u{1B}[2J garbage\r\n\r\n".utf8)
        case .continueThenJSON: return Array("HTTP/1.1 100 Continue\r\n\r\n".utf8) + Array(success)
        default: return nil
        }
    }

    /// What the server sends for `request`; `success` is the service's real answer, the
    /// fault's raw material.
    func response(to request: FixtureServer.Request, success: Data) -> FixtureServer.Response {
        switch self {
        case .connectionRefused, .dnsFailure, .sshBanner, .garbage, .continueThenJSON:
            return .notFound
        case .acceptsNeverAnswers:
            return .hang
        case .stallsMidBody:
            var response = FixtureServer.Response(status: 200, body: Array(success))
            response.behaviour = .stallMidBody
            return response
        case .status500:
            // A stack trace over several lines, echoing the request: quoted back, it must
            // stay on one line and carry no key.
            let echo = "upstream failed for GET \(request.target) (\(request.headers["authorization"] ?? "no auth"))"
            let trace = "\(echo)\nTraceback (most recent call last):\n  File \"app.py\", line 12\nKeyError: 'x'"
            let body: JSONValue = .object([
                "error": .object(["title": .string("Internal error"), "message": .string(trace)]),
                "reason": .string(trace), "message": .string(trace), "success": .bool(false), "status": .string("fail"),
            ])
            return FixtureServer.Response(status: 500, body: Array(body.text.utf8))
        case .status502:
            return FixtureServer.Response(status: 502, headers: [("Content-Type", "text/html")],
                                          body: Array("<html>\n<head><title>502 Bad Gateway</title></head>\n<body><h1>502 Bad Gateway</h1></body>\n</html>\n".utf8))
        case .status503:
            return .json(503, #"{"error": true, "reason": "Service temporarily unavailable\nplease retry"}"#)
        case .rateLimited:
            return FixtureServer.Response(status: 429, headers: [("Content-Type", "application/json"), ("Retry-After", "120")],
                                          body: Array(#"{"cod": 429, "message": "Too many requests", "error": true, "reason": "RateLimited"}"#.utf8))
        case .unauthorized:
            return .json(401, #"{"cod": 401, "message": "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}"#)
        case .truncatedJSON:
            return FixtureServer.Response(status: 200, body: Array(success.prefix(success.count / 2)))
        case .htmlWith200:
            return .fixture("weather/misc/captive-portal.html")
        case .numbersAsWords:
            return FixtureServer.Response(status: 200, body: Array(Self.mutated(success, numbersAsWords: true).utf8))
        case .arraysForObjects:
            return FixtureServer.Response(status: 200, body: Array(Self.mutated(success, numbersAsWords: false).utf8))
        case .hugeBody:
            return FixtureServer.Response(status: 200, body: [], behaviour: .huge(bytes: 64 << 20))
        case .redirectLoop:
            return FixtureServer.Response(status: 302, headers: [("Location", request.target)], body: [])
        }
    }

    /// `body` with every number (and every string that spells only numbers, like ipinfo's
    /// `"loc": "27.9,-82.4"`) as a word, or with every object wrapped in an array.
    static func mutated(_ body: Data, numbersAsWords: Bool) -> String {
        guard let json = try? JSONValue.parse(body) else { fatalError("fixture is not JSON") }
        func walk(_ value: JSONValue) -> JSONValue {
            switch value {
            case .number where numbersAsWords:
                return .string("n/a")
            case .string(let text) where numbersAsWords && !text.isEmpty && text.allSatisfy({ "0123456789.,- ".contains($0) }):
                return .string("n/a")
            case .array(let elements):
                return .array(elements.map(walk))
            case .object(let members):
                let object = JSONValue.object(members.mapValues(walk))
                return numbersAsWords ? object : .array([object])
            default:
                return value
            }
        }
        return walk(json).text
    }
}

extension JSONValue {
    /// The value as compact JSON text (keys sorted).
    var text: String { output.serialized() }

    private var output: JSONOutput {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .number(let value): return .number(value)
        case .string(let text): return .string(text)
        case .array(let elements): return .array(elements.map(\.output))
        case .object(let members): return .object(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value.output) })
        }
    }
}
