import Foundation
import Testing
@testable import HereWeatherCore

/// `NowcastOutlook`'s rules on values, apart from any service: when precipitation starts and
/// stops within the two-hour horizon, for how long and how hard, and what odd data means.
@Suite struct NowcastOutlookTests {
    /// 2026-11-22 14:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_356_000)

    /// 15-minute steps from `now` + `offset` minutes with these intensities (nil: no value).
    static func nowcast(_ intensities: [Double?], step: Int = 900, offset: Double = 0,
                        kinds: [Nowcast.Kind?]? = nil) -> Nowcast {
        let steps = intensities.enumerated().map { index, value in
            Nowcast.Step(start: now.addingTimeInterval(offset * 60 + Double(index * step)), intensity: value,
                         kind: kinds?[index])
        }
        return Nowcast(source: .openMeteo, stepSeconds: step, steps: steps, issued: now)
    }

    static func outlook(_ intensities: [Double?], step: Int = 900, offset: Double = 0, at minutes: Double = 0,
                        kinds: [Nowcast.Kind?]? = nil) -> NowcastOutlook? {
        NowcastOutlook(nowcast(intensities, step: step, offset: offset, kinds: kinds), at: now.addingTimeInterval(minutes * 60))
    }

    func minutes(_ date: Date?) -> Double? { date.map { $0.timeIntervalSince(Self.now) / 60 } }

    @Test func dryHorizonHasNoStartNoEndAndTwoHours() throws {
        let outlook = try #require(Self.outlook([0, 0, 0.05, 0, 0, 0, 0, 0]))
        #expect(outlook.isDry)
        #expect(!outlook.wetNow)
        #expect(outlook.startsAt == nil && outlook.endsAt == nil)
        #expect(!outlook.changes)
        #expect(outlook.horizonSeconds == 7200)
        #expect(outlook.peak == nil)
    }

    @Test func rainStartingInThirtyMinutesAndLastingFortyFive() throws {
        let outlook = try #require(Self.outlook([0, 0, 0.4, 1.4, 0.9, 0, 0, 0], kinds: [nil, nil, .rain, .rain, .rain, nil, nil, nil]))
        #expect(minutes(outlook.startsAt) == 30)
        #expect(minutes(outlook.endsAt) == 75)
        #expect(approx(outlook.duration, 45 * 60, 1e-6))
        #expect(outlook.peak == 1.4)
        #expect(outlook.kind == .rain)
        #expect(outlook.changes && !outlook.wetNow && !outlook.isDry)
    }

    @Test func thresholdIsInclusive() throws {
        #expect(Nowcast.isWet(0.1))
        #expect(!Nowcast.isWet(0.099))
        let outlook = try #require(Self.outlook([0.099, 0.1, 0]))
        #expect(minutes(outlook.startsAt) == 15)
    }

    @Test func rainStoppingWithinTheHorizon() throws {
        let outlook = try #require(Self.outlook([2, 1, 0.5, 0, 0, 0, 0, 0]))
        #expect(outlook.wetNow)
        #expect(outlook.startsAt == nil)
        #expect(minutes(outlook.endsAt) == 45)
        #expect(approx(outlook.duration, 45 * 60, 1e-6))
        #expect(outlook.peak == 2)
        #expect(outlook.changes)
    }

    @Test func wetThroughoutChangesNothing() throws {
        let outlook = try #require(Self.outlook([1, 2, 3, 2, 1, 1, 1, 1]))
        #expect(outlook.wetNow)
        #expect(outlook.startsAt == nil && outlook.endsAt == nil)
        #expect(!outlook.changes)
        #expect(outlook.duration == nil)
        #expect(outlook.peak == 3)
    }

    @Test func rainStartingButNotEndingHasNoDuration() throws {
        let outlook = try #require(Self.outlook([0, 0, 0, 0, 0, 0, 0.5, 3]))
        #expect(minutes(outlook.startsAt) == 90)
        #expect(outlook.endsAt == nil)
        #expect(outlook.duration == nil)
        #expect(outlook.peak == 3)
    }

    @Test func onlyTheFirstSpellIsDescribed() throws {
        let outlook = try #require(Self.outlook([0, 1, 0, 5, 0, 0, 0, 0]))
        #expect(minutes(outlook.startsAt) == 15)
        #expect(minutes(outlook.endsAt) == 30)
        #expect(outlook.peak == 1, "the later, heavier shower is not this spell's peak")
    }

    @Test func mixedKindsAndUnknownKinds() throws {
        let mixed = try #require(Self.outlook([0, 1, 1, 0], kinds: [nil, .rain, .snow, nil]))
        #expect(mixed.kind == .mixed)
        let unknown = try #require(Self.outlook([0, 1, 1, 0]))
        #expect(unknown.kind == nil)
        let snow = try #require(Self.outlook([0, 1, 1, 0], kinds: [.rain, .snow, .snow, .rain]))
        #expect(snow.kind == .snow, "only the spell's steps count")
    }

    @Test func aGapEndsTheHorizon() throws {
        // The fourth step is missing: nothing is said after the third.
        var nowcast = Self.nowcast([0, 0, 0, 0, 2, 2, 2, 2])
        nowcast.steps.remove(at: 3)
        let outlook = try #require(NowcastOutlook(nowcast, at: Self.now))
        #expect(outlook.horizonSeconds == 45 * 60)
        #expect(outlook.steps.count == 3)
        #expect(outlook.isDry, "no rain claimed after the gap, and none before it")
    }

    @Test func aStepWithoutIntensityEndsTheHorizon() throws {
        let outlook = try #require(Self.outlook([0, 0, nil, 3]))
        #expect(outlook.horizonSeconds == 30 * 60)
        #expect(outlook.startsAt == nil)
    }

    @Test func negativeOrNonFiniteIntensityEndsTheHorizon() throws {
        #expect(try #require(Self.outlook([0, -1, 3])).horizonSeconds == 15 * 60)
        #expect(try #require(Self.outlook([0, .nan, 3])).horizonSeconds == 15 * 60)
        #expect(try #require(Self.outlook([0, .infinity, 3])).horizonSeconds == 15 * 60)
        #expect(Self.outlook([nil, 3]) == nil, "no usable first step: no outlook")
    }

    @Test func unsortedStepsAreSorted() throws {
        var nowcast = Self.nowcast([0, 0, 1, 0])
        nowcast.steps.reverse()
        let outlook = try #require(NowcastOutlook(nowcast, at: Self.now))
        #expect(minutes(outlook.startsAt) == 30)
        #expect(minutes(outlook.endsAt) == 45)
        #expect(outlook.steps.map(\.start) == outlook.steps.map(\.start).sorted())
    }

    @Test func duplicateStepsCountOnceAndTheFirstGivenWins() throws {
        var nowcast = Self.nowcast([0, 0, 0, 0])
        nowcast.steps.insert(Nowcast.Step(start: Self.now.addingTimeInterval(900), intensity: 9), at: 3)
        let outlook = try #require(NowcastOutlook(nowcast, at: Self.now))
        #expect(outlook.steps.count == 4)
        #expect(outlook.isDry, "the later duplicate (9 mm/h) is ignored")
    }

    @Test func stepsInThePastAreDropped() throws {
        // Data from an hour ago, read now: the first four steps are over.
        let outlook = try #require(Self.outlook([5, 5, 5, 5, 0, 0, 0, 0, 0, 0, 0, 0], offset: -60))
        #expect(outlook.steps.count == 8)
        #expect(!outlook.wetNow)
        #expect(outlook.isDry)
    }

    @Test func aStepThatStartedBeforeNowCoversNow() throws {
        // 10 minutes into a 15-minute wet step.
        let outlook = try #require(Self.outlook([1, 1, 0, 0], at: 10))
        #expect(outlook.wetNow)
        #expect(minutes(outlook.endsAt) == 30)
        #expect(approx(outlook.duration, 20 * 60, 1e-6))
        #expect(outlook.horizonSeconds == 50 * 60)
    }

    @Test func dataThatEndedOrStartsFarAheadGivesNoOutlook() {
        #expect(Self.outlook([1, 1], at: 30) == nil, "every step is over")
        #expect(Self.outlook([1, 1], offset: 20) == nil, "the first step starts more than a step after now")
        #expect(Self.outlook([]) == nil)
    }

    @Test func dataStartingWithinAStepOfNowStartsThere() throws {
        let outlook = try #require(Self.outlook([2, 0], offset: 5))
        #expect(!outlook.wetNow)
        #expect(minutes(outlook.startsAt) == 5)
        #expect(minutes(outlook.endsAt) == 20)
    }

    @Test func horizonIsCappedAtTwoHours() throws {
        let outlook = try #require(Self.outlook(Array(repeating: 0, count: 20) + [4]))
        #expect(outlook.horizonSeconds == 7200)
        #expect(outlook.steps.count == 8)
        #expect(outlook.isDry, "rain after two hours is beyond the horizon")
    }

    @Test func minuteStepsAsPirateWeatherSendsThem() throws {
        let values: [Double?] = (0..<61).map { $0 >= 25 && $0 < 40 ? 0.8 : 0 }
        let outlook = try #require(Self.outlook(values, step: 60))
        #expect(minutes(outlook.startsAt) == 25)
        #expect(minutes(outlook.endsAt) == 40)
        #expect(outlook.horizonSeconds == 61 * 60)
    }

    @Test func farFutureAndFarPastDatesDoNotTrap() {
        let far = Nowcast(source: .metNorway, stepSeconds: 300,
                          steps: [Nowcast.Step(start: Date(timeIntervalSince1970: 253_402_300_000), intensity: 1),
                                  Nowcast.Step(start: Date(timeIntervalSince1970: 253_402_300_300), intensity: 1),
                                  Nowcast.Step(start: Date(timeIntervalSince1970: 253_402_300_600), intensity: 1),
                                  Nowcast.Step(start: Date(timeIntervalSince1970: -62_135_596_800), intensity: 1)],
                          issued: Self.now)
        #expect(NowcastOutlook(far, at: Self.now) == nil)
        #expect(NowcastOutlook(far, at: Date(timeIntervalSince1970: 253_402_300_000)) != nil, "15 minutes at the end of year 9999")
    }

    @Test func aNowcastOlderThanFifteenMinutesIsNotCurrent() throws {
        var report = WeatherReport(provider: .openMeteo, units: .metric, utcOffset: 0,
                                   current: CurrentConditions(time: Self.now, temperature: 10))
        report.nowcast = Self.nowcast([0, 0, 1, 1, 0, 0, 0, 0])
        report.freshness = Freshness(cached: true, ageSeconds: 900)
        #expect(report.nowcastOutlook(at: Self.now.addingTimeInterval(900)) != nil, "15 minutes is still current")
        report.freshness = Freshness(cached: true, ageSeconds: 901)
        #expect(report.nowcastOutlook(at: Self.now.addingTimeInterval(901)) == nil)
        #expect(!report.nowcastIsCurrent)
        report.freshness = Freshness(replayed: true)
        let replayed = try #require(report.nowcastOutlook(at: Self.now.addingTimeInterval(86_400 * 30)))
        #expect(replayed.now == Self.now, "a replayed recording is read at its own time")
    }

    // MARK: An empty horizon (issue 35 A4)

    @Test func stepsAllAtOneTimeAreNoNowcast() {
        let nowcast = Nowcast(source: .pirateWeather, stepSeconds: 60,
                              steps: Array(repeating: Nowcast.Step(start: Self.now, intensity: 0), count: 61), issued: Self.now)
        #expect(NowcastOutlook(nowcast, at: Self.now) == nil, "one minute of data, however many steps")
        #expect(NowcastOutlook(nowcast, at: Self.now.addingTimeInterval(50)) == nil)
    }

    @Test func aHorizonUnderFifteenMinutesIsNoNowcast() throws {
        #expect(Self.outlook([0], at: 1) == nil, "14 minutes left")
        #expect(Self.outlook([0, 0], at: 15.01) == nil)
        #expect(try #require(Self.outlook([0, 0], at: 15)).horizonSeconds == 15 * 60, "15 minutes is enough")
        #expect(Self.outlook([0, .nan, 3])?.horizonSeconds == 900.0)
        #expect(Self.outlook([.nan, .nan]) == nil)
        // Pirate Weather's minutes: 14 of them is not enough.
        #expect(Self.outlook(Array(repeating: 0, count: 14), step: 60) == nil)
        #expect(try #require(Self.outlook(Array(repeating: 0, count: 15), step: 60)).horizonSeconds == 15 * 60)
    }

    @Test func ratesOverThePhysicalLimitAreUnknown() throws {
        #expect(try #require(Self.outlook([0, 500, 0])).peak == 500, "500 mm/h is the limit, still a rate")
        let capped = try #require(Self.outlook([0, 0, 501, 0]))
        #expect(capped.horizonSeconds == 30 * 60, "the step over the limit ends what is known")
        #expect(capped.isDry)
        #expect(Self.outlook([1e9, 0, 0]) == nil, "an unknown first step: no outlook")
    }

    @Test func neverNoRainInTheNextZeroMinutes() throws {
        // The only step ends 10 s after now: nothing is said, in any output.
        var report = try FormatStringTests.report("tampa-rain-in-30-min.json")
        report.nowcast = Nowcast(source: .openMeteo, stepSeconds: 900,
                                 steps: [Nowcast.Step(start: Self.now.addingTimeInterval(-890), intensity: 0)], issued: Self.now)
        let text = TextReport(location: FormatStringTests.tampa, report: report, style: .plain)
        var at = text
        at.now = Self.now
        #expect(!at.render().contains("in the next"), "\(at.render())")
        let fields = ReportFields(location: FormatStringTests.tampa, report: report, now: Self.now)
        #expect(try FormatString("%R").render(fields) == "")
        #expect(JSONReport.render(location: FormatStringTests.tampa, report: report, now: Self.now).contains(#""horizon_s":null"#))
    }
}
