import Foundation
import Synchronization
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore
import HereWeatherDBus
import HereWeatherGPSD
import HereWeatherHTTP
import HereWeatherWiFi

/// The test system: a run's system in a test (`RunSystem.live`'s counterpart), every part of
/// it stated here.
/// - The clock: the real one unless the test passes its `TestClock`.
/// - The HTTP client: libcurl for the test's local servers, trusting the CAs the run's
///   environment names, as the live one does. A request to any host that is not this machine
///   is refused, naming the host, and fails the test (`LoopbackOnlyHTTPClient`): no test needs
///   the internet, and one that would have asked it says so.
/// - gpsd's real client (`.libgps()`) likewise reaches only this machine.
/// - gpsd, GeoClue and NetworkManager: only what the test gives (`TestPart`: the real client
///   for a local harness or a private bus, absent from this "machine", or a stand-in). A part
///   the test did not give is *forgotten*: a run that touches it fails the test naming the part
///   (`FailingPart`), rather than reaching the machine's own daemons.
extension RunSystem {
    static func test(http: any HTTPClient = CurlHTTPClient(clock: ContinuousClock()),
                     gpsd: TestPart<GPSDPart> = .forgotten,
                     geoClue: TestPart<GeoCluePart> = .forgotten,
                     wifiScanner: TestPart<any AccessPointScanner> = .forgotten,
                     clock: any RunClock = ContinuousClock(),
                     console: Console = Console(sink: CapturedOutput(), charset: .utf8, isTerminal: false)) -> RunSystem {
        RunSystem(http: LoopbackOnlyHTTPClient(base: http),
                  gpsd: gpsd.value ?? { _ in FailingPart.forgotten(.gpsd) },
                  geoClue: geoClue.value ?? { FailingPart.forgotten(.geoclue) },
                  wifiScanner: wifiScanner.value ?? FailingPart.forgotten(.wifi),
                  clock: clock, console: console)
    }
}

typealias GPSDPart = @Sendable (Configuration.GPSDSettings) -> any LocationSourceProvider
typealias GeoCluePart = @Sendable () -> any LocationSourceProvider

/// A part of the test system: given by the test, or forgotten.
enum TestPart<Value: Sendable>: Sendable {
    case given(Value)
    case forgotten

    var value: Value? {
        if case .given(let value) = self { return value }
        return nil
    }
}

extension TestPart where Value == GPSDPart {
    /// gpsd absent from this machine (nothing listens on its port).
    static var absent: Self { .given { _ in AbsentSource(source: .gpsd) } }
    /// The real libgps client (`GPSDLocationProvider`), for a test's local gpsd (`GPSDHarness`)
    /// on the config's host and port: a host that is not this machine is refused, naming it.
    static func libgps(clock: any RunClock = ContinuousClock()) -> Self {
        .given { settings in
            guard ThisMachine.isHost(settings.host) else {
                return FailingPart.refused(.gpsd, host: settings.host)
            }
            return GPSDLocationProvider(host: settings.host, port: settings.port, clock: clock)
        }
    }
    /// A provider of the test's own for every `[location.gpsd]`.
    static func standIn(_ provider: @escaping GPSDPart) -> Self { .given(provider) }
}

extension TestPart where Value == GeoCluePart {
    /// GeoClue absent from this machine.
    static var absent: Self { .given { AbsentSource(source: .geoclue) } }
    /// The real GeoClue client on the bus at `address` (a private bus).
    static func bus(_ address: String, clock: any RunClock = ContinuousClock()) -> Self {
        .given { GeoClueLocationProvider(connect: { try DBusConnection.connect(address: address) }, clock: clock) }
    }
    /// A stand-in of the test's own.
    static func standIn(_ provider: @escaping GeoCluePart) -> Self { .given(provider) }
}

extension TestPart where Value == any AccessPointScanner {
    /// No NetworkManager on this machine.
    static var absent: Self { .given(NoAccessPoints()) }
    /// The real NetworkManager client on the bus at `address` (a private bus with the
    /// stand-in), with a presence bound a loaded machine never nears (the program's 250 ms was
    /// missed at load 15-20).
    static func bus(_ address: String, clock: any RunClock = ContinuousClock()) -> Self {
        .given(NetworkManagerScanner(address: address, clock: clock, presenceBound: .seconds(30)))
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

    /// The test system of an in-process run that gives nothing but libcurl for loopback
    /// servers, trusting the CAs the run's environment names (as the live system does:
    /// `CURL_CA_BUNDLE`, `SSL_CERT_DIR`, `SSL_CERT_FILE`), and the real clock: `InProcessCommand`'s
    /// default. gpsd, GeoClue and NetworkManager are forgotten, unless given here.
    static func test(gpsd: TestPart<GPSDPart> = .forgotten, geoClue: TestPart<GeoCluePart> = .forgotten,
                     wifiScanner: TestPart<any AccessPointScanner> = .forgotten) -> SystemAssembly {
        SystemAssembly { environment, console in
            let clock = ContinuousClock()
            return RunSystem.test(http: CurlHTTPClient(trust: try CertificateTrust.fromEnvironment(environment), clock: clock),
                                  gpsd: gpsd, geoClue: geoClue, wifiScanner: wifiScanner, clock: clock, console: console)
        }
    }

    /// A machine without gpsd, GeoClue or NetworkManager (as CI's), libcurl for loopback servers.
    static var withoutDaemons: SystemAssembly { test(gpsd: .absent, geoClue: .absent, wifiScanner: .absent) }

    /// The real gpsd client for a test's local gpsd (`GPSDHarness`, a fake peer, a closed
    /// port), and neither GeoClue nor NetworkManager.
    static var gpsdOnly: SystemAssembly { test(gpsd: .libgps(), geoClue: .absent, wifiScanner: .absent) }

    /// The test system with NetworkManager and GeoClue on the bus at `address` (a private
    /// bus), as `DBUS_SYSTEM_BUS_ADDRESS` gives them to the binary (an in-process run's
    /// environment is not the process's, which sd-bus reads), and gpsd absent.
    static func test(bus address: String) -> SystemAssembly {
        test(gpsd: .absent, geoClue: .bus(address), wifiScanner: .bus(address))
    }
}

extension Run {
    /// A run of `settings` on `system`, without a command line: for tests of what a `Run`
    /// makes (its providers), with the storage `environment` names.
    static func test(_ settings: Configuration = Configuration(), environment: [String: String] = [:],
                     system: RunSystem, configPath: String = "config.toml") -> Run {
        let context = CommandContext(arguments: [], environment: environment, standardOutput: CapturedOutput(),
                                     standardError: CapturedOutput(), terminals: .init(), runsAsRoot: false,
                                     prompt: .scripted(ScriptedPrompt([], interactive: false)), assembly: .test(system))
        let loaded = ConfigurationLoader.Loaded(configuration: settings, path: configPath, fileExists: false, warnings: [])
        return Run(context: context, loaded: loaded, settings: settings, storage: RunStorage(environment: environment),
                   system: system, verbose: false)
    }
}

/// A part the test must not use: touching it fails the test saying why (`issue`), and it
/// answers as an absent part would (so the run ends).
/// - `forgotten`: a part the test did not give, named with what to pass.
/// - `refused`: a real client asked to reach another machine, named with the host.
struct FailingPart: LocationSourceProvider, AccessPointScanner {
    let source: LocationSource
    let issue: String

    static func forgotten(_ source: LocationSource) -> FailingPart {
        let part: String
        switch source {
        case .gpsd: part = "gpsd (pass gpsd: .absent, .libgps() or a stand-in to the test system)"
        case .geoclue: part = "GeoClue (pass geoClue: .absent, .bus(address) or a stand-in to the test system)"
        default: part = "NetworkManager (pass wifiScanner: .absent or .bus(address) to the test system)"
        }
        return FailingPart(source: source, issue: "The run touched \(part), which the test did not give its system.")
    }

    static func refused(_ source: LocationSource, host: String) -> FailingPart {
        FailingPart(source: source, issue: "An in-process run asked \(source.rawValue) at \(host), which is not this machine: refused.")
    }

    func isPresent() async -> Bool {
        Issue.record(Comment(rawValue: issue))
        return false
    }

    func requestLocation(_ request: LocationRequest) async throws -> Location {
        Issue.record(Comment(rawValue: issue))
        return try await AbsentSource(source: source).requestLocation(request)
    }

    func accessPoints(deadline: ContinuousClock.Instant) async throws -> [AccessPoint] {
        Issue.record(Comment(rawValue: issue))
        throw WiFiError.noNetworkManager
    }
}

/// The test system's HTTP client: `base` for this machine's servers (loopback, this machine's
/// own addresses and host name); a request to any other host is refused, naming the host, and
/// fails the test. A preconnect to another host (the weather service's connection, started
/// while the location is asked for, when the test's location fails before any weather
/// request) is dropped without a word: it sends nothing, and no test is about it.
struct LoopbackOnlyHTTPClient: HTTPClient {
    let base: any HTTPClient

    func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        let target = ServiceURL(request.url)
        guard ThisMachine.isHost(target.host) else {
            Issue.record("An in-process run asked \(target.shown) (\(ServiceURL.withoutUserInfo(request.url))), which is not this machine: a live network request, refused.")
            throw HTTPError.connectionRefused(target.shown)
        }
        return try await base.get(request)
    }

    func preconnect(to url: String, connections: Int, until deadline: ContinuousClock.Instant) {
        guard ThisMachine.isHost(ServiceURL(url).host) else { return }
        base.preconnect(to: url, connections: connections, until: deadline)
    }
}

/// The names of this machine: loopback, its interfaces' addresses and its host name.
enum ThisMachine {
    static func isHost(_ host: String) -> Bool {
        ServiceURL("http://\(host)/").isLoopback || names.contains(host.lowercased())
    }

    static let names: Set<String> = {
        var names: Set<String> = ["localhost"]
        var list: UnsafeMutablePointer<ifaddrs>?
        if getifaddrs(&list) == 0 {
            defer { freeifaddrs(list) }
            var entry = list
            while let current = entry {
                defer { entry = current.pointee.ifa_next }
                guard let address = current.pointee.ifa_addr else { continue }
                var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    var raw = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                    if inet_ntop(AF_INET, &raw, &text, socklen_t(text.count)) == nil { continue }
                case AF_INET6:
                    var raw = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                    if inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count)) == nil { continue }
                default:
                    continue
                }
                names.insert(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
        }
        var host = [CChar](repeating: 0, count: 256)
        if gethostname(&host, host.count) == 0 {
            names.insert(String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased())
        }
        return names
    }()
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
