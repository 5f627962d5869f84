#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The last good location, remembered between runs in
/// `$XDG_STATE_HOME/here-weather/last-location.json` with its source, accuracy and time:
/// `timestamp` is its arrival on this machine's clock, from which it ages (`receiver_time`
/// keeps the receiver's own date, which never makes it fresh).
///
/// A status bar that runs every minute then asks the GPS or the IP service only when the
/// remembered fix has grown older than max age. A missing or corrupt file is simply no
/// memory; writes are atomic.
public struct LastLocationStore: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// Sources whose fixes are worth remembering (the others answer instantly anyway).
    public static let rememberedSources: Set<LocationSource> = [.gpsd, .geoclue, .wifi, .ip]

    /// A larger file is not one this program wrote (they are a few hundred bytes): no memory.
    static let maximumFileBytes = 64 << 10

    public func load() -> Location? {
        (try? TextFile.bytes(path, limit: Self.maximumFileBytes)).flatMap { $0.flatMap(Self.decode) }
    }

    /// The location a file's bytes hold, or `nil` when they hold none this program would have
    /// written: a position on the globe, a known source, and an accuracy (when there is one)
    /// above 0 and at most half the Earth's circumference (a service's `1e308` must not
    /// come back from memory).
    public static func decode(_ bytes: [UInt8]) -> Location? {
        guard let json = try? JSONValue.parse(Data(bytes)),
              json["version"]?.int == 1,
              let latitude = json["latitude"]?.double, let longitude = json["longitude"]?.double,
              let seconds = json["timestamp"]?.double,
              let source = json["source"]?.string.flatMap(LocationSource.init(rawValue:)) else { return nil }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else { return nil }
        guard let timestamp = LocalTime.date(secondsSince1970: seconds) else { return nil }
        if let accuracy = json["accuracy_m"], accuracy != .null {
            guard case .number(let metres) = accuracy, metres > 0, metres <= maximumAccuracy else { return nil }
        }
        var location = Location(coordinate: coordinate, horizontalAccuracy: json["accuracy_m"]?.double,
                                timestamp: timestamp, source: source,
                                altitude: json["altitude_m"]?.double, name: json["name"]?.string,
                                accuracyIsEstimate: json["accuracy_estimated"]?.bool ?? false,
                                mode: json["mode"]?.int, simulated: json["simulated"]?.bool ?? false,
                                service: json["service"]?.string, accessPoints: json["access_points"]?.int)
        location.receiverTime = LocalTime.date(secondsSince1970: json["receiver_time"]?.double)
        return location
    }

    /// The largest accuracy radius remembered, in metres: half the Earth's circumference.
    public static let maximumAccuracy = 20_000_000.0

    /// Remembers `location`; failures (read-only disk) are ignored: memory is an optimisation.
    public func save(_ location: Location) {
        try? AtomicFile.write(Self.encode(location), to: path, overwrite: true)
    }

    /// The file's text for `location`.
    public static func encode(_ location: Location) -> String {
        let json = JSONOutput.object([
            ("version", .number(1)),
            ("latitude", .number(location.coordinate.latitude)),
            ("longitude", .number(location.coordinate.longitude)),
            ("accuracy_m", .number(location.horizontalAccuracy)),
            ("timestamp", .number(location.timestamp.timeIntervalSince1970)),
            ("receiver_time", .number(location.receiverTime?.timeIntervalSince1970)),
            ("source", .string(location.origin.name)),
            ("altitude_m", .number(location.altitude)),
            ("name", .string(location.name)),
            ("accuracy_estimated", .bool(location.accuracyIsEstimate)),
            ("mode", .number(location.mode.map(Double.init))),
            ("simulated", .bool(location.simulated)),
            ("service", .string(location.service)),
            ("access_points", .number(location.accessPoints.map(Double.init))),
        ])
        return json.serialized() + "\n"
    }
}

/// A provider that answers from the last good location while it is fresh and accurate
/// enough for the request, and remembers each new fix from a remembered source. When every
/// source fails, a remembered fix within max age that misses the desired accuracy stands in,
/// marked as not meeting it.
public struct RememberingLocationProvider: LocationProvider {
    public let base: any LocationProvider
    public let store: LastLocationStore
    /// The sources the request may use now (a remembered fix from another is not reused).
    public let sources: Set<LocationSource>
    public let authorizer: any LocationAuthorizer
    /// The run's clock: a remembered fix's age is measured on its date.
    public let clock: any RunClock

    public init(base: any LocationProvider, store: LastLocationStore, sources: Set<LocationSource>,
                authorizer: any LocationAuthorizer, clock: any RunClock) {
        self.base = base
        self.store = store
        self.sources = sources
        self.authorizer = authorizer
        self.clock = clock
    }

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        if !request.asksSourcesAgain, let last = await usableMemory(request, accurateEnough: true) {
            var answer = last
            answer.meetsDesiredAccuracy = true
            answer.memory = .recent
            return answer
        }
        let fix: Location
        do {
            fix = try await base.requestLocation(request)
        } catch let error as LocationError {
            // Every source failed (gpsd down, offline): a remembered fix within max age is still
            // the best fix to be had, like a fix that misses the desired accuracy at the deadline.
            guard var last = await usableMemory(request, accurateEnough: false) else {
                throw staleMemoryNamed(in: error, request: request)
            }
            last.meetsDesiredAccuracy = false
            last.memory = .standsIn
            return last
        }
        if let source = fix.source, LastLocationStore.rememberedSources.contains(source) { store.save(fix) }
        return fix
    }

    /// The remembered fix when this run may use it: from one of its sources, still permitted,
    /// within max age (never with max age off), not remembered in the future (this machine's
    /// clock was set back since, or an older version wrote the receiver's date: its age is
    /// unknown) and, when `accurateEnough`, meeting the desired accuracy (never for `best`,
    /// which always asks).
    func usableMemory(_ request: LocationRequest, accurateEnough: Bool) async -> Location? {
        let now = clock.date
        guard let last = store.load(), let source = last.source, sources.contains(source), request.maxAge != nil,
              !accurateEnough || request.desiredAccuracy.isMet(by: last.horizontalAccuracy),
              last.timestamp <= now, FixSelector(request: request).isFresh(last, at: now),
              (try? await authorizer.authorize(source)) != nil else { return nil }
        return last
    }

    /// `error`, with a sentence on the remembered fix when one from these sources exists but
    /// could not stand in for being too old (or from the future), so that the user learns why.
    func staleMemoryNamed(in error: LocationError, request: LocationRequest) -> LocationError {
        let now = clock.date
        guard let maxAge = request.maxAge, let last = store.load(), let source = last.source,
              sources.contains(source) else { return error }
        let remembered = "The last location remembered (from \(source.displayName))"
        let reason: String
        if last.timestamp > now {
            reason = "\(remembered) is dated after this machine's clock (was the clock set back?), so its age is unknown"
        } else if now.timeIntervalSince(last.timestamp) > maxAge.seconds {
            reason = "\(remembered) is \(LocationReport.ageText(now.timeIntervalSince(last.timestamp))) old, older than the max age of \(JSONOutput.format(maxAge.seconds)) s (--max-age)"
        } else {
            return error
        }
        if case .allSourcesFailed(let reasons) = error { return .allSourcesFailed(reasons + [reason]) }
        return .allSourcesFailed([error.message, reason])
    }
}
