import Foundation
@testable import HereWeatherCore

/// A clock on real time whose wall-clock date starts at a chosen one (`RunClock`): its
/// instants and sleeps are `ContinuousClock`'s, its `date` is `date` plus the time since it
/// was made. For runs against recordings of a fixed day that also wait for real (a retry's
/// pause, a transfer), where a `TestClock` that stands still would never wake them.
struct ShiftedClock: RunClock {
    typealias Instant = ContinuousClock.Instant

    let start = ContinuousClock.now
    let startDate: Date

    init(date: Date) {
        startDate = date
    }

    var now: ContinuousClock.Instant { ContinuousClock.now }
    var date: Date { startDate.addingTimeInterval((ContinuousClock.now - start).seconds) }
    var minimumResolution: Duration { ContinuousClock().minimumResolution }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration? = nil) async throws {
        try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
    }
}
