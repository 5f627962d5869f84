#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A weather provider that answers from `WeatherCache` while an entry is fresh, makes
/// concurrent runs share one request, and stands in a stale entry when the service cannot
/// be reached.
///
/// For a query it
/// 1. answers from a fresh entry (younger than `ttl`, or than the service's own
///    `Cache-Control: max-age`/`Expires` when longer) without touching the network;
/// 2. otherwise takes the key's lock. A run that finds it held waits for the holder's answer,
///    up to its own deadline (status bars that fire together want the same data: the first
///    fetches, the others wait however slow the service is, then find its fresh entry);
/// 3. fetches from `base` and stores the answer; an entry that kept the service's
///    `Last-Modified` is offered for revalidation, and a 304 Not Modified stores it again
///    as fetched now, with the service's new lifetime, without downloading it again;
/// 4. when the fetch fails for a reason `WeatherError.allowsStaleFallback` accepts (a lock
///    still held at the deadline leaves no time to fetch: a timeout), answers from an entry
///    younger than `staleLimit`, marked `stale` with its age and the failure
///    (`Freshness.refreshFailure`), even one still fresh that `--no-cache` asked past.
///
/// Reports carry `freshness`: `cached` and `ageSeconds` for cache answers, `stale` for step 4.
public struct CachingWeatherProvider: WeatherProvider {
    public let base: any WeatherProvider
    public let cache: WeatherCache
    /// Seconds an entry stays fresh (`[cache] ttl`).
    public var ttl: Double
    /// Seconds an entry may stand in for an unreachable service (`[cache] stale_limit`).
    public var staleLimit: Double
    /// The rounding `base` applies to the coordinates it sends (`[privacy] coordinate_decimals`).
    public var coordinateDecimals: Int
    /// `false` (`--no-cache`): always ask the service; its answer is still stored, and the
    /// offline fallback still applies.
    public var readsFreshEntries: Bool
    /// `false` (`--no-stale`): fail with the service's error rather than show an old report.
    public var allowsStale: Bool

    public init(base: any WeatherProvider, cache: WeatherCache, ttl: Double, staleLimit: Double,
                coordinateDecimals: Int, readsFreshEntries: Bool = true, allowsStale: Bool = true) {
        self.base = base
        self.cache = cache
        self.ttl = ttl
        self.staleLimit = staleLimit
        self.coordinateDecimals = coordinateDecimals
        self.readsFreshEntries = readsFreshEntries
        self.allowsStale = allowsStale
    }

    /// `base` wrapped with the cache under `paths` and the `[cache]` and `[privacy]` settings,
    /// its ages measured on `clock`.
    public init(base: any WeatherProvider, config: Configuration, paths: ConfigurationPaths,
                readsFreshEntries: Bool = true, allowsStale: Bool = true, clock: any RunClock = ContinuousClock()) {
        self.init(base: base, cache: WeatherCache(paths: paths, clock: clock), ttl: config.cache.ttl,
                  staleLimit: config.cache.staleLimit, coordinateDecimals: config.privacy.coordinateDecimals,
                  readsFreshEntries: readsFreshEntries, allowsStale: allowsStale)
    }

    public var kind: WeatherProviderKind { base.kind }

    public func checkConfigured() throws {
        try base.checkConfigured()
    }

    /// Preconnects unless the cache may answer: the place is not known yet, so any fresh
    /// entry of this provider in `units` counts as "may answer" (a run that moved since then
    /// connects when it asks, as without a preconnect). A preconnect never costs a connection
    /// to a run that the cache answers.
    public func preconnect(units: Units, until deadline: ContinuousClock.Instant) {
        if readsFreshEntries && cache.hasFreshEntry(provider: kind, units: units, ttl: ttl) { return }
        base.preconnect(units: units, until: deadline)
    }

    public func report(fromRecording data: Data, units: Units) throws -> WeatherReport {
        try base.report(fromRecording: data, units: units)
    }

    public func fetch(_ query: WeatherQuery) async throws -> WeatherFetch {
        let key = WeatherCacheKey(provider: kind, coordinate: query.coordinate, units: query.units,
                                  coordinateDecimals: coordinateDecimals, language: query.language)
        if readsFreshEntries, let hit = cached(key, fresh: true) { return hit }
        let lock = try? await cache.lock(key, waitingUntil: query.deadline)
        defer { lock?.release() }
        // Another run may have fetched while this one waited for the lock.
        if readsFreshEntries, let hit = cached(key, fresh: true) { return hit }
        do {
            var answer = try await base.fetch(query, revalidating: storedForRevalidation(key))
            let entry = WeatherCacheEntry(key: key, fetchedAt: cache.now(), serviceMaxAge: answer.serviceMaxAge,
                                          recording: answer.recording, lastModified: answer.lastModified)
            try? cache.store(entry)  // A cache that cannot be written costs only speed.
            answer.report.freshness = Freshness()
            return answer
        } catch let error as WeatherError where allowsStale && error.allowsStaleFallback {
            guard var stale = cached(key, fresh: false) else { throw error }
            // The service was asked and did not answer: the report stands in for that answer,
            // and says so, even when it is within its lifetime (--no-cache asked past it).
            stale.report.freshness.stale = true
            stale.report.freshness.refreshFailure = error.message
            return stale
        }
    }

    /// The stored entry for `key` with the `Last-Modified` it came with, whatever its age: the
    /// service may confirm it unchanged (304) instead of sending it again.
    func storedForRevalidation(_ key: WeatherCacheKey) -> StoredWeather? {
        guard let entry = try? cache.load(key), let lastModified = entry.lastModified else { return nil }
        return StoredWeather(recording: entry.recording, lastModified: lastModified)
    }

    /// The entry for `key` as an answer: when `fresh`, only a fresh one; otherwise any younger
    /// than `staleLimit`, marked stale unless it is fresh (an entry within its lifetime is
    /// never called stale). Entries that fail to load or decode are no answer.
    func cached(_ key: WeatherCacheKey, fresh: Bool) -> WeatherFetch? {
        guard let entry = try? cache.load(key) else { return nil }
        let now = cache.now()
        let age = entry.age(at: now)
        let isFresh = entry.isFresh(ttl: ttl, at: now)
        if fresh {
            guard isFresh else { return nil }
        } else {
            guard age >= 0, age < staleLimit else { return nil }
        }
        guard var report = try? base.report(fromRecording: entry.recording, units: key.units) else { return nil }
        report.freshness = Freshness(cached: true, ageSeconds: age, stale: !isFresh)
        return WeatherFetch(report: report, recording: entry.recording, serviceMaxAge: entry.serviceMaxAge,
                            lastModified: entry.lastModified)
    }
}

extension WeatherError {
    /// Whether a stale cached report may stand in for this failure: the service could not be
    /// reached or could not answer usefully right now, and the user can do nothing but wait.
    ///
    /// Yes: no response at all (name lookup, refused, no route, TLS, timeout, a broken
    /// transfer), HTTP 5xx, 429 rate limiting, and a body that is not weather data (a captive
    /// portal's page, a truncated body). No: what the user must fix (a missing or rejected key,
    /// a 4xx for a bad request, an invalid base URL), a cancelled run, and recordings.
    public var allowsStaleFallback: Bool {
        switch self {
        case .unreachable(_, let error):
            return error != .invalidURL && error != .cancelled
        case .serviceFailed(_, let status, _):
            return status >= 500
        case .rateLimited, .undecodable, .forecastEnded:
            return true
        case .keyRejected, .missingKey, .recordingUnreadable, .recordingNotWeatherData, .missingContact, .identificationRefused, .planLacksProduct,
             .insecureBaseURL, .outsideCoverage:
            return false
        }
    }
}
