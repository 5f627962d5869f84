import Foundation
import Testing
@testable import HereWeatherCore

/// The chain's timing rules, with scripted sources standing in for receivers and services:
/// the chain is the code under test, and these sources reach cases (a source that never
/// answers, one that fails slowly) that real ones reach only by accident.
@Suite struct LocationSourceChainTests {
    /// A source that answers (or fails) after `delay`, honouring the deadline and cancellation.
    struct ScriptedProvider: LocationSourceProvider {
        let source: LocationSource
        let delay: Duration
        let outcome: Result<Location, LocationError>?   // nil: never answers before the deadline
        let started: Counter
        var present = true

        func isPresent() async -> Bool { present }

        func requestLocation(_ request: LocationRequest) async throws -> Location {
            started.increment(source)
            let wait = outcome == nil ? ContinuousClock.now.duration(to: request.deadline) : delay
            try await Task.sleep(for: max(wait, .zero))
            guard let outcome else { throw LocationError.noFix(source: source.rawValue, seconds: 0, seen: "nothing") }
            return try outcome.get()
        }
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var sources: [LocationSource] = []
        func increment(_ source: LocationSource) { lock.withLock { sources.append(source) } }
        var started: [LocationSource] { lock.withLock { sources } }
    }

    struct Refuse: LocationAuthorizer {
        let refused: Set<LocationSource>
        func authorize(_ sources: [LocationSource]) async -> [PermissionError?] {
            sources.map { refused.contains($0) ? .denied($0, origin: .defaultValue) : nil }
        }
    }

    let counter = Counter()

    func fix(_ source: LocationSource, accuracy: Double?, meets: Bool = true) -> Location {
        Location(coordinate: Coordinate(latitude: 10, longitude: 20), horizontalAccuracy: accuracy,
                 timestamp: Date(), source: source, meetsDesiredAccuracy: meets)
    }

    func provider(_ source: LocationSource, after milliseconds: Int, _ outcome: Result<Location, LocationError>?) -> ScriptedProvider {
        ScriptedProvider(source: source, delay: .milliseconds(milliseconds), outcome: outcome, started: counter)
    }

    func request(seconds: Int = 5) -> LocationRequest {
        LocationRequest(desiredAccuracy: .threeKilometres, timeout: .seconds(seconds), start: .now)
    }

    @Test func theFirstQualifyingFixEndsTheRequestWhicheverSourceGaveIt() async throws {
        // CoreLocation's rule: a lower-priority source's qualifying fix does not wait for a
        // higher-priority source that has not answered (gpsd indoors, no fix yet).
        let chain = LocationSourceChain([
            provider(.gpsd, after: 0, nil),   // would answer only at the 120 s deadline
            provider(.ip, after: 10, .success(fix(.ip, accuracy: 25_000, meets: false))),
            provider(.fixed, after: 50, .success(fix(.fixed, accuracy: 1000))),
        ], clock: ContinuousClock())
        let started = ContinuousClock.now
        let answer = try await chain.requestLocation(request(seconds: 120))
        #expect(answer.source == .fixed)
        #expect(ContinuousClock.now - started < .seconds(60), "ended long before the 120 s deadline")
        #expect(Set(counter.started) == [.gpsd, .ip, .fixed], "all permitted sources start together")
    }

    @Test func priorityBreaksTheTieBetweenQualifyingFixesInHandTogether() throws {
        let outcomes: [Result<Location, Error>?] = [
            .success(fix(.gpsd, accuracy: 8)), nil, .success(fix(.fixed, accuracy: 5)),
        ]
        #expect(LocationSourceChain.decided(outcomes))
        #expect(try LocationSourceChain.finalAnswer(outcomes, refusals: []).source == .gpsd)
        #expect(!LocationSourceChain.decided([.success(fix(.ip, accuracy: 25_000, meets: false)), nil]),
                "a fix that misses the accuracy waits for the others")
    }

    @Test func absentSourcesAreSkippedSilentlyAndNeverAskedAbout() async throws {
        var gpsd = provider(.gpsd, after: 0, .success(fix(.gpsd, accuracy: 5)))
        gpsd.present = false
        let asked = AskedSources()
        let chain = LocationSourceChain([gpsd, provider(.ip, after: 0, .success(fix(.ip, accuracy: 2_000)))],
                                        authorizer: asked, skipsAbsentSources: true, clock: ContinuousClock())
        #expect(try await chain.requestLocation(request()).source == .ip)
        #expect(asked.sources == [[.ip]], "one decision, about the present source only")
        #expect(counter.started == [.ip])
        let configured = LocationSourceChain([gpsd], skipsAbsentSources: false, clock: ContinuousClock())
        #expect(try await configured.requestLocation(request()).source == .gpsd, "a configured source is tried")
    }

    /// Allows everything and records what it was asked, call by call.
    final class AskedSources: LocationAuthorizer, @unchecked Sendable {
        private let lock = NSLock()
        private var calls: [[LocationSource]] = []
        var sources: [[LocationSource]] { lock.withLock { calls } }
        func authorize(_ sources: [LocationSource]) async -> [PermissionError?] {
            lock.withLock { calls.append(sources) }
            return sources.map { _ in nil }
        }
    }

    /// The timeout counts from the end of the prompt: the deadline a source is given is at
    /// least the timeout after the moment the user answered. Compared as instants, not by how
    /// long anything took, so a loaded machine cannot fail it.
    @Test func theDeadlineStartsWhenTheSourcesStartNotBeforeThePrompt() async throws {
        final class Instants: @unchecked Sendable {
            let lock = NSLock()
            var answered: ContinuousClock.Instant?
            var deadline: ContinuousClock.Instant?
        }
        let seen = Instants()
        let clock = TestClock()
        struct SlowPrompt: LocationAuthorizer {
            let seen: Instants
            let clock: TestClock
            func authorize(_ sources: [LocationSource]) async -> [PermissionError?] {
                clock.advance(by: .seconds(3))   // the user reads the prompt, longer than the timeout
                seen.lock.withLock { seen.answered = clock.now }
                return sources.map { _ in nil }
            }
        }
        struct Recording: LocationSourceProvider {
            let seen: Instants
            var source: LocationSource { .ip }
            func requestLocation(_ request: LocationRequest) async throws -> Location {
                seen.lock.withLock { seen.deadline = request.deadline }
                return Location(coordinate: Coordinate(latitude: 10, longitude: 20), horizontalAccuracy: 2_000,
                                timestamp: Date(), source: .ip)
            }
        }
        let chain = LocationSourceChain([Recording(seen: seen)], authorizer: SlowPrompt(seen: seen, clock: clock), clock: clock)
        let answer = try await chain.requestLocation(request(seconds: 2).starting(at: clock.now))
        #expect(answer.source == .ip)
        let answered = try #require(seen.lock.withLock { seen.answered })
        let deadline = try #require(seen.lock.withLock { seen.deadline })
        #expect(deadline == answered + .seconds(2), "the 2 s timeout counts from the end of the prompt, exactly")
    }

    @Test func aSourceThatFailsFastHandsOverAtOnce() async throws {
        let chain = LocationSourceChain([
            provider(.gpsd, after: 0, .failure(.gpsdNotRunning(address: "localhost:2947"))),
            provider(.fixed, after: 0, .success(fix(.fixed, accuracy: 1000))),
        ], clock: ContinuousClock())
        let started = ContinuousClock.now
        let answer = try await chain.requestLocation(request(seconds: 120))
        #expect(answer.source == .fixed)
        // Far from the deadline even on a machine loaded by parallel builds.
        #expect(ContinuousClock.now - started < .seconds(60), "nowhere near the 120 s deadline")
    }

    @Test func aSlowFailureIsWaitedForThenTheNextSourceWins() async throws {
        let chain = LocationSourceChain([
            provider(.gpsd, after: 200, .failure(.gpsdNoReceiver(address: "localhost:2947"))),
            provider(.fixed, after: 0, .success(fix(.fixed, accuracy: 1000))),
        ], clock: ContinuousClock())
        #expect(try await chain.requestLocation(request()).source == .fixed)
    }

    @Test func whenNoFixMeetsTheAccuracyTheMostAccurateWinsAtTheDeadline() async throws {
        let chain = LocationSourceChain([
            provider(.gpsd, after: 0, nil),   // never answers
            provider(.ip, after: 0, .success(fix(.ip, accuracy: 25_000, meets: false))),
            provider(.nmea, after: 0, .success(fix(.nmea, accuracy: 4_000, meets: false))),
        ], clock: ContinuousClock())
        let answer = try await chain.requestLocation(request(seconds: 1))
        #expect(answer.source == .nmea)
        #expect(!answer.meetsDesiredAccuracy)
    }

    @Test func everySourceFailingListsEveryReason() async throws {
        let chain = LocationSourceChain([
            provider(.gpsd, after: 0, .failure(.gpsdNotRunning(address: "localhost:2947"))),
            provider(.fixed, after: 0, .failure(.noFixedLocation(configPath: "/x/config.toml"))),
        ], clock: ContinuousClock())
        do {
            _ = try await chain.requestLocation(request())
            Issue.record("expected an error")
        } catch let error as LocationError {
            #expect(error.exitStatus == .noLocation)
            #expect(error.message.contains("gpsd is not running"))
            #expect(error.message.contains("no fixed location is configured"))
        }
    }

    @Test func refusedSourcesNeverStart() async throws {
        let chain = LocationSourceChain([
            provider(.gpsd, after: 0, .success(fix(.gpsd, accuracy: 5))),
            provider(.ip, after: 0, .success(fix(.ip, accuracy: 25_000, meets: false))),
            provider(.fixed, after: 0, .success(fix(.fixed, accuracy: 1000))),
        ], authorizer: Refuse(refused: [.gpsd, .ip]), clock: ContinuousClock())
        let answer = try await chain.requestLocation(request())
        #expect(answer.source == .fixed)
        #expect(counter.started == [.fixed])
    }

    @Test func whenEverySourceIsRefusedTheRefusalIsTheError() async throws {
        let chain = LocationSourceChain([provider(.gpsd, after: 0, .success(fix(.gpsd, accuracy: 5)))],
                                        authorizer: Refuse(refused: [.gpsd]), clock: ContinuousClock())
        await #expect(throws: PermissionError.self) { try await chain.requestLocation(request()) }
        #expect(counter.started.isEmpty)
    }

    @Test func theWinnerCancelsTheRest() async throws {
        let chain = LocationSourceChain([
            provider(.fixed, after: 0, .success(fix(.fixed, accuracy: 1000))),
            provider(.gpsd, after: 0, nil),   // would wait for the 120 s deadline
        ], clock: ContinuousClock())
        let started = ContinuousClock.now
        _ = try await chain.requestLocation(request(seconds: 120))
        #expect(ContinuousClock.now - started < .seconds(60))
    }
}
