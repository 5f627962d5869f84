#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The location from the Wi-Fi networks around: the access points NetworkManager sees,
/// sent to an Ichnaea-compatible geolocate service (BeaconDB by default).
///
/// What is sent follows `WiFiSelection` (no SSIDs, no `_nomap`, hidden or randomised
/// networks, at most 20, nothing with fewer than 2): the failure for too few comes before
/// any request, at once. The URL is checked first (https, unless `allow_plain_http` or a
/// loopback host), the key travels as `?key=` and is never printed, a redirect is never
/// followed (it would send the access points to a host nobody agreed to), and the request names
/// here-weather and its version in its User-Agent, as BeaconDB asks. An answer is
/// remembered against its access points (`WiFiNeighbourhoodMemory`): the same
/// neighbourhood costs no request for `remember_days` (7 by default; the access points have
/// not moved, so the answer is a current fix, not one aged by max age). The fix's accuracy is the service's
/// radius, judged against the request at once (asking again would not improve it).
public struct WiFiLocationProvider: LocationSourceProvider {
    public var source: LocationSource { .wifi }
    public let settings: WiFiSettings
    private let scanner: any AccessPointScanner
    private let http: any HTTPClient
    private let memory: WiFiNeighbourhoodMemory?
    private let configPath: String
    /// The run's clock: fixes and remembered answers are dated on it.
    private let clock: any RunClock

    /// Sent with every request: BeaconDB asks clients to identify themselves.
    public static let userAgent = "here-weather/\(HereWeatherVersion.current) (+https://github.com/here-weather/here-weather)"
    /// The largest answer read.
    static let maxBodyBytes = 64 << 10

    public init(settings: WiFiSettings, scanner: any AccessPointScanner, http: any HTTPClient,
                memory: WiFiNeighbourhoodMemory? = nil, configPath: String = "the config file",
                clock: any RunClock) {
        self.clock = clock
        self.settings = settings
        self.scanner = scanner
        self.http = http
        self.memory = memory
        self.configPath = configPath
    }

    /// NetworkManager runs with a Wi-Fi device: local, nothing is sent.
    public func isPresent() async -> Bool { await scanner.isPresent() }

    /// Throws the `ConfigError` for a URL that may not be asked. Makes no request.
    public func validate() throws { try settings.validate(configPath: configPath) }

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        try validate()
        let selection = WiFiSelection(try await scanner.accessPoints(deadline: request.deadline))
        guard selection.isEnough else { throw WiFiError.tooFewAccessPoints(summary: selection.summary) }
        let macAddresses = Set(selection.used.map(\.macAddress))
        let now = clock.date
        if let remembered = memory?.answer(for: macAddresses, serviceURL: settings.baseURL, now: now),
           now.timeIntervalSince(remembered.timestamp) <= settings.rememberDays * 86_400 {
            // A neighbourhood is a place: the access points just seen are where they were, so
            // the position is current (the scan is now), whatever the age of the answer.
            let fix = location(remembered.coordinate, accuracy: remembered.accuracy, timestamp: now,
                               count: remembered.macAddresses.count)
            return FixSelector.judgedAtOnce(fix, for: request, now: now)
        }
        try Task.checkCancellation()
        // A crowd read from a slow NetworkManager can leave no time: a request sent now would
        // blame a service that was never given the chance to answer. Read on the run's clock,
        // which the deadline is an instant of (the POST gets the real time it leaves).
        guard clock.now.duration(to: request.deadline) > Self.leastTimeToAsk else {
            throw WiFiError.noTimeLeftToAsk(host: settings.host, seen: selection.seen, seconds: request.timeoutSeconds)
        }
        let (coordinate, accuracy) = try await ask(selection.used, deadline: request.deadline)
        let answered = clock.date
        memory?.save(.init(coordinate: coordinate, accuracy: accuracy, timestamp: answered,
                           macAddresses: macAddresses, serviceURL: settings.baseURL))
        return FixSelector.judgedAtOnce(location(coordinate, accuracy: accuracy, timestamp: answered, count: selection.used.count),
                                        for: request, now: answered)
    }

    /// Below this much time left after the scan, the service is not asked.
    static let leastTimeToAsk = Duration.milliseconds(50)

    /// POSTs the access points; the position and radius, or a `WiFiError`.
    func ask(_ accessPoints: [AccessPoint], deadline: ContinuousClock.Instant) async throws -> (Coordinate, Double) {
        let request = HTTPRequest(
            url: settings.requestURL,
            headers: [(name: "Content-Type", value: "application/json"), (name: "User-Agent", value: Self.userAgent)],
            deadline: deadline, maxBodyBytes: Self.maxBodyBytes,
            method: "POST", body: Data(WiFiGeolocateExchange.body(accessPoints).utf8),
            loggedBody: WiFiGeolocateExchange.maskedBody(accessPoints), followsRedirects: false)
        let response = try await ServiceAnswer.send(request, http: http) { error in
            WiFiError.serviceFailed(host: settings.host, reason: error.summary)
        }
        return try WiFiGeolocateExchange.read(response, host: settings.host, secrets: secrets).get()
    }

    /// Secrets never to quote back.
    var secrets: [String] { [settings.key].compactMap { $0 }.filter { !$0.isEmpty } }

    private func location(_ coordinate: Coordinate, accuracy: Double, timestamp: Date, count: Int) -> Location {
        Location(coordinate: coordinate, horizontalAccuracy: accuracy, timestamp: timestamp, source: .wifi,
                 service: settings.host, accessPoints: count)
    }
}
