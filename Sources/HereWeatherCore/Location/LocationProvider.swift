/// A source of position fixes: one backend per source, like swift-log's handlers.
///
/// Implementations answer one request and hold nothing open afterwards.
public protocol LocationProvider: Sendable {
    /// Which source this provider reads.
    var source: LocationSource { get }
    /// One fix for `request`, or a `LocationError` by the request's deadline.
    func requestLocation(_ request: LocationRequest) async throws -> Location
}

/// Why no location could be had.
public enum LocationError: UserFacingError, Equatable {
    /// The fixed source was asked but the config names no fixed location.
    case noFixedLocation(configPath: String)
    /// No source is configured at all.
    case noSources(configPath: String)
    /// Every source failed; the reasons, in priority order.
    case allSourcesFailed([String])

    public var message: String {
        switch self {
        case .noFixedLocation(let path):
            return "No location: no fixed location is configured. Add latitude and longitude under [location.fixed] in \(path) (`here-weather config init` writes a template), or pass --lat and --lon."
        case .noSources(let path):
            return "No location: [location] sources is empty in \(path). List at least one source, e.g. sources = [\"fixed\"], or pass --lat and --lon."
        case .allSourcesFailed(let reasons):
            return reasons.count == 1 ? reasons[0] : "No location from any source: " + reasons.joined(separator: "; ")
        }
    }

    public var exitStatus: ExitStatus { .noLocation }
}
