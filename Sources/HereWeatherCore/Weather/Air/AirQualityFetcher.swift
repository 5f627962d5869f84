#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Asks Open-Meteo's Air Quality API for the air at a point now
/// (`{base_url}/v1/air-quality?latitude=&longitude=&current=european_aqi,us_aqi,pm2_5,pm10,<pollen>`),
/// for a report of any provider (`[air_quality]`).
///
/// The air adds to a report and never fails it: any failure (no answer, an error status, a
/// body that is not the service's) is no air, said in one `--verbose` line (`log`). There is
/// no retry, so that the report is not held up.
public struct AirQualityFetcher: Sendable {
    public let baseURL: String
    /// Decimals of the coordinates sent (`[privacy] coordinate_decimals`), as for the weather.
    public let coordinateDecimals: Int
    let http: any HTTPClient
    /// The run's `--verbose` notes.
    let log: @Sendable (String) -> Void

    /// The variables asked for now: both indexes, the particles, and the pollen species.
    static let currentVariables = ["european_aqi", "us_aqi", "pm2_5", "pm10"]
        + PollenSpecies.allCases.map { "\($0.rawValue)_pollen" }

    public init(baseURL: String, http: any HTTPClient, coordinateDecimals: Int = defaultCoordinateDecimals,
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.baseURL = baseURL
        self.http = http
        self.coordinateDecimals = coordinateDecimals
        self.log = log
    }

    public func requestURL(for coordinate: Coordinate) -> String {
        let point = coordinate.rounded(toDecimals: coordinateDecimals)
        return URLText.join(baseURL, path: "/v1/air-quality", query: [
            ("latitude", JSONOutput.format(point.latitude)),
            ("longitude", JSONOutput.format(point.longitude)),
            ("current", Self.currentVariables.joined(separator: ",")),
            ("timezone", "auto"),
        ])
    }

    /// The body of the answer when it holds the air now; `nil` otherwise, said in `log`. A
    /// cancelled run still throws `CancellationError`.
    public func body(for coordinate: Coordinate, deadline: ContinuousClock.Instant) async throws -> Data? {
        switch try await answer(for: coordinate, deadline: deadline) {
        case .success(let body):
            return body
        case .failure(let failure):
            log(Self.note(failure.reason))
            return nil
        }
    }

    /// The body of the answer when it holds the air now, or why there is none (`doctor` says
    /// it). A cancelled run throws `CancellationError`.
    public func answer(for coordinate: Coordinate, deadline: ContinuousClock.Instant) async throws -> Result<Data, AirQualityFailure> {
        let request = HTTPRequest(url: requestURL(for: coordinate), deadline: deadline)
        let response: HTTPResponse
        do {
            response = try await SameOriginRedirects.send(request, unreachable: { $0 }) { try await http.get($0) }
        } catch {
            if Task.isCancelled { throw CancellationError() }
            let why = (error as? any UserFacingError)?.message ?? "\(error)"
            return .failure(AirQualityFailure(reason: ServiceText.oneLine(why)))
        }
        guard (200..<300).contains(response.status) else {
            return .failure(AirQualityFailure(reason: "the service answered HTTP \(response.status)"))
        }
        guard AirQualityDecoder.decode(try? JSONValue.parse(response.body)) != nil else {
            return .failure(AirQualityFailure(reason: "the answer holds no air quality index"))
        }
        return .success(response.body)
    }

    /// The `--verbose` line for a failed request.
    static func note(_ why: String) -> String {
        "air quality: \(why); shown without it"
    }
}

/// Why the Air Quality API gave no air, in words that follow "air quality: ".
public struct AirQualityFailure: Error, Equatable {
    public var reason: String
}
