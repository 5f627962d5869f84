#if canImport(Glibc)
import Glibc
#endif

/// The warning for a config file that holds a secret (an API key, ipinfo's token) and that
/// other users can read: the key is as good as theirs. Only the file's own values count;
/// a key from the environment is not in the file.
enum ConfigFileMode {
    /// The one-line warning with the command that fixes it, or `nil` when the file holds no
    /// secret, cannot be examined, or is readable by its owner alone.
    static func warning(path: String, configuration: Configuration) -> String? {
        guard holdsSecret(configuration) else { return nil }
        var info = stat()
        guard SystemPath.withCString(path, { stat($0, &info) }) == 0 else { return nil }
        let mode = info.st_mode & 0o777
        guard mode & 0o044 != 0 else { return nil }
        let readers = mode & 0o004 != 0 ? "every user" : "its group"
        return "\(path) holds an API key or token and is readable by \(readers) (mode \(octal(mode))); run `chmod 600 \(shellQuoted(path))`"
    }

    /// Whether the file set any secret.
    static func holdsSecret(_ configuration: Configuration) -> Bool {
        !configuration.secretsInFile.isEmpty
    }

    /// `0644`.
    static func octal(_ mode: mode_t) -> String {
        "0" + String(mode, radix: 8)
    }

    /// `path` as a shell word: as is when it needs no quoting, else in single quotes.
    static func shellQuoted(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy {
            ($0.properties.isAlphabetic && $0.isASCII) || ("0"..."9").contains($0) || "/._-+@%:,=".unicodeScalars.contains($0)
        }
        if plain && !path.isEmpty { return path }
        return "'" + path.replacing("'", with: "'\\''") + "'"
    }
}
