/// Where a permission state, or the master switch, comes from.
///
/// Listed from strongest to weakest: the system policy beats a remembered decision, which
/// beats the config file's `permission`, which beats the built-in default.
public enum PermissionOrigin: Sendable, Equatable {
    /// The administrator's system policy file at `path`.
    case systemPolicy(path: String)
    /// A decision the user made (at the prompt or with `here-weather permissions`), kept in
    /// the decisions file at `path`.
    case remembered(path: String)
    /// The user's config file at `path`.
    case configFile(path: String)
    /// The built-in default (`LocationPermission.defaultPermission(for:)`, or on for the switch).
    case defaultValue

    /// How the origin reads in `here-weather permissions`: "config file (/home/...)".
    public var description: String {
        switch self {
        case .systemPolicy(let path): return "system policy (\(path))"
        case .remembered(let path): return "remembered decision (\(path))"
        case .configFile(let path): return "config file (\(path))"
        case .defaultValue: return "default"
        }
    }
}

/// The sources a permission applies to, and how they read in prompts and messages.
extension LocationSource {
    /// The sources that ask for permission, in the order `here-weather permissions` lists
    /// them: every configurable source. Explicit input (`--lat/--lon`, `--city`, `--replay`)
    /// is not a source and never asks.
    public static var permissionSources: [LocationSource] { allCases }

    /// The source in a sentence about permission: "gpsd (GPS receiver)".
    public var permissionName: String {
        switch self {
        case .gpsd: return "gpsd (GPS receiver)"
        case .geoclue: return "GeoClue"
        case .ip: return "IP lookup"
        case .wifi: return "Wi-Fi positioning"
        case .nmea: return "the NMEA log (location.nmea.path)"
        case .fixed: return "the fixed location (location.fixed)"
        }
    }
}
