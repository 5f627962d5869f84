/// Where a run keeps its files, worked out once from the environment: the one set of paths
/// for the config file's default place, the weather cache (and the NWS points kept beside
/// it), the last location, the Wi-Fi neighbourhood memory and its key, the GeoClue agent
/// memory and the remembered permission decisions.
///
/// `$XDG_CACHE_HOME/here-weather/` (default `~/.cache/here-weather/`) holds the cache;
/// `$XDG_STATE_HOME/here-weather/` (default `~/.local/state/here-weather/`) the rest
/// (`ConfigurationPaths` reads the variables, and `$HOME` rather than `NSHomeDirectory()`).
public struct RunStorage: Sendable {
    /// The config file when `--config` names none: `$HERE_WEATHER_CONFIG`, else XDG's.
    public let configFile: String
    /// The weather cache's folder.
    public let cacheDirectory: String
    /// The folder of the remembered state (location, Wi-Fi, GeoClue, permissions).
    public let stateDirectory: String

    public init(environment: [String: String]) {
        let paths = ConfigurationPaths(environment: environment)
        configFile = paths.configFile
        cacheDirectory = paths.xdgDirectory("XDG_CACHE_HOME", fallback: ".cache") + "/here-weather"
        stateDirectory = paths.xdgDirectory("XDG_STATE_HOME", fallback: ".local/state") + "/here-weather"
    }

    /// The weather cache, its ages and lock waits on `clock`.
    public func weatherCache(clock: any RunClock) -> WeatherCache {
        WeatherCache(directory: cacheDirectory, clock: clock)
    }

    /// The NWS points answers, kept in the cache's folder.
    public var nwsPoints: NWSPointsMemory { NWSPointsMemory(directory: cacheDirectory) }

    /// The last good location.
    public var lastLocation: LastLocationStore { LastLocationStore(path: stateDirectory + "/last-location.json") }

    /// The Wi-Fi source's answers by access points (and their key, beside the file).
    public var wifiNeighbourhood: WiFiNeighbourhoodMemory {
        WiFiNeighbourhoodMemory(path: stateDirectory + "/wifi-neighbourhood.json")
    }

    /// What GeoClue's missing agent was last seen as.
    public var geoClueAgent: GeoClueAgentMemory { GeoClueAgentMemory(path: stateDirectory + "/geoclue-no-agent.json") }

    /// The remembered permission decisions.
    public var permissions: PermissionStore { PermissionStore(path: stateDirectory + "/permissions.toml") }
}
