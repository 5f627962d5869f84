#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The NWS's answer to `/points/{lat},{lon}` for each rounded point asked, kept in the cache
/// directory (`nws-points_<lat>_<lon>.json`): a point's forecast grid and stations do not
/// move, so later runs go straight to its forecasts.
///
/// Written atomically; a file that is missing, too large or not a points answer reads as
/// none (and is replaced by the next answer). The URLs inside are followed only on the
/// configured base URL's host (`NWSWeatherProvider.onBaseURL`), whatever the file says.
public struct NWSPointsMemory: Sendable {
    public let directory: String
    /// A points answer is a few kilobytes.
    static let maximumFileBytes = 256 * 1024

    public init(directory: String) {
        self.directory = directory
    }

    public func path(for point: Coordinate) -> String {
        directory + "/nws-points_" + JSONOutput.format(point.latitude) + "_" + JSONOutput.format(point.longitude) + ".json"
    }

    /// The stored answer for `point` as stored and parsed, if there is a usable one.
    public func load(_ point: Coordinate) -> (data: Data, value: JSONValue)? {
        guard let bytes = try? TextFile.bytes(path(for: point), limit: Self.maximumFileBytes) else { return nil }
        let data = Data(bytes)
        guard let body = try? JSONValue.parse(data), NWSPoints(body) != nil else { return nil }
        return (data, body)
    }

    /// Stores `body` for `point`; a memory that cannot be written costs a request next time.
    public func store(_ body: Data, for point: Coordinate) {
        try? AtomicFile.write(bytes: Array(body), to: path(for: point), overwrite: true)
    }

    /// Forgets `point` (its grid answered 404: the NWS moved it).
    public func forget(_ point: Coordinate) {
        unlink(path(for: point))
    }
}

/// The URLs a points answer gives (`properties.forecast`, `forecastHourly`,
/// `observationStations`); `nil` when the forecasts are missing.
struct NWSPoints: Equatable {
    var forecast: String
    var forecastHourly: String
    var observationStations: String?

    init?(_ body: JSONValue) {
        let properties = body["properties"]
        guard let forecast = properties?["forecast"]?.string, let hourly = properties?["forecastHourly"]?.string else {
            return nil
        }
        self.forecast = forecast
        self.forecastHourly = hourly
        self.observationStations = properties?["observationStations"]?.string
    }
}
