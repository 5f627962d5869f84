import Foundation
import Synchronization
@testable import HereWeatherCLI
@testable import HereWeatherCore
import HereWeatherDBus
import HereWeatherHTTP
import HereWeatherWiFi

extension RunSystem {
    /// A run's system for tests (`RunSystem.live`'s counterpart): libcurl for a test's local
    /// server unless told otherwise, no gpsd, no GeoClue and no NetworkManager on this
    /// "machine", and the real clock unless the test passes its `TestClock` (only with parts
    /// that wait on that clock: a real transfer or socket runs on real time).
    static func test(http: any HTTPClient = CurlHTTPClient(clock: ContinuousClock()),
                     gpsd: @escaping @Sendable (Configuration.GPSDSettings) -> any LocationSourceProvider = { _ in AbsentSource(source: .gpsd) },
                     geoClue: @escaping @Sendable () -> any LocationSourceProvider = { AbsentSource(source: .geoclue) },
                     wifiScanner: any AccessPointScanner = NoAccessPoints(),
                     clock: any RunClock = ContinuousClock(),
                     console: Console = Console(sink: CapturedOutput(), charset: .utf8, isTerminal: false)) -> RunSystem {
        RunSystem(http: http, gpsd: gpsd, geoClue: geoClue, wifiScanner: wifiScanner, clock: clock, console: console)
    }
}

extension Run {
    /// A run of `settings` on `system`, without a command line: for tests of what a `Run`
    /// makes (its providers), with the storage `environment` names.
    static func test(_ settings: Configuration = Configuration(), environment: [String: String] = [:],
                     system: RunSystem, configPath: String = "config.toml") -> Run {
        let context = CommandContext(arguments: [], environment: environment, standardOutput: CapturedOutput(),
                                     standardError: CapturedOutput(), standardInputIsTerminal: false,
                                     standardOutputIsTerminal: false, standardErrorIsTerminal: false, terminalColumns: nil,
                                     prompt: .scripted(ScriptedPrompt([], interactive: false)), assembly: .test(system))
        let loaded = ConfigurationLoader.Loaded(configuration: settings, path: configPath, fileExists: false, warnings: [])
        return Run(context: context, loaded: loaded, settings: settings, storage: RunStorage(environment: environment),
                   system: system, verbose: false)
    }
}

extension SystemAssembly {
    /// Every run gets `system` (on the run's console), whatever its environment.
    static func test(_ system: RunSystem) -> SystemAssembly {
        SystemAssembly { _, console in
            var system = system
            system.console = console
            return system
        }
    }

    /// The live system with NetworkManager and GeoClue on the bus at `address` (a private
    /// bus), as `DBUS_SYSTEM_BUS_ADDRESS` gives it to the binary: an in-process run's
    /// environment is not the process's, which sd-bus reads.
    static func live(bus address: String) -> SystemAssembly {
        SystemAssembly { environment, console in
            var system = try SystemAssembly.live.assemble(environment, console)
            // The stand-in is there: a bound a loaded machine never nears (the program's 250 ms was missed at load 15-20).
            system.wifiScanner = NetworkManagerScanner(address: address, clock: system.clock, presenceBound: .seconds(30))
            let clock = system.clock
            system.geoClue = { GeoClueLocationProvider(connect: { try DBusConnection.connect(address: address) }, clock: clock) }
            return system
        }
    }
}

/// A location source that is not on this machine (`isPresent` false), failing as the absent
/// daemon's would.
struct AbsentSource: LocationSourceProvider {
    let source: LocationSource

    func isPresent() async -> Bool { false }

    func requestLocation(_ request: LocationRequest) async throws -> Location {
        switch source {
        case .geoclue: throw GeoClueError.notRunning
        default: throw LocationError.gpsdNotRunning(address: "localhost:2947")
        }
    }
}

/// Wi-Fi access points on a machine without NetworkManager.
struct NoAccessPoints: AccessPointScanner {
    func isPresent() async -> Bool { false }
    func accessPoints(deadline: ContinuousClock.Instant) async throws -> [AccessPoint] { throw WiFiError.noNetworkManager }
}

/// An HTTP client that hands every request to `base` (libcurl) and records each URL.
final class PassingRecordingHTTPClient: HTTPClient {
    private let seen = Mutex<[String]>([])
    let base: any HTTPClient

    init(base: any HTTPClient = CurlHTTPClient(clock: ContinuousClock())) {
        self.base = base
    }

    var urls: [String] { seen.withLock { $0 } }

    func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        seen.withLock { $0.append(request.url) }
        return try await base.get(request)
    }
}
