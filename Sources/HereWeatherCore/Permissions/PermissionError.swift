/// Why a location source may not be used now: exit 77, saying what to do about it.
public enum PermissionError: UserFacingError, Equatable {
    /// `[location] enabled = false` in the user's config file; `fixedLocationSet`: the file
    /// sets a fixed location, which the switch turns off too.
    case disabledByUser(configPath: String, fixedLocationSet: Bool = false)
    /// `[location] enabled = false` in the administrator's system policy.
    case disabledByPolicy(policyPath: String)
    /// `[location.<source>] permission = "restricted"` in the system policy.
    case restricted(LocationSource, policyPath: String)
    /// The source's permission is `deny`, from a remembered decision or the config file.
    case denied(LocationSource, origin: PermissionOrigin)
    /// The permissions of these sources are `ask` and there is no terminal to ask on (status
    /// bars, cron, pipes).
    case needsDecision([LocationSource])
    /// The user answered no at the prompt; `remembered` when the answer was saved.
    case declined(LocationSource, remembered: Bool)
    /// The prompt got no answer (end of input).
    case unanswered(LocationSource)
    /// The prompt got `answers` answers, none of them one of the choices.
    case notUnderstood(LocationSource, answers: Int)

    /// The warning when `sources` are skipped for want of a terminal to ask on while another
    /// source answers.
    public static func skippedMessage(_ sources: [LocationSource]) -> String {
        let names = sources.map(\.permissionName)
        let list = names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
        return "Skipped \(list): \(sources.count == 1 ? "it needs" : "they need") your permission and there is no terminal to ask on. Run `\(grantCommand(sources))` (or `deny`) once."
    }

    public var message: String {
        switch self {
        case .disabledByUser(let path, true):
            return "Location services are off (\(ConfigKey.locationEnabled) = false in \(path)), and with them the fixed location set there. Set enabled = true there to use it, or \(Self.otherWays(for: .fixed))."
        case .disabledByUser(let path, false):
            return "Location services are off (\(ConfigKey.locationEnabled) = false in \(path)). Set enabled = true there to let here-weather find your location, or \(Self.otherWays)."
        case .disabledByPolicy(let path):
            return "Location services are turned off by the administrator (system policy \(path)); this cannot be changed here. Give the place with --city NAME or --lat and --lon."
        case .restricted(let source, let path):
            return "Location from \(source.permissionName) is restricted by the administrator (system policy \(path)); this cannot be changed here. Use another source (\(ConfigKey.locationSources)), or \(Self.otherWays(for: source))."
        case .denied(let source, let origin):
            let grant = "`here-weather permissions allow \(source.rawValue)`"
            switch origin {
            case .configFile(let path):
                return "Location from \(source.permissionName) is denied by \(ConfigKey.permission(of: source)) = \"deny\" in \(path). Change it to \"allow\" or \"ask\" there or run \(grant); or, to keep it denied, \(Self.otherWays(for: source))."
            case .remembered(let path):
                return "Location from \(source.permissionName) is denied (your decision, remembered in \(path)). Run \(grant) to allow it; or, to keep it denied, \(Self.otherWays(for: source))."
            case .systemPolicy(let path):
                return PermissionError.restricted(source, policyPath: path).message
            case .defaultValue:
                return "Location from \(source.permissionName) is denied. Run \(grant) to allow it; or, to keep it denied, \(Self.otherWays(for: source))."
            }
        case .needsDecision(let sources):
            let names = sources.map(\.permissionName)
            let list = names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
            return "Location from \(list) needs your permission and there is no terminal to ask on. Run `\(Self.grantCommand(sources))` (or `deny`) once."
        case .declined(let source, let remembered):
            return remembered
                ? "Location from \(source.permissionName) not allowed: you answered no, and that is remembered. Run `here-weather permissions allow \(source.rawValue)` to change it; or \(Self.otherWays(for: source))."
                : "Location from \(source.permissionName) not allowed: you answered no. Run `here-weather permissions allow \(source.rawValue)` to allow it; or \(Self.otherWays(for: source))."
        case .notUnderstood(let source, let answers):
            return "Location from \(source.permissionName) not allowed: \(answers) answers not understood. Run here-weather again and answer y (yes), n (no) or o (once), or run `here-weather permissions allow \(source.rawValue)`."
        case .unanswered(let source):
            return "Location from \(source.permissionName) not allowed: the permission prompt got no answer. Run here-weather again to be asked, or `here-weather permissions allow \(source.rawValue)`."
        }
    }

    public var exitStatus: ExitStatus { .notPermitted }

    /// The one source refused, when the refusal is about one.
    public var source: LocationSource? {
        switch self {
        case .restricted(let source, _), .denied(let source, _), .declined(let source, _), .unanswered(let source),
             .notUnderstood(let source, _): return source
        case .disabledByUser, .disabledByPolicy, .needsDecision: return nil
        }
    }

    /// The ways to give the place that need no location source, for every refusal: a user who
    /// keeps a source off (privacy) is never left at a dead end. A refused fixed location is
    /// not answered with "set a fixed location": it is set.
    static var otherWays: String { otherWays(for: nil) }

    /// `otherWays` for a refusal of `source`.
    static func otherWays(for source: LocationSource?) -> String {
        let flags = "give the place with --city NAME or --lat and --lon"
        return source == .fixed ? flags : flags + ", or set a fixed location (\(ConfigKey.both(.fixedLatitude, .fixedLongitude)))"
    }

    /// The one command that grants `sources`: `here-weather permissions allow gpsd ip`.
    public static func grantCommand(_ sources: [LocationSource]) -> String {
        (["here-weather permissions allow"] + sources.map(\.rawValue)).joined(separator: " ")
    }
}
