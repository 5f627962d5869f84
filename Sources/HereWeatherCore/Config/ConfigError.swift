/// A configuration problem: exit 78, naming the file and what to fix.
public enum ConfigError: UserFacingError, Equatable {
    /// The file is not valid TOML.
    case syntax(path: String, line: Int, column: Int, detail: String)
    /// A key has a value of the wrong type or out of range; `line` is where the key is
    /// written, `suggestion` the valid value nearest to the one found.
    case invalidValue(path: String, key: String, expected: String, found: String, line: Int? = nil, suggestion: String? = nil)
    /// The file exists but cannot be read.
    case unreadable(path: String, reason: String)
    /// `version` names a format this program does not know.
    case unsupportedVersion(path: String, version: Int)

    public var message: String {
        switch self {
        case .syntax(let path, let line, let column, let detail):
            return "Config error in \(path), line \(line), column \(column): \(detail). Fix it there (here-weather.toml(5) describes every key), or replace the file with the template: \(Self.rewrite(path))."
        case .invalidValue(let path, let key, let expected, let found, let line, let suggestion):
            let place = line.map { "\(path):\($0)" } ?? path
            return "Config error in \(place): \(Self.named(key)) must be \(expected), not \(found)."
                + (suggestion.map { " Did you mean \"\($0)\"?" } ?? "")
        case .unreadable(let path, let reason):
            return "Cannot read the config file \(path): \(reason). " + Self.remedy(path: path, reason: reason)
        case .unsupportedVersion(let path, let version):
            return "Config error in \(path): version = \(version) is not supported; this here-weather reads version = 1. Upgrade here-weather or rewrite the file with \(Self.rewrite(path))."
        }
    }

    public var exitStatus: ExitStatus { .configuration }

    /// A dotted key as every message names it (`ConfigKey`): `weather.units` is
    /// `[weather] units`, `location.ip.ipinfo.token` is `[location.ip.ipinfo] token`.
    static func named(_ dotted: String) -> String {
        guard let dot = dotted.lastIndex(of: ".") else { return dotted }
        return "[\(dotted[..<dot])] \(dotted[dotted.index(after: dot)...])"
    }

    /// The command that replaces the file at `path` with the template, whichever file it is
    /// (`config init` alone writes the default path, not a `--config FILE`).
    static func rewrite(_ path: String) -> String {
        "`here-weather config init --force --config \(ConfigFileMode.shellQuoted(path))`"
    }

    /// What to do about a config file `TextFile.read` could not read.
    static func remedy(path: String, reason: String) -> String {
        switch reason {
        case TextFile.permissionDenied:
            return "Make it readable (`chmod 600 \(path)` as its owner), or pass --config FILE."
        case TextFile.isDirectory:
            return "Move the folder aside (`here-weather config init` then writes a config file there), or pass --config FILE."
        case _ where reason.hasPrefix(TextFile.tooLargePrefix):
            return "A config file is a few KB: pass --config FILE, or rewrite it with \(rewrite(path))."
        case TextFile.notUTF8:
            return "Save it as UTF-8 text, or rewrite it with \(rewrite(path))."
        case TextFile.notRegular:
            return "Replace it with a regular file (\(rewrite(path))), or pass --config FILE."
        case _ where ResourceShortage.isShortageReason(reason):
            return ResourceShortage.advice
        default:
            // An error of the disk or the system (EIO, ...): the file may be fine, and
            // rewriting it would erase its keys.
            return "Check the file and the disk it is on, then try again, or pass --config FILE."
        }
    }
}
