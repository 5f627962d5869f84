#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Asks api.weather.gov for the alerts in force at a point (`/alerts/active?point=lat,lon`),
/// for the NWS provider and for US points reported by any other provider.
///
/// Alerts add to a report and never fail it: any failure (no answer, an error status, a body
/// that is not GeoJSON) is no alerts, and `--verbose` shows the exchange. There is no retry,
/// so that the report is not held up.
public struct NWSAlertsFetcher: Sendable {
    let exchange: NWSExchange
    /// Decimals of the point sent (`[privacy] coordinate_decimals`, at most 4).
    public let coordinateDecimals: Int

    public init(baseURL: String, contact: String?, http: any HTTPClient,
                coordinateDecimals: Int = defaultCoordinateDecimals, clock: any RunClock) {
        exchange = NWSExchange(baseURL: baseURL, userAgent: NWSWeatherProvider.userAgent(contact: contact), http: http,
                               clock: clock, pause: { try await clock.sleep(for: $0) })
        self.coordinateDecimals = min(coordinateDecimals, NWSWeatherProvider.maxDecimals)
    }

    init(exchange: NWSExchange, coordinateDecimals: Int) {
        self.exchange = exchange
        self.coordinateDecimals = coordinateDecimals
    }

    public func requestURL(for coordinate: Coordinate) -> String {
        let point = coordinate.rounded(toDecimals: coordinateDecimals)
        return URLText.join(exchange.baseURL, path: "/alerts/active", query: [
            ("point", JSONOutput.format(point.latitude) + "," + JSONOutput.format(point.longitude)),
        ])
    }

    /// The body of the answer when it is a feature collection; `nil` otherwise. A cancelled
    /// run still throws `CancellationError`.
    public func body(for coordinate: Coordinate, deadline: ContinuousClock.Instant) async throws -> Data? {
        if case .answered(let body) = try await answer(for: coordinate, deadline: deadline) { return body }
        return nil
    }

    /// What the alerts request met: a feature collection, or why not (for `doctor`).
    public enum Answer: Sendable, Equatable {
        case answered(Data)
        /// What went wrong, in words that follow "The NWS alerts request failed: ".
        case failed(String)
    }

    /// Asks for the alerts at `coordinate`. A cancelled run still throws `CancellationError`.
    public func answer(for coordinate: Coordinate, deadline: ContinuousClock.Instant) async throws -> Answer {
        let request = HTTPRequest(url: requestURL(for: coordinate),
                                  headers: [("User-Agent", exchange.userAgent), ("Accept", "application/geo+json")],
                                  deadline: deadline)
        let response: HTTPResponse
        do {
            response = try await SameOriginRedirects.send(request, unreachable: { $0 }) { try await exchange.http.get($0) }
        } catch {
            if Task.isCancelled { throw CancellationError() }
            return .failed((error as? any UserFacingError)?.message ?? "\(error)")
        }
        guard (200..<300).contains(response.status) else { return .failed("it answered HTTP \(response.status)") }
        guard let body = try? JSONValue.parse(response.body), body["features"]?.array != nil else {
            return .failed("its answer is not a list of alerts (a GeoJSON feature collection)")
        }
        return .answered(response.body)
    }
}
