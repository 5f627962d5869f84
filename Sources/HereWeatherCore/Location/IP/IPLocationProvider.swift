#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The caller's location by IP geolocation: the configured web services, tried in order.
///
/// The first service that answers with a usable position wins; one that fails (no answer,
/// an error status, a body that is not location data, or a failure flag in an HTTP 200
/// body: ipinfo's `bogon`, ipwho.is's `success: false`, ipapi.co's `error: true`,
/// ip-api.com's `status: "fail"`) hands over to the next. Each attempt gets an equal share
/// of the time left (the last one all of it), so a service that hangs cannot starve the
/// ones after it and the whole lookup ends by the deadline; services not reached in time
/// are listed as such. When all fail, `LocationError.ipLookupFailed` lists each
/// service's reason (`ipLookupShortOfResources` when the system refused descriptors, memory
/// or a thread: its advice is about the limit, not the network).
///
/// Base URLs are checked before any request: plain `http://` is refused with a
/// `ConfigError` (exit 78) unless the service's `allow_plain_http` is set or the host is a
/// loopback address. ipinfo's token is sent as a bearer header and is never quoted back.
///
/// IP geolocation is right to the city at best, so a fix carries the service's own radius
/// when it reports one (MaxMind-style `accuracy_radius`), else `cityLevelAccuracy` marked as
/// an estimate. The request's desired accuracy is applied as `FixSelector` applies it, but
/// to this single answer: a fix that misses it (25 km against the default 3 km) is returned
/// at once with `meetsDesiredAccuracy == false` rather than held until the deadline, since
/// asking again would not make an IP lookup any more precise.
public struct IPLocationProvider: LocationSourceProvider {
    /// The radius assumed when a service reports none: city level, 25 km. MaxMind reports
    /// 83% of US IP addresses located within 40 km of the true city; mobile networks do worse.
    public static let cityLevelAccuracy: Double = 25_000

    public var source: LocationSource { .ip }
    public let settings: IPSettings
    private let http: any HTTPClient
    private let configPath: String
    /// The run's clock: each service's share of the deadline, the fix's date.
    private let clock: any RunClock

    /// A provider for `settings`; `configPath` names the file in configuration errors.
    public init(settings: IPSettings, http: any HTTPClient, configPath: String = "the config file",
                clock: any RunClock) {
        self.clock = clock
        self.settings = settings
        self.http = http
        self.configPath = configPath
    }

    /// The configured services with their settings, in order.
    var endpoints: [IPServiceEndpoint] {
        settings.services.map { IPServiceEndpoint($0, settings: settings.settings(for: $0)) }
    }

    /// Throws the `ConfigError` for the first base URL that may not be used. Makes no request.
    public func validate() throws {
        for endpoint in endpoints { try endpoint.validate(configPath: configPath) }
    }

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        try validate()
        var reasons: [String] = []
        var shortOfResources = false
        for (position, endpoint) in endpoints.enumerated() {
            try Task.checkCancellation()
            let name = endpoint.service.displayName
            let remaining = clock.now.duration(to: request.deadline)
            guard remaining > .zero else {
                reasons.append("\(name): not tried, the \(JSONOutput.format(request.timeoutSeconds)) s timeout had passed")
                continue
            }
            let share = remaining / (endpoints.count - position)
            switch try await lookUp(endpoint, deadline: clock.now + share) {
            case .success(let fix):
                return answer(fix, from: endpoint.service, for: request)
            case .failure(let failure):
                reasons.append("\(name): \(failure.reason)")
                shortOfResources = shortOfResources || failure.shortOfResources
            }
        }
        // Out of descriptors, memory or threads, the network was never tried: no advice to check it.
        throw shortOfResources ? LocationError.ipLookupShortOfResources(reasons: reasons)
            : LocationError.ipLookupFailed(reasons: reasons)
    }

    /// One service's answer, or why it gave none; a cancelled request throws `CancellationError`.
    func lookUp(_ endpoint: IPServiceEndpoint, deadline: ContinuousClock.Instant) async throws -> Result<IPFix, IPLookupFailure> {
        let response: HTTPResponse
        do {
            response = try await ServiceAnswer.send(endpoint.request(deadline: deadline), http: http) { $0 }
        } catch let error as HTTPError {
            if case .noResources = error { return .failure(IPLookupFailure(reason: error.summary, shortOfResources: true)) }
            return .failure(IPLookupFailure(reason: error.summary))
        }
        return IPLookupResponse.read(response, from: endpoint)
    }

    /// `fix` as a `Location`, judged against the request's accuracy and age rules.
    func answer(_ fix: IPFix, from service: IPService, for request: LocationRequest) -> Location {
        let now = clock.date
        let location = Location(coordinate: fix.coordinate, horizontalAccuracy: fix.accuracy, timestamp: now,
                                source: .ip, name: fix.name, accuracyIsEstimate: !fix.accuracyReported,
                                service: service.displayName)
        return FixSelector.judgedAtOnce(location, for: request, now: now)
    }
}

/// Why one service gave no location: a short reason for the error line.
struct IPLookupFailure: Error, Sendable, Equatable {
    var reason: String
    /// The system refused a descriptor, memory or a thread (`HTTPError.noResources`): not a
    /// failure of the network or the service.
    var shortOfResources = false
}
