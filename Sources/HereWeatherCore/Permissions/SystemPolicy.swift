#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The administrator's location policy, which users cannot override.
///
/// Read from `/etc/here-weather/policy.toml`. `$HERE_WEATHER_SYSTEM_POLICY` names another file
/// only for root (tests, packagers), who can change the default file anyway; for everyone else
/// it is ignored with a warning, so that a user cannot escape the policy by naming a missing
/// file. The file can only take rights away:
///
/// ```toml
/// [location]
/// enabled = false                # location services off for everyone (true: no effect)
/// [location.ip]
/// permission = "restricted"      # or "deny", a synonym; "allow"/"ask": no effect, a warning
/// ```
///
/// A missing file is no policy. A file that exists but cannot be read or is not valid fails
/// closed: `load(path:)` throws `SystemPolicyError` (exit 78), since ignoring an
/// administrator's restriction would be wrong. Unknown keys are reported as warnings.
public struct SystemPolicy: Sendable, Equatable {
    /// The default path of the policy file.
    public static let defaultPath = "/etc/here-weather/policy.toml"
    /// The environment variable that names another policy file, honoured for root only (for
    /// tests and packagers).
    public static let pathVariable = "HERE_WEATHER_SYSTEM_POLICY"

    /// Whether this process runs as root (real and effective), who alone may redirect the policy.
    public static var runsAsRoot: Bool { getuid() == 0 && geteuid() == 0 }

    /// The file this policy was read from (or would be, when it does not exist).
    public var path: String
    /// Whether the file exists.
    public var fileExists: Bool
    /// False when the policy turns location services off.
    public var locationEnabled: Bool
    /// Sources the policy restricts.
    public var restricted: Set<LocationSource>
    /// Things noticed while reading, for stderr: unknown keys, values with no effect.
    public var warnings: [String]

    /// No policy: everything left to the user.
    public init(path: String = SystemPolicy.defaultPath, fileExists: Bool = false, locationEnabled: Bool = true,
                restricted: Set<LocationSource> = [], warnings: [String] = []) {
        self.path = path
        self.fileExists = fileExists
        self.locationEnabled = locationEnabled
        self.restricted = restricted
        self.warnings = warnings
    }

    /// `$HERE_WEATHER_SYSTEM_POLICY` when set, not empty and `asRoot`, else `defaultPath`.
    public static func path(environment: [String: String], asRoot: Bool = runsAsRoot) -> String {
        if asRoot, let path = environment[pathVariable], !path.isEmpty { return path }
        return defaultPath
    }

    /// Loads the policy from the environment's path, with a warning when the environment names
    /// a file that this user may not choose.
    public static func load(environment: [String: String], asRoot: Bool = runsAsRoot) throws -> SystemPolicy {
        var policy = try load(path: path(environment: environment, asRoot: asRoot))
        if !asRoot, let named = environment[pathVariable], !named.isEmpty, named != defaultPath {
            policy.warnings.insert("\(pathVariable) is ignored: only root may point here-weather at another system policy; \(defaultPath) applies.", at: 0)
        }
        return policy
    }

    /// Loads the policy at `path`: none when the file is missing; throws `SystemPolicyError`
    /// when it exists but cannot be read or is invalid.
    public static func load(path: String) throws -> SystemPolicy {
        let text: String
        do {
            guard let contents = try TextFile.read(path) else { return SystemPolicy(path: path) }
            text = contents
        } catch {
            throw SystemPolicyError.unreadable(path: path, reason: error.reason)
        }
        return try parse(text, path: path)
    }

    /// Parses policy text; `path` is used in messages.
    public static func parse(_ text: String, path: String) throws -> SystemPolicy {
        let members: [ConfigMember]
        do {
            members = try ConfigNode.parse(text)
        } catch {
            throw SystemPolicyError.invalid(path: path, detail: "line \(error.line), column \(error.column): \(error.reason)")
        }
        var policy = SystemPolicy(path: path, fileExists: true)
        let root = ConfigTable(path: path, prefix: "", members: members)
        do {
            if let version = try root.integer("version"), version != 1 {
                throw SystemPolicyError.invalid(path: path, detail: "version = \(version) is not supported (this here-weather reads version = 1)")
            }
            if let location = try root.table("location") {
                policy.locationEnabled = try location.bool("enabled") ?? true
                for source in LocationSource.permissionSources {
                    guard let table = try location.table(source.rawValue) else { continue }
                    try readPermission(table, source: source, into: &policy)
                }
            }
        } catch ConfigError.invalidValue(_, let key, let expected, let found) {
            throw SystemPolicyError.invalid(path: path, detail: "\(key) must be \(expected), not \(found)")
        }
        policy.warnings += UnknownConfigKey.warnings(root.unknownKeys, file: "in the system policy \(path)")
        return policy
    }

    private static func readPermission(_ table: ConfigTable, source: LocationSource, into policy: inout SystemPolicy) throws {
        guard let value = try table.string("permission") else { return }
        switch value {
        case "restricted", "deny":
            policy.restricted.insert(source)
        case "allow", "ask":
            policy.warnings.append("\(table.qualified("permission")) = \"\(value)\" in the system policy \(policy.path) has no effect: a policy can only restrict a source (\"restricted\"); users decide the rest.")
        default:
            throw SystemPolicyError.invalid(path: policy.path, detail: "\(table.qualified("permission")) must be \"restricted\" (or \"deny\"), not \"\(value)\"")
        }
    }
}

/// A system policy file that exists but cannot be used: exit 78. here-weather refuses
/// automatic location rather than ignore an administrator's policy.
public enum SystemPolicyError: UserFacingError, Equatable {
    /// The file exists but cannot be read.
    case unreadable(path: String, reason: String)
    /// The file is not valid TOML or holds a bad value.
    case invalid(path: String, detail: String)

    public var message: String {
        switch self {
        case .unreadable(let path, let reason):
            return "Cannot read the system location policy \(path): \(reason). Automatic location stays off until the administrator fixes it; give the place with --lat and --lon meanwhile."
        case .invalid(let path, let detail):
            return "Invalid system location policy \(path): \(detail). Automatic location stays off until the administrator fixes it; give the place with --lat and --lon meanwhile."
        }
    }

    public var exitStatus: ExitStatus { .configuration }
}
