import HereWeatherCore
import HereWeatherDBus
import HereWeatherGPSD
import HereWeatherHTTP
import HereWeatherWiFi

/// How a run assembles its system (`RunSystem`): the live one for the process, or a test's.
/// It is part of the `CommandContext`; a command's `Run` assembles the system once, with the
/// run's environment and console, and makes every provider from it.
public struct SystemAssembly: Sendable {
    /// Builds the system for a run with this environment and console; throws the user-facing
    /// error when the environment names what cannot be used (a CA bundle that cannot be read).
    public let assemble: @Sendable (_ environment: [String: String], _ console: Console) throws -> RunSystem

    public init(_ assemble: @escaping @Sendable (_ environment: [String: String], _ console: Console) throws -> RunSystem) {
        self.assemble = assemble
    }

    /// The machine's: libcurl trusting the CAs the environment names (`CURL_CA_BUNDLE`,
    /// `SSL_CERT_DIR`, `SSL_CERT_FILE`: `CertificateTrust`), gpsd through libgps, GeoClue and
    /// NetworkManager on the system bus, the process's signals and the system bus's sleep,
    /// resume and network for `--follow`,
    /// `ContinuousClock`: the one place the live clock is
    /// chosen, and every part that keeps time is handed it.
    public static let live = SystemAssembly { environment, console in
        let clock = ContinuousClock()
        var system = RunSystem(http: CurlHTTPClient(trust: try CertificateTrust.fromEnvironment(environment), clock: clock),
                               gpsd: { GPSDLocationProvider(host: $0.host, port: $0.port, clock: clock) },
                               geoClue: { GeoClueLocationProvider(clock: clock) },
                               wifiScanner: NetworkManagerScanner(clock: clock),
                               clock: clock, console: console)
        system.followEvents = .merging([.processSignals, .systemBus])
        return system
    }
}
