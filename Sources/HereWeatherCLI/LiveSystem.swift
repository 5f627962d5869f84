import HereWeatherCore
import HereWeatherDBus
import HereWeatherGPSD
import HereWeatherHTTP
import HereWeatherWiFi

/// How a run assembles its system (`RunSystem`): the live one for the process, or a test's
/// fakes. It is part of the `CommandContext`; a command assembles the system once per run,
/// with the run's environment, and makes every provider from it.
public struct SystemAssembly: Sendable {
    /// Builds the system for a run with this environment; throws the user-facing error when
    /// the environment names what cannot be used (a CA bundle that cannot be read).
    public let assemble: @Sendable (_ environment: [String: String]) throws -> RunSystem

    public init(_ assemble: @escaping @Sendable (_ environment: [String: String]) throws -> RunSystem) {
        self.assemble = assemble
    }

    /// The machine's: libcurl trusting the CAs the environment names (`CURL_CA_BUNDLE`,
    /// `SSL_CERT_DIR`, `SSL_CERT_FILE`: `CertificateTrust`), gpsd through libgps, GeoClue and
    /// NetworkManager on the system bus, `ContinuousClock`.
    public static let live = SystemAssembly { environment in
        let clock = ContinuousClock()
        return RunSystem(http: CurlHTTPClient(trust: try CertificateTrust.fromEnvironment(environment)),
                         gpsd: { GPSDLocationProvider(host: $0.host, port: $0.port, clock: clock) },
                         geoClue: { GeoClueLocationProvider() },
                         wifiScanner: NetworkManagerScanner(),
                         clock: clock)
    }
}

extension CommandContext {
    /// The run's system, assembled once for a command that talks to the outside: with
    /// `verbose`, every web request is reported on stderr as sent, with the secrets of
    /// `settings` redacted.
    func system(verbose: Bool, settings: Configuration) throws -> RunSystem {
        let system = try assembly.assemble(environment)
        guard verbose else { return system }
        let standardError = self.standardError
        let charset = TextCharset.locale(environment)
        return system.logging(secrets: ProviderFactory.secrets(settings, environment: environment)) {
            Terminal.standardError($0, to: standardError, charset: charset)
        }
    }
}
