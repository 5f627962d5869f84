#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One official warnings service outside the US (MET Norway, DWD, MeteoAlarm): asked only
/// for points in the countries it covers, as a companion of the weather request.
public protocol AlertSource: Sendable {
    /// The name `--verbose` and `[alerts]` use ("metno", "dwd", "meteoalarm").
    var name: String { get }
    /// Whether the source covers points in country `code` (ISO 3166-1 alpha-2).
    func covers(country code: String) -> Bool
    /// The warnings at `coordinate` (in country `country`), in `language` where the service
    /// has it. Throws `AlertSourceFailure` when the service could not be asked or its answer
    /// is not what it documents; a cancelled run throws `CancellationError`.
    func alerts(at coordinate: Coordinate, country: String, language: String,
                deadline: ContinuousClock.Instant) async throws -> RegionalAlerts
    /// Decodes an answer of the service (what `alerts(at:...)` asks for) for `coordinate`;
    /// throws `AlertSourceFailure` for a body that is not the service's format.
    func alerts(fromBody body: JSONValue, at coordinate: Coordinate, country: String, language: String) throws -> RegionalAlerts
}

/// What a warnings source found for a point: the warnings there, and those of the same
/// country's feed that could not be matched to the point (never shown as local).
public struct RegionalAlerts: Sendable, Equatable {
    /// The warnings for the point.
    public var local: [WeatherAlert]
    /// Warnings elsewhere in the country, or whose area could not be matched to the point.
    public var elsewhere: [WeatherAlert]
    /// The country asked about (ISO 3166-1 alpha-2).
    public var country: String

    public init(local: [WeatherAlert], elsewhere: [WeatherAlert] = [], country: String) {
        self.local = local
        self.elsewhere = elsewhere
        self.country = country
    }
}

/// Why a warnings source gave nothing, in words that follow "alerts (dwd): ".
public struct AlertSourceFailure: Error, Equatable {
    public var reason: String

    public init(_ reason: String) {
        self.reason = reason
    }
}

/// The one GET every warnings source makes: the body as JSON, or `AlertSourceFailure`.
enum AlertRequest {
    static func json(_ url: String, headers: [(name: String, value: String)], http: any HTTPClient,
                     deadline: ContinuousClock.Instant) async throws -> JSONValue {
        let response: HTTPResponse
        do {
            response = try await http.get(HTTPRequest(url: url, headers: headers, deadline: deadline))
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw AlertSourceFailure((error as? any UserFacingError)?.message ?? "no answer")
        }
        guard (200..<300).contains(response.status) else { throw AlertSourceFailure("it answered HTTP \(response.status)") }
        guard let body = try? JSONValue.parse(response.body) else { throw AlertSourceFailure("its answer is not JSON") }
        return body
    }
}
