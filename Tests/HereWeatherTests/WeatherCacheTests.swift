import Foundation
import Testing
@testable import HereWeatherCore
import HereWeatherHTTP

/// The cache's files, keys, TTL rules, locking and offline fallback, with an injected clock.
@Suite struct WeatherCacheTests {
    let tampa = Coordinate(latitude: 27.950_612, longitude: -82.457_178)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("here-weather-cache-\(UUID().uuidString)").path
    let clock = TestClock()
    let service = ScriptedWeatherProvider()

    var cache: WeatherCache {
        let clock = clock
        return WeatherCache(directory: directory, clock: clock)
    }

    var key: WeatherCacheKey {
        WeatherCacheKey(provider: .openMeteo, coordinate: tampa, units: .metric, coordinateDecimals: 2)
    }

    func provider(ttl: Double = 600, staleLimit: Double = 21_600, readsFresh: Bool = true,
                  allowsStale: Bool = true) -> CachingWeatherProvider {
        CachingWeatherProvider(base: service, cache: cache, ttl: ttl, staleLimit: staleLimit, coordinateDecimals: 2,
                               readsFreshEntries: readsFresh, allowsStale: allowsStale)
    }

    func query(_ coordinate: Coordinate? = nil, units: Units = .metric, seconds: Int = 30) -> WeatherQuery {
        WeatherQuery(coordinate: coordinate ?? tampa, units: units, deadline: clock.now + .seconds(seconds))
    }

    /// A query for a real transfer: its deadline on the real clock (the test clock's instants
    /// stand still, and a loaded machine would find them passed).
    func liveQuery() -> WeatherQuery {
        WeatherQuery(coordinate: tampa, units: .metric, deadline: .now + .seconds(30))
    }

    static let refused = WeatherError.service(.openMeteo, .unreachable(.connectionRefused("127.0.0.1")))

    // MARK: TTL

    @Test func aFreshEntryAnswersWithoutAskingTheService() async throws {
        let first = try await provider().report(for: query())
        #expect(first.freshness == Freshness())
        clock.advance(599)
        let second = try await provider().report(for: query())
        #expect(service.calls == 1)
        #expect(second.freshness == Freshness(cached: true, ageSeconds: 599, stale: false))
        #expect(second.current.temperature == first.current.temperature)
        #expect(second.daily.count == 7)
    }

    @Test func anEntryAsOldAsTheTTLIsFetchedAgain() async throws {
        _ = try await provider().report(for: query())
        clock.advance(600)
        let again = try await provider().report(for: query())
        #expect(service.calls == 2)
        #expect(again.freshness.cached == false)
        #expect(try cache.load(key).fetchedAt == clock.date, "the new answer replaced the entry")
    }

    @Test func aTTLOfZeroAlwaysAsks() async throws {
        _ = try await provider(ttl: 0).report(for: query())
        _ = try await provider(ttl: 0).report(for: query())
        #expect(service.calls == 2)
    }

    @Test func aLongerServiceMaxAgeExtendsTheTTLAndAShorterOneDoesNot() async throws {
        service.declareMaxAge(3600)
        _ = try await provider().report(for: query())
        clock.advance(1800)
        #expect(try await provider().report(for: query()).freshness.cached)
        clock.advance(1800)
        #expect(try await provider().report(for: query()).freshness.cached == false)
        #expect(service.calls == 2)

        service.declareMaxAge(60)
        clock.advance(300)
        #expect(try await provider().report(for: query()).freshness.cached, "max-age 60 does not shorten ttl 600")
        #expect(service.calls == 2)
    }

    @Test func cacheControlFromARealServiceIsStored() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": .fixture("weather/open-meteo/tampa-metric.json",
                                                                         headers: [("Cache-Control", "public, max-age=900")])])
        let openMeteo = OpenMeteoWeatherProvider(baseURL: server.baseURL, http: CurlHTTPClient(clock: ContinuousClock()), clock: ContinuousClock())
        let caching = CachingWeatherProvider(base: openMeteo, cache: cache, ttl: 0, staleLimit: 0, coordinateDecimals: 2)
        #expect(try await caching.report(for: liveQuery()).freshness.cached == false)
        clock.advance(899)
        #expect(try await caching.report(for: liveQuery()).freshness.cached, "max-age=900 outlasts ttl = 0")
        #expect(server.requests.count == 1)
        #expect(try cache.load(key).serviceMaxAge == 900)
    }

    @Test func httpFreshnessReadsMaxAgeAgeAndExpires() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(HTTPFreshness.lifetime(of: ["cache-control": "public, max-age=900"], now: Date()) == 900)
        #expect(HTTPFreshness.lifetime(of: ["cache-control": "max-age=\"120\""], now: Date()) == 120)
        #expect(HTTPFreshness.lifetime(of: ["cache-control": "max-age=900", "age": "100"], now: Date()) == 800)
        #expect(HTTPFreshness.lifetime(of: ["cache-control": "no-store, max-age=900"], now: Date()) == nil)
        #expect(HTTPFreshness.lifetime(of: ["cache-control": "max-age=soon"], now: Date()) == nil)
        #expect(HTTPFreshness.lifetime(of: ["expires": "Sun, 06 Nov 1994 09:49:37 GMT",
                                            "date": "Sun, 06 Nov 1994 08:49:37 GMT"], now: Date()) == 3600)
        #expect(HTTPFreshness.lifetime(of: ["expires": "Sun, 06 Nov 1994 08:59:37 GMT"], now: now) == 600)
        #expect(HTTPFreshness.lifetime(of: ["expires": "0"], now: now) == nil)
        #expect(HTTPFreshness.lifetime(of: ["expires": "Sun, 06 Nov 1994 08:00:00 GMT"], now: now) == nil)
        #expect(HTTPFreshness.lifetime(of: [:], now: Date()) == nil)
    }

    // MARK: Keys

    @Test func theKeyIsTheProviderTheRoundedCoordinatesAndTheUnits() {
        #expect(key.name == "open-meteo_27.95_-82.46_metric")
        let nearby = WeatherCacheKey(provider: .openMeteo, coordinate: Coordinate(latitude: 27.9549, longitude: -82.4551),
                                     units: .metric, coordinateDecimals: 2)
        #expect(nearby == key, "the same rounded coordinates the request sends")
        let coarser = WeatherCacheKey(provider: .openMeteo, coordinate: tampa, units: .metric, coordinateDecimals: 1)
        #expect(coarser.name == "open-meteo_28_-82.5_metric")
        #expect(WeatherCacheKey(provider: .openWeatherMap, coordinate: tampa, units: .metric, coordinateDecimals: 2).name
            == "openweathermap_27.95_-82.46_metric")
        #expect(WeatherCacheKey(provider: .openMeteo, coordinate: tampa, units: .imperial, coordinateDecimals: 2).name
            == "open-meteo_27.95_-82.46_imperial")
        #expect(cache.path(for: key) == directory + "/open-meteo_27.95_-82.46_metric.weather")
    }

    @Test func nearbyPointsShareAnEntryOtherUnitsDoNot() async throws {
        _ = try await provider().report(for: query())
        let nearby = try await provider().report(for: query(Coordinate(latitude: 27.9512, longitude: -82.4611)))
        #expect(nearby.freshness.cached)
        #expect(service.calls == 1)
        let imperial = try await provider().report(for: query(units: .imperial))
        #expect(imperial.freshness.cached == false)
        #expect(imperial.units == .imperial)
        let elsewhere = try await provider().report(for: query(Coordinate(latitude: 27.97, longitude: -82.46)))
        #expect(elsewhere.freshness.cached == false)
        #expect(service.calls == 3)
    }

    // MARK: Damaged and foreign files

    func writeFile(_ bytes: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(bytes.utf8).write(to: URL(fileURLWithPath: cache.path(for: key)))
    }

    @Test(arguments: [
        "", "garbage", "{\"format\": \"here-weather weather cache\"", "\u{0}\u{1}binary\n\u{2}",
    ])
    func aCorruptFileIsIgnoredAndReplaced(contents: String) async throws {
        try writeFile(contents)
        #expect(throws: WeatherCacheError.self) { try cache.load(key) }
        let report = try await provider().report(for: query())
        #expect(report.freshness.cached == false)
        #expect(service.calls == 1)
        #expect(try cache.load(key).recording == Fixtures.data("weather/open-meteo/tampa-metric.json"))
    }

    @Test func aTruncatedEntryIsCorrupt() async throws {
        _ = try await provider().report(for: query())
        let path = cache.path(for: key)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.prefix(whole.count - 10).write(to: URL(fileURLWithPath: path))
        #expect(throws: WeatherCacheError.corrupt(reason: "the metadata is incomplete or the body is truncated")) {
            try cache.load(key)
        }
        _ = try await provider().report(for: query())
        #expect(service.calls == 2)
    }

    @Test func aForeignFileIsIgnoredAndReplaced() async throws {
        try writeFile(#"{"hello": "world"}"# + "\n{}")
        #expect(throws: WeatherCacheError.foreign(reason: "it is not a version 1 here-weather cache file")) {
            try cache.load(key)
        }
        // Our format, but another key's entry under this name (renamed by hand, say).
        let other = WeatherCacheKey(provider: .openMeteo, coordinate: tampa, units: .imperial, coordinateDecimals: 2)
        let entry = WeatherCacheEntry(key: other, fetchedAt: clock.date, serviceMaxAge: nil, recording: Data("{}".utf8))
        try writeFile(String(decoding: entry.fileBytes(), as: UTF8.self))
        #expect(throws: WeatherCacheError.self) { try cache.load(key) }
        let report = try await provider().report(for: query())
        #expect(report.freshness.cached == false && report.units == .metric)
        #expect(try cache.load(key).key == key)
    }

    @Test func anEntryTheProviderCannotDecodeIsNoAnswer() async throws {
        let entry = WeatherCacheEntry(key: key, fetchedAt: clock.date, serviceMaxAge: nil,
                                      recording: Fixtures.data("weather/misc/captive-portal.html"))
        try cache.store(entry)
        _ = try await provider().report(for: query())
        #expect(service.calls == 1)
    }

    @Test func writesLeaveNoTemporaryFilesAndSweepAbandonedOnes() async throws {
        for _ in 0..<3 {
            _ = try await provider(ttl: 0).report(for: query())
        }
        let abandoned = directory + "/" + AtomicFile.temporaryPrefix + "killed"
        let recent = directory + "/" + AtomicFile.temporaryPrefix + "writing"
        _ = FileManager.default.createFile(atPath: abandoned, contents: Data("{\"partial".utf8))
        _ = FileManager.default.createFile(atPath: recent, contents: Data("{\"partial".utf8))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: abandoned)
        _ = try await provider(ttl: 0).report(for: query())
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: directory))
        #expect(names == ["open-meteo_27.95_-82.46_metric.weather", AtomicFile.temporaryPrefix + "writing"],
                "one entry (its lock file goes with the lock) and only a temporary file young enough to be another run's write")
        let mode = try FileManager.default.attributesOfItem(atPath: cache.path(for: key))[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    // MARK: Offline

    @Test func offlineAnEntryWithinTheStaleLimitIsShownMarkedStale() async throws {
        _ = try await provider().report(for: query())
        service.fail(with: Self.refused)
        clock.advance(23 * 60)
        let report = try await provider().report(for: query())
        #expect(report.freshness == Freshness(cached: true, ageSeconds: 1380, stale: true,
                                              refreshFailure: Self.refused.message))
        #expect(service.calls == 2, "the service was asked first")
        let location = Location(coordinate: tampa, horizontalAccuracy: 1000, timestamp: clock.date, source: .fixed, name: "Tampa")
        let text = TextReport(location: location, report: report, style: .plain, now: Date()).render()
        #expect(text.split(separator: "\n").dropFirst().first == "offline: from 23 min ago")
        let json = JSONReport.render(location: location, report: report, now: Date())
        #expect(json.contains(#""cached":true,"age_s":1380,"stale":true"#))
    }

    @Test func offlineAnEntryPastTheStaleLimitIsNotShown() async throws {
        _ = try await provider(staleLimit: 3600).report(for: query())
        service.fail(with: Self.refused)
        clock.advance(3600)
        await #expect(throws: WeatherError.self) { try await provider(staleLimit: 3600).report(for: query()) }
        clock.advance(-1)
        #expect(try await provider(staleLimit: 3600).report(for: query()).freshness.stale)
    }

    @Test func noStaleFailsWithTheServiceError() async throws {
        _ = try await provider().report(for: query())
        service.fail(with: Self.refused)
        clock.advance(601)
        do {
            _ = try await provider(allowsStale: false).report(for: query())
            Issue.record("expected the service's error")
        } catch let error as WeatherError {
            #expect(error.exitStatus == .serviceUnavailable)
            #expect(error.message.hasPrefix("Cannot reach Open-Meteo"))
        }
    }

    @Test(arguments: [
        (WeatherError.service(.openMeteo, .unreachable(.timedOut("h"))), true),
        (WeatherError.service(.openMeteo, .unreachable(.cannotResolveHost("h"))), true),
        (WeatherError.service(.openMeteo, .serviceFailed(status: 503, detail: nil)), true),
        (WeatherError.service(.openMeteo, .rateLimited(retryAfter: "60")), true),
        (WeatherError.service(.openMeteo, .undecodable(reason: "HTML")), true),
        (WeatherError.service(.openMeteo, .serviceFailed(status: 400, detail: "bad")), false),
        (WeatherError.service(.openMeteo, .serviceFailed(status: 200, detail: "error")), false),
        (WeatherError.service(.openMeteo, .keyRejected(status: 401, howToSet: "k")), false),
        (WeatherError.service(.openMeteo, .missingKey(howToSet: "k")), false),
        (WeatherError.service(.openMeteo, .unreachable(.invalidURL)), false),
    ])
    func whichFailuresFallBackToAStaleEntry(error: WeatherError, fallsBack: Bool) async throws {
        #expect(error.allowsStaleFallback == fallsBack)
        _ = try await provider().report(for: query())
        service.fail(with: error)
        clock.advance(700)
        let result = try? await provider().report(for: query())
        #expect((result?.freshness.stale == true) == fallsBack)
    }

    @Test func noCacheAsksTheServiceButStillStores() async throws {
        _ = try await provider().report(for: query())
        clock.advance(10)
        let report = try await provider(readsFresh: false).report(for: query())
        #expect(report.freshness.cached == false)
        #expect(service.calls == 2)
        #expect(try cache.load(key).fetchedAt == clock.date)
    }

    /// Issue 35 (replacing issue 14's rule): an entry younger than the TTL that stands in for
    /// a fetch that failed (`--no-cache` asked for a fresh answer) is marked stale, with the
    /// failure: it is not what the user asked for.
    @Test func aFreshEntryStandingInForAFailedFetchIsMarkedNotRefreshed() async throws {
        _ = try await provider().report(for: query())
        service.fail(with: Self.refused)
        clock.advance(10)
        let report = try await provider(readsFresh: false).report(for: query())
        #expect(report.freshness == Freshness(cached: true, ageSeconds: 10, stale: true,
                                              refreshFailure: Self.refused.message))
        #expect(service.calls == 2, "the service was asked first")
    }

    // MARK: Locking

    /// Waits (on the test clock, exactly) only until the limit: the clock is moved to it.
    @Test func aHeldLockMakesOthersWaitOnlyUntilTheirLimit() async throws {
        let held = try await cache.lock(key, waitingUntil: clock.now)
        let cache = cache, key = key, limit = clock.now + .milliseconds(50)
        let waiter = Task { try await cache.lock(key, waitingUntil: limit) }
        #expect(await clock.waitForSleepers(), "it waits while the lock is held")
        clock.advance(by: .milliseconds(50))
        await #expect(throws: WeatherCacheError.lockTimedOut(path: cache.lockPath(for: key))) {
            _ = try await waiter.value
        }
        // At its deadline the fetch goes ahead without the lock (a real service then times out
        // at once: no time is left to ask).
        let provider = provider(), query = query(seconds: 1)
        let fetch = Task { try await provider.report(for: query) }
        #expect(await clock.waitForSleepers())
        #expect(service.calls == 0, "not before the deadline")
        clock.advance(by: .seconds(1))
        let report = try await fetch.value
        #expect(report.freshness.cached == false)
        #expect(service.calls == 1)
        held.release()
        // Free again, on the real clock. (Not a single try: a child process another test is
        // spawning can hold a copy of the descriptor, and so the lock, until its exec closes it.)
        let again = try await WeatherCache(directory: directory, clock: ContinuousClock()).lock(key, waitingUntil: .now + .seconds(10))
        again.release()
    }

    /// A lock file lives only while a run holds it: a fetch that fails (nothing written) or
    /// succeeds leaves none behind, so failures do not pile up empty `.lock` files (issue 35 D32).
    @Test func noLockFileOutlivesItsLock() async throws {
        service.fail(with: Self.refused)
        await #expect(throws: WeatherError.self) { _ = try await provider().report(for: query()) }
        #expect(service.calls == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty, "nothing written, no lock left")
        service.fail(with: nil)
        _ = try await provider().report(for: query())
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [cache.path(for: key).split(separator: "/").last.map(String.init)])
        let lock = try await cache.lock(key, waitingUntil: clock.now)
        #expect(FileManager.default.fileExists(atPath: cache.lockPath(for: key)), "there while held")
        lock.release()
        #expect(!FileManager.default.fileExists(atPath: cache.lockPath(for: key)))
    }

    /// The holder removes the lock file as it lets go; a run that was waiting on that file
    /// then holds a lock on a file no longer there, and must take the one at the path instead,
    /// or two runs could hold "the" lock at once (the waiter on the removed file, a newcomer on
    /// a new one).
    @Test func aRunWaitingOnARemovedLockFileTakesTheNewOne() async throws {
        let held = try await cache.lock(key, waitingUntil: clock.now)
        let cache = cache, key = key, limit = clock.now + .seconds(30)
        let waiter = Task { try await cache.lock(key, waitingUntil: limit) }
        #expect(await clock.waitForSleepers(), "it waits while the lock is held")
        held.release()
        let second = try await waiter.value
        defer { second.release() }
        await #expect(throws: WeatherCacheError.lockTimedOut(path: cache.lockPath(for: key)),
                      "a third run finds the lock held by the second") {
            _ = try await cache.lock(key, waitingUntil: clock.now)
        }
        var atPath = stat(), heldFile = stat()
        #expect(stat(cache.lockPath(for: key), &atPath) == 0 && fstat(second.heldDescriptor, &heldFile) == 0)
        #expect(atPath.st_ino == heldFile.st_ino, "the lock held is the file at the path")
    }

    /// Many runs taking and letting go of one key's lock (its file removed at each release)
    /// never hold it two at a time, and leave no lock file.
    @Test func runsTakingTurnsNeverHoldTheLockTogether() async throws {
        let cache = cache, key = key, limit = clock.now + .seconds(600)
        let inside = TurnCounter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    for _ in 0..<15 {
                        let lock = try await cache.lock(key, waitingUntil: limit)
                        inside.enter()
                        try await Task.sleep(for: .microseconds(200))
                        inside.leave()
                        lock.release()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(inside.most == 1 && inside.turns == 90)
        #expect(!FileManager.default.fileExists(atPath: cache.lockPath(for: key)))
    }

    /// A lock another process holds for a moment is taken once it is free, on a clock that
    /// stands still: the wait retries in real time, and only its limit is the run clock's.
    /// Before, the wait slept on the run clock alone, and a test whose lock a child process
    /// held for a moment (a test spawning a program holds a copy of every descriptor until its
    /// exec) waited for a clock nobody moved, for good: a full run hung.
    @Test func aLockHeldForAMomentByAnotherProcessIsTakenOnAStillClock() async throws {
        let cache = cache, key = key
        let path = cache.lockPath(for: key)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // The other process holds the lock until its stdin ends (cat reads to the end).
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        for descriptor in ends { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let holder = try ChildProcess(["/usr/bin/flock", "--exclusive", path, "/bin/cat"], environment: [:], stdin: .use(ends[0]))
        close(ends[0])
        var release: Int32? = ends[1]
        defer {
            if let release { close(release) }
            _ = holder.terminate()
        }
        // Until it holds it.
        let probe = try LockFile.open(path)
        defer { close(probe) }
        let end = ContinuousClock.now + .seconds(60)
        while flock(probe, LOCK_EX | LOCK_NB) == 0 {
            flock(probe, LOCK_UN)
            guard ContinuousClock.now < end else { Issue.record("flock never took the lock"); return }
            try await Task.sleep(for: .milliseconds(5))
        }
        let limit = clock.now + .seconds(10)
        let waiter = Task { try await cache.lock(key, waitingUntil: limit) }
        let done = OnceFlag()
        let watchdog = Task {
            try? await Task.sleep(for: .seconds(30))
            if done.claim() { waiter.cancel() }
        }
        defer { watchdog.cancel() }
        // The waiter finds the lock held and waits; then the other process lets it go.
        try await Task.sleep(for: .milliseconds(200))
        if let descriptor = release { close(descriptor) }
        release = nil
        let lock = try? await waiter.value
        let inTime = done.claim()
        #expect(inTime, "still waiting after 30 s of real time: the wait retried only on the run clock")
        #expect(lock != nil)
        lock?.release()
    }

    /// `task`'s value, moving the clock on 50 ms whenever something sleeps on it (a lock's
    /// poll), for at most `limit` of real time.
    func advancingClock<T: Sendable>(until task: Task<T, any Error>, limit: Duration = .seconds(60)) async throws -> T {
        let done = OnceFlag()
        let end = ContinuousClock.now + limit
        let clock = clock
        let mover = Task {
            while !done.isClaimed && ContinuousClock.now < end {
                if clock.sleeperCount > 0 { clock.advance(by: .milliseconds(50)) }
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
        defer { _ = done.claim(); mover.cancel() }
        return try await task.value
    }

    @Test func aRunWaitingForTheLockUsesTheEntryItsHolderWrote() async throws {
        let held = try await cache.lock(key, waitingUntil: clock.now)
        let provider = provider(), query = query()
        let waiting = Task { try await provider.report(for: query) }
        #expect(await clock.waitForSleepers(), "it found no entry and waits for the lock")
        let fetched = try await service.fetch(query)
        try cache.store(WeatherCacheEntry(key: key, fetchedAt: clock.date, serviceMaxAge: nil, recording: fetched.recording))
        held.release()
        let report = try await advancingClock(until: waiting)
        #expect(report.freshness.cached)
        #expect(service.calls == 1, "only the holder's fetch")
    }

    @Test func openWeatherMapStoresBothBodiesAndRebuildsTheSameReport() async throws {
        let server = try FixtureServer(routes: [
            "/data/2.5/weather": .fixture("weather/openweathermap/weather-tampa-metric.json"),
            "/data/2.5/forecast": .fixture("weather/openweathermap/forecast-tampa-metric.json"),
        ])
        let owm = OpenWeatherMapWeatherProvider(baseURL: server.baseURL, apiKey: "k", http: CurlHTTPClient(clock: ContinuousClock()), clock: ContinuousClock())
        let caching = CachingWeatherProvider(base: owm, cache: cache, ttl: 600, staleLimit: 0, coordinateDecimals: 2)
        let fetched = try await caching.report(for: liveQuery())
        let cached = try await caching.report(for: liveQuery())
        #expect(server.requests.count == 2, "weather and forecast, once")
        #expect(cached.freshness.cached)
        #expect(cached.placeName == fetched.placeName && cached.placeName != nil)
        #expect(cached.current.temperature == fetched.current.temperature)
        #expect(cached.hourly.count == fetched.hourly.count && !cached.hourly.isEmpty)
        #expect(cached.daily.count == fetched.daily.count && !cached.daily.isEmpty)
    }
}

/// How many tasks are inside a critical section at once: the most ever, and the turns taken.
private final class TurnCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var now = 0
    private var mostSeen = 0
    private var taken = 0

    func enter() { lock.withLock { now += 1; mostSeen = max(mostSeen, now); taken += 1 } }
    func leave() { lock.withLock { now -= 1 } }
    var most: Int { lock.withLock { mostSeen } }
    var turns: Int { lock.withLock { taken } }
}
