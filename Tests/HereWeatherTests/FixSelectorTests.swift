import Foundation
import Testing
@testable import HereWeatherCore

/// The request rules every GPS source shares: accuracy levels, max age, the deadline answer.
@Suite struct FixSelectorTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    func fix(accuracy: Double?, age: Double = 1, latitude: Double = 27.95) -> Location {
        Location(coordinate: Coordinate(latitude: latitude, longitude: -82.46), horizontalAccuracy: accuracy,
                 timestamp: now.addingTimeInterval(-age), source: .gpsd, mode: 3)
    }

    func selector(_ accuracy: DesiredAccuracy, maxAge: Duration? = .seconds(300)) -> FixSelector {
        FixSelector(request: LocationRequest(desiredAccuracy: accuracy, timeout: .seconds(10), maxAge: maxAge, start: .now))
    }

    @Test func anyTakesTheFirstRealFixEvenOfUnknownAccuracy() {
        var selector = selector(.any)
        let answer = selector.consider(fix(accuracy: nil), now: now)
        #expect(answer?.meetsDesiredAccuracy == true)
        #expect(answer?.horizontalAccuracy == nil)
    }

    @Test(arguments: [("10m", 10.0), ("100m", 100), ("1km", 1000), ("3km", 3000)])
    func withinTakesTheFirstFixAtOrInsideTheRadius(level: String, metres: Double) throws {
        var selector = selector(try #require(DesiredAccuracy(level)))
        #expect(selector.consider(fix(accuracy: metres * 1.5), now: now) == nil)
        #expect(selector.consider(fix(accuracy: nil), now: now) == nil, "unknown accuracy meets only any")
        let answer = selector.consider(fix(accuracy: metres), now: now)
        #expect(answer?.horizontalAccuracy == metres)
        #expect(answer?.meetsDesiredAccuracy == true)
    }

    @Test func atTheDeadlineTheBestSeenIsMarkedAsNotMeetingTheAccuracy() {
        var selector = selector(.within(metres: 10))
        _ = selector.consider(fix(accuracy: 80, latitude: 1), now: now)
        _ = selector.consider(fix(accuracy: 25, latitude: 2), now: now)
        _ = selector.consider(fix(accuracy: nil, latitude: 3), now: now)
        _ = selector.consider(fix(accuracy: 40, latitude: 4), now: now)
        let answer = selector.answerAtDeadline(now: now)
        #expect(answer?.coordinate.latitude == 2)
        #expect(answer?.meetsDesiredAccuracy == false)
    }

    @Test func bestWaitsForTheDeadlineAndKeepsTheMostAccurate() {
        var selector = selector(.best)
        for (index, accuracy) in [30.0, 4, 12, 4.5].enumerated() {
            #expect(selector.consider(fix(accuracy: accuracy, latitude: Double(index)), now: now) == nil)
        }
        let answer = selector.answerAtDeadline(now: now)
        #expect(answer?.coordinate.latitude == 1)
        #expect(answer?.meetsDesiredAccuracy == true)
    }

    @Test func fixesOlderThanMaxAgeAreIgnored() {
        var selector = selector(.any, maxAge: .seconds(300))
        #expect(selector.consider(fix(accuracy: 5, age: 301), now: now) == nil)
        #expect(selector.staleFixesSeen == 1)
        #expect(selector.answerAtDeadline(now: now) == nil, "a stale fix is not even a fallback")
        #expect(selector.consider(fix(accuracy: 5, age: 299), now: now) != nil)
    }

    @Test func theBestFixMustStillBeFreshAtTheDeadline() {
        var selector = selector(.within(metres: 10), maxAge: .seconds(300))
        _ = selector.consider(fix(accuracy: 50, age: 0), now: now)
        #expect(selector.answerAtDeadline(now: now.addingTimeInterval(200)) != nil)
        #expect(selector.answerAtDeadline(now: now.addingTimeInterval(301)) == nil)
    }

    @Test func maxAgeOffAcceptsAnyAge() {
        var selector = selector(.any, maxAge: nil)
        #expect(selector.consider(fix(accuracy: 5, age: 86_400 * 30), now: now) != nil)
    }

    @Test func positionsOutOfRangeAreNotFixes() {
        var selector = selector(.any)
        var bad = fix(accuracy: 5)
        bad.coordinate.latitude = .nan
        #expect(selector.consider(bad, now: now) == nil)
        bad.coordinate.latitude = 91
        #expect(selector.consider(bad, now: now) == nil)
        #expect(selector.fixesSeen == 0)
    }

    @Test func unknownAccuracyLosesToKnownAndTiesGoToTheNewer() {
        let older = fix(accuracy: 10, age: 5, latitude: 1)
        let newer = fix(accuracy: 10, age: 1, latitude: 2)
        #expect(FixSelector.isBetter(newer, than: older))
        #expect(!FixSelector.isBetter(fix(accuracy: nil), than: older))
        #expect(FixSelector.isBetter(older, than: fix(accuracy: nil)))
    }

    @Test func accuracyLevelsParse() {
        #expect(DesiredAccuracy("best") == .best)
        #expect(DesiredAccuracy("any") == .any)
        #expect(DesiredAccuracy("10m") == .within(metres: 10))
        #expect(DesiredAccuracy("1km") == .within(metres: 1000))
        #expect(DesiredAccuracy("3KM") == .within(metres: 3000))
        for bad in ["", "km", "3 km", "-1m", "fast", "10"] {
            #expect(DesiredAccuracy(bad) == nil, "\(bad) should not parse")
        }
        #expect(DesiredAccuracy.threeKilometres.description == "3km")
    }
}
