import Foundation
import Synchronization
import Testing
@testable import HereWeatherCore

/// `CompanionGrace` on a TestClock: a companion (alerts, nowcast) that has not answered when
/// the weather's grace is over is cancelled and left out, and `--verbose` says so; one that
/// answers in time is kept; the grace never runs past the weather's deadline; a failed
/// weather fetch fails at once.
@Suite struct CompanionGraceTests {
    /// Whether a companion was cancelled.
    final class Cancellation: Sendable {
        private let flag = Mutex(false)
        var happened: Bool { flag.withLock { $0 } }
        func record() { flag.withLock { $0 = true } }
    }

    /// A companion that answers only when cancelled (it then records that it was).
    static func endless(_ cancellation: Cancellation) async throws -> String? {
        do {
            try await Task.sleep(for: .seconds(600))
        } catch {
            cancellation.record()
            throw error
        }
        return "late"
    }

    @Test func aCompanionStillGoingAfterTheGraceIsCancelledAndNoted() async throws {
        let clock = TestClock()
        let notes = Mutex<[String]>([])
        let cancelled = Cancellation()
        let grace = CompanionGrace(clock: clock) { note in notes.withLock { $0.append(note) } }
        let run = Task {
            try await grace.run(.alerts, deadline: clock.now + .seconds(10)) { "weather" } companion: {
                try await Self.endless(cancelled)
            }
        }
        defer { run.cancel() }  // a test that fails early does not wait out the companion
        try #require(await clock.waitForSleepers(1, within: .seconds(120)), "the grace starts once the weather has answered")
        clock.advance(by: CompanionGrace.length - .milliseconds(1))
        #expect(clock.sleeperCount == 1, "still waiting just before the grace ends")
        clock.advance(by: .milliseconds(1))
        let answer = try await run.value
        #expect(answer.weather == "weather")
        #expect(answer.companion == nil)
        #expect(cancelled.happened, "the dropped request is cancelled, not left running")
        #expect(notes.withLock { $0 } == ["alerts: no answer within 1.5 s of the weather; shown without them"])
    }

    @Test func theGraceEndsAtTheWeathersDeadline() async throws {
        let clock = TestClock()
        let notes = Mutex<[String]>([])
        let grace = CompanionGrace(clock: clock) { note in notes.withLock { $0.append(note) } }
        let run = Task {
            try await grace.run(.nowcast, deadline: clock.now + .milliseconds(400)) { 1 } companion: {
                try await Self.endless(Cancellation())
            }
        }
        defer { run.cancel() }  // a test that fails early does not wait out the companion
        try #require(await clock.waitForSleepers(1, within: .seconds(120)))
        clock.advance(by: .milliseconds(400))
        let answer = try await run.value
        #expect(answer.weather == 1 && answer.companion == nil)
        #expect(notes.withLock { $0 } == ["nowcast: no answer before the weather's deadline; shown without it"])
    }

    @Test func aCompanionAnsweringWithinTheGraceIsKept() async throws {
        let clock = TestClock()
        let notes = Mutex<[String]>([])
        let grace = CompanionGrace(clock: clock) { note in notes.withLock { $0.append(note) } }
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let run = Task {
            try await grace.run(.alerts, deadline: clock.now + .seconds(10)) { "weather" } companion: {
                await stream.first { _ in true }
            }
        }
        defer { run.cancel() }  // a test that fails early does not wait out the companion
        try #require(await clock.waitForSleepers(1, within: .seconds(120)), "the weather has answered; the grace runs")
        clock.advance(by: .seconds(1))
        continuation.yield("alerts")
        let answer = try await run.value
        #expect(answer.companion == "alerts")
        #expect(clock.sleeperCount == 0, "the grace's timer is cancelled with it")
        #expect(notes.withLock { $0 }.isEmpty)
    }

    @Test func aCompanionThatAnswersBeforeTheWeatherIsKept() async throws {
        let clock = TestClock()
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        let answer = try await CompanionGrace(clock: clock).run(.alerts, deadline: clock.now + .seconds(10)) {
            await stream.first { _ in true }
            return "weather"
        } companion: {
            continuation.yield()
            return "alerts"
        }
        #expect(answer.weather == "weather" && answer.companion == "alerts")
        #expect(clock.sleeperCount == 0)
    }

    @Test func aFailedWeatherFetchCancelsTheCompanionAndThrows() async throws {
        let clock = TestClock()
        let cancelled = Cancellation()
        await #expect(throws: WeatherError.self) {
            _ = try await CompanionGrace(clock: clock).run(.alerts, deadline: clock.now + .seconds(10)) { () -> Int in
                throw WeatherError.service(.nws, .undecodable(reason: "test"))
            } companion: {
                try await Self.endless(cancelled)
            }
        }
        #expect(cancelled.happened)
    }
}
