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
        /// Why the file, which exists, could not be read at all (no permission, a folder).
        public var unreadable: String?
    }

    /// The decisions file.
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// Reads the decisions; never throws: a missing file is empty, a bad one a warning. A file
    /// that exists but cannot be read at all (no permission, a folder) is `unreadable`: every
    /// source asks again, and `remember` will not replace what it could not read.
    public func load() -> Loaded {
        let text: String
        do {
            guard let contents = try TextFile.read(path) else { return Loaded(decisions: [:], warnings: []) }
            text = contents
        } catch {
            // Junk rather than decisions: ignored, and replaced by the next decision.
            if error.reason == TextFile.notUTF8 {
                return Loaded(decisions: [:], warnings: [ignoring("it cannot be read as text")])
            }
            if error.reason.hasPrefix(TextFile.tooLargePrefix) {
                return Loaded(decisions: [:], warnings: [ignoring(error.reason)])
            }
            return Loaded(decisions: [:], warnings: ["cannot read the remembered location permissions in \(path) (\(error.reason)); every source asks again until it can. \(Self.remedy(path: path, reason: error.reason))"],
                          unreadable: error.reason)
        }
        return parse(text)
    }

    /// What to do about a decisions file that cannot be read.
    static func remedy(path: String, reason: String) -> String {
        reason == TextFile.permissionDenied
            ? "Make it readable (`chmod 600 \(path)` as its owner) or remove it."
            : "Move \(path) aside (decisions are then asked for again)."
    }

    /// Parses the text of a decisions file.
    public func parse(_ text: String) -> Loaded {
        let members: [ConfigMember]
        do {
            members = try ConfigNode.parse(text)
        } catch {
            return Loaded(decisions: [:], warnings: [ignoring("line \(error.line), column \(error.column): \(error.reason)")])
        }
        if let version = members.first(where: { $0.key == "version" })?.value, case .integer(let number) = version, number != 1 {
            return Loaded(decisions: [:], warnings: [ignoring("version = \(number) is not supported")])
        }
        let topLevel = ["version", "decisions"]
        let unknown = members.filter { !topLevel.contains($0.key) }.map { member in
            UnknownConfigKey(key: member.key, position: member.position,
                             suggestion: Suggestion.nearest(to: member.key, among: topLevel)).warning("at \(path)")
        }
        guard let node = members.first(where: { $0.key == "decisions" })?.value else {
            return Loaded(decisions: [:], warnings: unknown)
        }
        guard case .table(let entries) = node else {
            return Loaded(decisions: [:], warnings: unknown + [ignoring("decisions must be a table, not \(node.typeName)")])
        }
        var loaded = Loaded(decisions: [:], warnings: unknown)
        let sources = LocationSource.permissionSources.map(\.rawValue)
        for entry in entries {
            let (key, value) = (entry.key, entry.value)
            guard let source = LocationSource.permissionSources.first(where: { $0.rawValue == key }) else {
                let unknown = UnknownConfigKey(key: "decisions." + key, position: entry.position,
                                               suggestion: Suggestion.nearest(to: key, among: sources).map { "decisions." + $0 })
                loaded.warnings.append(unknown.warning("at \(path)"))
                continue
            }
            guard case .string(let text) = value, let permission = LocationPermission(rawValue: text),
                  permission == .allow || permission == .deny else {
                loaded.warnings.append("decisions.\(key) at \(path):\(entry.position.line) must be \"allow\" or \"deny\", not \(value.quoted) (ignored)")
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
            throw PermissionStoreError(path: path, reason: error.reason,
                                       advice: FileAdvice.forWriting(path, code: error.code,
                                                                     folder: "the folder (or set XDG_STATE_HOME)"))
        }
    }

    /// Sets (`.allow`, `.deny`) or removes (`nil`) the decision for `source`, keeping the
    /// others as they are on disk now. Returns the warnings from reading the old file. A file
    /// that cannot be read is left alone (its decisions would be lost): `PermissionStoreError`.
    @discardableResult
    public func remember(_ permission: LocationPermission?, for source: LocationSource) throws -> [String] {
        precondition(permission == nil || permission == .allow || permission == .deny, "only allow or deny is remembered")
        do {
            // Read, change and write under the lock: two runs at once would each write what
            // they read, and one decision would be lost.
            return try LockFile.withLock(lockPath) {
                var loaded = load()
                if let reason = loaded.unreadable {
                    throw PermissionStoreError(path: path, reason: "the file exists but cannot be read (\(reason)), so replacing it would lose its decisions",
                                               advice: Self.remedy(path: path, reason: reason))
                }
                loaded.decisions[source] = permission
                try save(loaded.decisions)
                return loaded.warnings
            }
        } catch let error as AtomicFile.WriteError {
            throw PermissionStoreError(path: error.path, reason: error.reason,
                                       advice: FileAdvice.forWriting(error.path, code: error.code,
                                                                     folder: "the folder (or set XDG_STATE_HOME)"))
        }
    }

    /// The lock file beside the decisions file, held while a decision is read in and written.
    public var lockPath: String { path + ".lock" }

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
        "ignoring the remembered location permissions in \(path): \(reason); the next decision replaces the file."
    }
}

/// The decisions file could not be written: exit 73.
public struct PermissionStoreError: UserFacingError, Equatable {
    public let path: String
    public let reason: String
    /// What to do about it (`FileAdvice`).
    public let advice: String

    public init(path: String, reason: String, advice: String = "Check that the folder is writable (or set XDG_STATE_HOME).") {
        self.path = path
        self.reason = reason
        self.advice = advice
    }

    public var message: String {
        "Cannot remember the decision: writing \(path) failed: \(reason). \(advice)"
    }

    public var exitStatus: ExitStatus { .cannotCreate }
}
