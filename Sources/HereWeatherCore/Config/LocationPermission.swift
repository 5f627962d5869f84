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
    /// the user named is explicit input; the sources that find the machine ask first (IP
    /// lookup and Wi-Fi positioning tell a third party, GeoClue may).
    public static func defaultPermission(for source: LocationSource) -> LocationPermission {
        switch source {
        case .fixed, .nmea: return .allow
        case .gpsd, .geoclue, .wifi, .ip: return .ask
        }
    }
}

/// Decides whether sources may be used now. The source chain asks it about every source
/// it may start, all at once; an implementation may prompt the user on a terminal (once).
public protocol LocationAuthorizer: Sendable {
    /// The refusal for each of `sources`, in order (`nil`: the source may be used).
    func authorize(_ sources: [LocationSource]) async -> [PermissionError?]
}

extension LocationAuthorizer {
    /// Returns when `source` may be used; throws its `PermissionError` (exit 77) when not.
    public func authorize(_ source: LocationSource) async throws {
        if let refusal = await authorize([source]).first ?? nil { throw refusal }
    }
}

/// Allows every source: for explicit input (`--lat/--lon`, `--replay`) and for tests.
public struct AllowAllAuthorizer: LocationAuthorizer {
    public init() {}
    public func authorize(_ sources: [LocationSource]) async -> [PermissionError?] {
        sources.map { _ in nil }
    }
}
