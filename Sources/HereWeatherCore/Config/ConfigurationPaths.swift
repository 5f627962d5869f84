#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where files live, from the environment (not `NSHomeDirectory()`, which ignores `$HOME`
/// on Linux).
public struct ConfigurationPaths: Sendable {
    public let environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// `$HOME`, else the password database's home directory.
    public var home: String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        if let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir { return SystemPath.decode(cString: dir) }
        return "/"
    }

    /// `$HERE_WEATHER_CONFIG`, else `$XDG_CONFIG_HOME/here-weather/config.toml`, else
    /// `~/.config/here-weather/config.toml`.
    public var configFile: String {
        if let path = environment["HERE_WEATHER_CONFIG"], !path.isEmpty { return path }
        return xdgDirectory("XDG_CONFIG_HOME", fallback: ".config") + "/here-weather/config.toml"
    }

    /// An XDG base directory: the variable if it holds an absolute path, else `~/fallback`.
    public func xdgDirectory(_ variable: String, fallback: String) -> String {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        return home + "/" + fallback
    }
}
