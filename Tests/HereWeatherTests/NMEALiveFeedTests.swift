import Foundation
import Testing
@testable import HereWeatherCore

/// A live NMEA feed (a device or FIFO) is a receiver like gpsd's: its fixes are current when
/// they arrive, whatever the receiver's date; a log file runs on its own clock.
@Suite struct NMEALiveFeedTests {
    static let arrival = Date(timeIntervalSince1970: 1_795_700_000)   // this machine's clock
    static let receiverDate = Date(timeIntervalSince1970: 2_064_312_000)  // 2035-06-01

    func fix(dated: Bool) -> NMEAFix {
        var fix = NMEAFix(time: Self.receiverDate, coordinate: Coordinate(latitude: 27.95, longitude: -82.46),
                          isValid: true, mode: 3)
        fix.horizontalAccuracy = 5
        fix.dateFromLog = dated
        return fix
    }

    @Test func aLiveFeedsFixIsCurrentOnArrivalWithTheReceiversDateKept() {
        var playback = NMEAPlayback(request: LocationRequest(maxAge: .seconds(1)), speed: .max, live: true,
                                    clock: TestClock(date: Self.arrival))
        guard case .answer(let location) = playback.take(fix(dated: true)) else { Issue.record("no answer"); return }
        #expect(location.timestamp == Self.arrival)
        #expect(location.receiverTime == Self.receiverDate)
        #expect(location.logClock == nil)
        #expect(ReceiverClock.note(for: location)?.contains("this machine's clock is likely behind") == true)
    }

    @Test func aDateTheFeedDidNotGiveIsNoReceiversDate() {
        var playback = NMEAPlayback(request: LocationRequest(), speed: .max, live: true, clock: TestClock(date: Self.arrival))
        guard case .answer(let location) = playback.take(fix(dated: false)) else { Issue.record("no answer"); return }
        #expect(location.receiverTime == nil)
        #expect(ReceiverClock.note(for: location) == nil)
    }

    @Test func aLogFileRunsOnItsOwnClock() {
        var playback = NMEAPlayback(request: LocationRequest(maxAge: .seconds(1)), speed: .max)
        guard case .answer(let location) = playback.take(fix(dated: true)) else { Issue.record("no answer"); return }
        #expect(location.timestamp == Self.receiverDate)
        #expect(location.logClock == LogClock(start: Self.receiverDate, latest: Self.receiverDate))
        #expect(location.age(at: Self.arrival) == 0, "age on the log's clock, not from today")
        #expect(ReceiverClock.note(for: location) == nil)
    }

    @Test func rolloverIsWithinADayOfWholePeriods() {
        let period = ReceiverClock.rolloverPeriod
        #expect(ReceiverClock.compare(receiverTime: Self.arrival - period + 80_000, clock: Self.arrival) == .weekRollover(periods: 1))
        #expect(ReceiverClock.compare(receiverTime: Self.arrival - 2 * period, clock: Self.arrival) == .weekRollover(periods: 2))
        #expect(ReceiverClock.compare(receiverTime: Self.arrival - period + 90_000, clock: Self.arrival)
                == .receiverClockLikelyBehind(seconds: period - 90_000))
        #expect(ReceiverClock.compare(receiverTime: Self.arrival + 60, clock: Self.arrival) == nil)
        #expect(ReceiverClock.compare(receiverTime: Self.arrival + 61, clock: Self.arrival) == .machineClockLikelyBehind(seconds: 61))
    }

    /// Issue 35 A6: a live feed is an "NMEA device" in `where`, the report's origin and its
    /// replay note, never an "NMEA replay" or "NMEA log"; a log file still is one.
    @Test func aLiveFeedIsAnNMEADeviceAndALogAReplay() throws {
        var live = NMEAPlayback(request: LocationRequest(maxAge: .seconds(1)), speed: .max, live: true,
                                clock: TestClock(date: Self.arrival))
        guard case .answer(let device) = live.take(fix(dated: true)) else { Issue.record("no answer"); return }
        let source = LocationReport.text(device, now: Self.arrival.addingTimeInterval(2)).split(separator: "\n")
            .first { $0.hasPrefix("Source:") }
        #expect(source?.hasSuffix(" NMEA device, 3D fix") == true, "\(String(describing: source))")
        #expect(Provenance.text(device, now: Self.arrival.addingTimeInterval(2)) == "NMEA device ±5 m, 2 s ago")
        let report = try FormatStringTests.report()
        let text = TextReport(location: device, report: report, style: .plain).render()
        #expect(!text.contains("NMEA log") && !text.contains("Replayed"), "\(text)")

        var log = NMEAPlayback(request: LocationRequest(maxAge: .seconds(1)), speed: .max)
        guard case .answer(let replayed) = log.take(fix(dated: true)) else { Issue.record("no answer"); return }
        #expect(LocationReport.text(replayed).contains("Source:    NMEA replay, 3D fix"))
        #expect(TextReport(location: replayed, report: report, style: .plain).render().contains("Replayed: NMEA log"))
    }
}
