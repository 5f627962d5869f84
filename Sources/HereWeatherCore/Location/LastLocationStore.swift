#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The last good location, remembered between runs in
/// `$XDG_STATE_HOME/here-weather/last-location.json` with its source, accuracy and time.
///
/// A status bar that runs every minute then asks the GPS or the IP service only when the
/// remembered fix has grown older than max age. A missing or corrupt file is simply no
/// memory; writes are atomic.
public struct LastLocationStore: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The store under the XDG state directory.
    public init(paths: ConfigurationPaths) {
        self.init(path: paths.xdgDirectory("XDG_STATE_HOME", fallback: ".local/state") + "/here-weather/last-location.json")
    }

    /// Sources whose fixes are worth remembering (the others answer instantly anyway).
    public static let rememberedSources: Set<LocationSource> = [.gpsd, .geoclue, .wifi, .ip]

    /// A larger file is not one this program wrote (they are a few hundred bytes): no memory.
    static let maximumFileBytes = 64 << 10

    public func load() -> Location? {
        guard let bytes = try? TextFile.bytes(path, limit: Self.maximumFileBytes),
              let json = try? JSONValue.parse(Data(bytes)),
              json["version"]?.int == 1,
              let latitude = json["latitude"]?.double, let longitude = json["longitude"]?.double,
              let seconds = json["timestamp"]?.double,
              let source = json["source"]?.string.flatMap(LocationSource.init(rawValue:)) else { return nil }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else { return nil }
        return Location(coordinate: coordinate, horizontalAccuracy: json["accuracy_m"]?.double,
                        timestamp: Date(timeIntervalSince1970: seconds), source: source,
                        altitude: json["altitude_m"]?.double, name: json["name"]?.string,
                        accuracyIsEstimate: json["accuracy_estimated"]?.bool ?? false,
                        mode: json["mode"]?.int, simulated: json["simulated"]?.bool ?? false,
                        service: json["service"]?.string, accessPoints: json["access_points"]?.int)
    }

    /// Remembers `location`; failures (read-only disk) are ignored: memory is an optimisation.
    public func save(_ location: Location) {
        let json = JSONOutput.object([
            ("version", .number(1)),
            ("latitude", .number(location.coordinate.latitude)),
            ("longitude", .number(location.coordinate.longitude)),
            ("accuracy_m", .number(location.horizontalAccuracy)),
            ("timestamp", .number(location.timestamp.timeIntervalSince1970)),
            ("source", .string(location.origin.name)),
            ("altitude_m", .number(location.altitude)),
            ("name", .string(location.name)),
            ("accuracy_estimated", .bool(location.accuracyIsEstimate)),
            ("mode", .number(location.mode.map(Double.init))),
            ("simulated", .bool(location.simulated)),
            ("service", .string(location.service)),
            ("access_points", .number(location.accessPoints.map(Double.init))),
        ])
        try? AtomicFile.write(json.serialized() + "\n", to: path, overwrite: true)
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

    public init(base: any LocationProvider, store: LastLocationStore, sources: Set<LocationSource>,
                authorizer: any LocationAuthorizer) {
        self.base = base
        self.store = store
        self.sources = sources
        self.authorizer = authorizer
    }

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        if let last = await usableMemory(request, accurateEnough: true) {
            var answer = last
            answer.meetsDesiredAccuracy = true
            return answer
        }
        let fix: Location
        do {
            fix = try await base.requestLocation(request)
        } catch let error as LocationError {
            // Every source failed (gpsd down, offline): a remembered fix within max age is still
            // the best fix to be had, like a fix that misses the desired accuracy at the deadline.
            guard var last = await usableMemory(request, accurateEnough: false) else { throw error }
            last.meetsDesiredAccuracy = false
            return last
        }
        if let source = fix.source, LastLocationStore.rememberedSources.contains(source) { store.save(fix) }
        return fix
    }

    /// The remembered fix when this run may use it: from one of its sources, still permitted,
    /// within max age (never with max age off), not dated in the future (a file written by an
    /// older version may hold such a fix) and, when `accurateEnough`, meeting the desired
    /// accuracy (never for `best`, which always asks).
    func usableMemory(_ request: LocationRequest, accurateEnough: Bool) async -> Location? {
        let now = Date()
        guard let last = store.load(), let source = last.source, sources.contains(source), request.maxAge != nil,
              !accurateEnough || request.desiredAccuracy.isMet(by: last.horizontalAccuracy),
              !FixSelector.isFutureDated(last.timestamp, clock: now),
              FixSelector(request: request).isFresh(last, at: now),
              (try? await authorizer.authorize(source)) != nil else { return nil }
        return last
    }
}
