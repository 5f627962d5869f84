/// A location source's permission, like CoreLocation's `CLAuthorizationStatus`.
public enum LocationPermission: String, Sendable, CaseIterable {
    /// Not determined: ask on a terminal, refuse without one.
    case ask
    /// Authorized.
    case allow
    /// Denied by the user.
    case deny
    /// Denied by the administrator's system policy; users cannot override it.
    case restricted

    /// The permissions a user may write in the config file.
    public static let userChoices: [LocationPermission] = [.ask, .allow, .deny]

    /// The default for each source: the fixed location is the user's own words, a log file
    /// the user named is explicit input; gpsd, GeoClue, Wi-Fi positioning and IP lookup ask
    /// first (IP lookup sends the user's address to a third party; Wi-Fi positioning the
    /// networks around).
    public static func defaultPermission(for source: LocationSource) -> LocationPermission {
        switch source {
        case .fixed, .commandLine, .city, .nmea: return .allow
        case .gpsd, .geoclue, .wifi, .ip: return .ask
        }
    }
}

/// Decides whether a source may be used now. The source chain asks it before starting each
/// source; an implementation may prompt the user on a terminal.
public protocol LocationAuthorizer: Sendable {
    /// Returns when `source` may be used; throws a `UserFacingError` (exit 77) when not.
    func authorize(_ source: LocationSource) async throws
}

/// Allows every source: for explicit input (`--lat/--lon`, `--replay`) and for tests.
public struct AllowAllAuthorizer: LocationAuthorizer {
    public init() {}
    public func authorize(_ source: LocationSource) async throws {}
}
