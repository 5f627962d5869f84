#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The user's remembered decisions: "always" and "never" answers at the prompt, and
/// `here-weather permissions allow|deny|reset SOURCE`.
///
/// Kept apart from the config file, which is never rewritten (its comments and layout are
/// the user's), in `$XDG_STATE_HOME/here-weather/permissions.toml`
/// (default `~/.local/state/here-weather/permissions.toml`), written atomically with mode 0600:
///
/// ```toml
/// version = 1
/// [decisions]
/// gpsd = "allow"
/// ip = "deny"
/// ```
///
/// A file that cannot be read or parsed is reported as a warning and treated as empty;
/// the next decision replaces it. Entries with an unknown source or a value other than
/// "allow" or "deny" are skipped with a warning.
public struct PermissionStore: Sendable {
    /// The remembered decisions, each `.allow` or `.deny`.
    public typealias Decisions = [LocationSource: LocationPermission]

    /// What `load()` found.
    public struct Loaded: Sendable, Equatable {
        public var decisions: Decisions
        /// Why some or all of the file was ignored, for stderr.
        public var warnings: [String]
    }

    /// The decisions file.
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The store at `$XDG_STATE_HOME/here-weather/permissions.toml` (default
    /// `~/.local/state/here-weather/permissions.toml`).
    public init(environment: [String: String]) {
        let state = ConfigurationPaths(environment: environment).xdgDirectory("XDG_STATE_HOME", fallback: ".local/state")
        self.init(path: state + "/here-weather/permissions.toml")
    }

    /// Reads the decisions; never throws: a missing file is empty, a bad one a warning.
    public func load() -> Loaded {
        guard FileManager.default.fileExists(atPath: path) else { return Loaded(decisions: [:], warnings: []) }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)),
              let text = String(data: data, encoding: .utf8) else {
            return Loaded(decisions: [:], warnings: [ignoring("it cannot be read as text")])
        }
        return parse(text)
    }

    /// Parses the text of a decisions file.
    public func parse(_ text: String) -> Loaded {
        let members: [(key: String, value: ConfigNode)]
        do {
            members = try ConfigNode.parse(text)
        } catch {
            return Loaded(decisions: [:], warnings: [ignoring("line \(error.line), column \(error.column): \(error.reason)")])
        }
        if let version = members.first(where: { $0.key == "version" })?.value, case .integer(let number) = version, number != 1 {
            return Loaded(decisions: [:], warnings: [ignoring("version = \(number) is not supported")])
        }
        guard let node = members.first(where: { $0.key == "decisions" })?.value else {
            return Loaded(decisions: [:], warnings: [])
        }
        guard case .table(let entries) = node else {
            return Loaded(decisions: [:], warnings: [ignoring("decisions must be a table, not \(node.typeName)")])
        }
        var loaded = Loaded(decisions: [:], warnings: [])
        for (key, value) in entries {
            guard let source = LocationSource.permissionSources.first(where: { $0.rawValue == key }) else {
                loaded.warnings.append("warning: unknown source \"\(key)\" in \(path) (ignored)")
                continue
            }
            guard case .string(let text) = value, let permission = LocationPermission(rawValue: text),
                  permission == .allow || permission == .deny else {
                loaded.warnings.append("warning: decisions.\(key) in \(path) must be \"allow\" or \"deny\", not \(value.quoted) (ignored)")
                continue
            }
            loaded.decisions[source] = permission
        }
        return loaded
    }

    /// Writes `decisions`, replacing the file atomically (mode 0600, folders created 0700).
    public func save(_ decisions: Decisions) throws {
        do {
            try AtomicFile.write(Self.render(decisions), to: path, overwrite: true, mode: 0o600)
        } catch let error as AtomicFile.WriteError {
            throw PermissionStoreError(path: path, reason: error.reason)
        }
    }

    /// Sets (`.allow`, `.deny`) or removes (`nil`) the decision for `source`, keeping the
    /// others as they are on disk now. Returns the warnings from reading the old file.
    @discardableResult
    public func remember(_ permission: LocationPermission?, for source: LocationSource) throws -> [String] {
        precondition(permission == nil || permission == .allow || permission == .deny, "only allow or deny is remembered")
        var loaded = load()
        loaded.decisions[source] = permission
        try save(loaded.decisions)
        return loaded.warnings
    }

    /// The file's text for `decisions`, sources in `LocationSource.permissionSources` order.
    public static func render(_ decisions: Decisions) -> String {
        var text = """
            # Location permissions remembered by here-weather (your "always" and "never" answers).
            # Change them with `here-weather permissions allow|deny|reset SOURCE`.
            version = 1

            [decisions]

            """
        for source in LocationSource.permissionSources {
            guard let permission = decisions[source] else { continue }
            text += "\(source.rawValue) = \"\(permission.rawValue)\"\n"
        }
        return text
    }

    private func ignoring(_ reason: String) -> String {
        "warning: ignoring the remembered location permissions in \(path): \(reason); the next decision replaces the file."
    }
}

/// The decisions file could not be written: exit 73.
public struct PermissionStoreError: UserFacingError, Equatable {
    public let path: String
    public let reason: String

    public var message: String {
        "Cannot remember the decision: writing \(path) failed: \(reason). Check that the folder is writable (or set XDG_STATE_HOME)."
    }

    public var exitStatus: ExitStatus { .cannotCreate }
}
