/// A run's system: everything outside the process that a run talks to, assembled once, in
/// the style of swift-dependencies' `liveValue`/`testValue`.
///
/// The command line builds the live one (`SystemAssembly.live`, in HereWeatherCLI: one
/// libcurl session, gpsd through libgps, GeoClue and NetworkManager over D-Bus,
/// `ContinuousClock`, the process's stderr); tests build the same value with their parts.
/// Every provider of a run is made from it (HereWeatherCLI's `Run`), so there is one HTTP
/// client per run and no stand-in for a part the caller forgot: every part is given.
public struct RunSystem: Sendable {
    /// Every web request of the run.
    public var http: any HTTPClient
    /// The gpsd source for `[location.gpsd]`.
    public var gpsd: @Sendable (Configuration.GPSDSettings) -> any LocationSourceProvider
    /// The GeoClue source.
    public var geoClue: @Sendable () -> any LocationSourceProvider
    /// The Wi-Fi access points (NetworkManager's).
    public var wifiScanner: any AccessPointScanner
    /// Deadlines and dates.
    public var clock: any RunClock
    /// The run's standard error: its lines, the progress line and the permission question.
    public var console: Console
    /// The run's `--verbose` notes that are not web requests (why a source was skipped);
    /// nothing without `--verbose` (`logging`).
    public var log: @Sendable (String) -> Void = { _ in }
    /// What `--follow` hears from outside the process (the live system: its signals).
    /// Silent unless given: only a following run starts it.
    public var followEvents: FollowEventSource = .silent

    public init(http: any HTTPClient,
                gpsd: @escaping @Sendable (Configuration.GPSDSettings) -> any LocationSourceProvider,
                geoClue: @escaping @Sendable () -> any LocationSourceProvider,
                wifiScanner: any AccessPointScanner, clock: any RunClock, console: Console) {
        self.http = http
        self.gpsd = gpsd
        self.geoClue = geoClue
        self.wifiScanner = wifiScanner
        self.clock = clock
        self.console = console
    }

    /// The same system with every web request reported through `log` as it is sent, with
    /// `secrets` redacted (`--verbose`).
    public func logging(secrets: [String], to log: @escaping @Sendable (String) -> Void) -> RunSystem {
        var system = self
        system.http = LoggingHTTPClient(base: http, secrets: secrets, log: log)
        system.log = log
        return system
    }
}
