import Foundation
import Testing
@testable import HereWeatherCore

/// The chain's timing rules, with scripted sources standing in for receivers and services:
/// the chain is the code under test, and these sources reach cases (a source that never
/// answers, one that fails slowly) that real ones reach only by accident.
@Suite struct LocationSourceChainTests {
    /// A source that answers (or fails) after `delay`, honouring the deadline and cancellation.
    struct ScriptedProvider: LocationProvider {
        let source: LocationSource
        let delay: Duration
        let outcome: Result<Location, LocationError>?   // nil: never answers before the deadline
        let started: Counter

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
        func authorize(_ source: LocationSource) async throws {
            if refused.contains(source) { throw UsageError("\(source.rawValue) not permitted") }
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
        LocationRequest(desiredAccuracy: .threeKilometres, timeout: .seconds(seconds))
    }

    @Test func aLowerPrioritySourceDoesNotWinWhileAHigherOneMayStillAnswer() async throws {
        let chain = LocationSourceChain([
            provider(.gpsd, after: 300, .success(fix(.gpsd, accuracy: 8))),
            provider(.ip, after: 10, .success(fix(.ip, accuracy: 25_000, meets: false))),
            provider(.fixed, after: 0, .success(fix(.fixed, accuracy: 1000))),
        ])
        let answer = try await chain.requestLocation(request())
        #expect(answer.source == .gpsd)
        #expect(Set(counter.started) == [.gpsd, .ip, .fixed], "all permitted sources start together")
    }

    @Test func aSourceThatFailsFastHandsOverAtOnce() async throws {
        let chain = LocationSourceChain([
            provider(.gpsd, after: 0, .failure(.gpsdNotRunning(address: "localhost:2947"))),
            provider(.fixed, after: 0, .success(fix(.fixed, accuracy: 1000))),
        ])
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
        ])
        #expect(try await chain.requestLocation(request()).source == .fixed)
    }

    @Test func whenNoFixMeetsTheAccuracyTheMostAccurateWinsAtTheDeadline() async throws {
        let chain = LocationSourceChain([
            provider(.gpsd, after: 0, nil),   // never answers
            provider(.ip, after: 0, .success(fix(.ip, accuracy: 25_000, meets: false))),
            provider(.nmea, after: 0, .success(fix(.nmea, accuracy: 4_000, meets: false))),
        ])
        let answer = try await chain.requestLocation(request(seconds: 1))
        #expect(answer.source == .nmea)
        #expect(!answer.meetsDesiredAccuracy)
    }

    @Test func everySourceFailingListsEveryReason() async throws {
        let chain = LocationSourceChain([
            provider(.gpsd, after: 0, .failure(.gpsdNotRunning(address: "localhost:2947"))),
            provider(.fixed, after: 0, .failure(.noFixedLocation(configPath: "/x/config.toml"))),
        ])
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
        ], authorizer: Refuse(refused: [.gpsd, .ip]))
        let answer = try await chain.requestLocation(request())
        #expect(answer.source == .fixed)
        #expect(counter.started == [.fixed])
    }

    @Test func whenEverySourceIsRefusedTheRefusalIsTheError() async throws {
        let chain = LocationSourceChain([provider(.gpsd, after: 0, .success(fix(.gpsd, accuracy: 5)))],
                                        authorizer: Refuse(refused: [.gpsd]))
        await #expect(throws: UsageError.self) { try await chain.requestLocation(request()) }
        #expect(counter.started.isEmpty)
    }

    @Test func theWinnerCancelsTheRest() async throws {
        let chain = LocationSourceChain([
            provider(.fixed, after: 0, .success(fix(.fixed, accuracy: 1000))),
            provider(.gpsd, after: 0, nil),   // would wait for the 120 s deadline
        ])
        let started = ContinuousClock.now
        _ = try await chain.requestLocation(request(seconds: 120))
        #expect(ContinuousClock.now - started < .seconds(60))
    }
}
