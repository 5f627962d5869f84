import Foundation
import HereWeatherCore
@testable import HereWeatherDBus
import Testing

/// The GeoClue source against the GeoClue stand-in (`GeoClueService`) for what the real
/// GeoClue cannot be made to do (issue 25, items 4 and 10): a spoofer on the bus, an
/// unreadable update, impossible and far-future timestamps, a Stop that never answers.
/// In-process: the point is the provider's logic over a real bus.
@Suite struct GeoClueStandInTests {
    static func provider(_ service: GeoClueService) -> GeoClueLocationProvider {
        GeoClueLocationProvider(connect: { try DBusConnection.connect(address: service.address) }, clock: ContinuousClock())
    }

    /// Another connection broadcasts a LocationUpdated for the client, naming a readable
    /// Location object (at 0.5, 0.5); then GeoClue names one that cannot be read. Neither ends
    /// the request: the real fix, 0.4 s later, does. (Before: the spoof's position was the
    /// answer; with only the bad update, the run ended with UnknownObject, exit 75.)
    @Test func aSpoofedUpdateIsIgnoredAndABadOneSkipped() async throws {
        let service = try await GeoClueService.started(fixture: "spoofed-then-real.json")
        defer { service.stop() }
        let fix = try await Self.provider(service).requestLocation(LocationRequest(timeout: .seconds(30), start: .now))
        #expect(fix.coordinate.latitude == 59.9139, "the spoofer's 0.5 is not GeoClue's")
        #expect(fix.coordinate.longitude == 10.7522)
        #expect(fix.horizontalAccuracy == 25)
        #expect(service.calls.contains("Stop"))
    }

    /// GeoClue's `Timestamp` is information: the fix is current when it arrives. `(1, 2^64-1)`
    /// is no time at all (unknown, not "now" and not 1970); 2100 is kept as it is, and the
    /// fix is not "too old" for a 5-minute max age.
    @Test(arguments: [("impossible-timestamp.json", nil), ("dated-2100.json", 4_102_444_800.0)] as [(String, Double?)])
    func geoClueTimesAreInformation(fixture: String, receiverTime: Double?) async throws {
        let service = try await GeoClueService.started(fixture: fixture)
        defer { service.stop() }
        let before = Date()
        let fix = try await Self.provider(service).requestLocation(LocationRequest(timeout: .seconds(30), maxAge: .seconds(300), start: .now))
        #expect(fix.timestamp >= before, "current: dated on arrival")
        #expect(fix.receiverTime?.timeIntervalSince1970 == receiverTime)
    }

    @Test func impossibleTimestampsAreUnknown() {
        let max = UInt64.max
        for (seconds, microseconds) in [(UInt64(0), UInt64(0)), (1, max), (1, 1_000_000), (max, 0), (UInt64(Int64.max), 0)] {
            #expect(GeoClueLocationProvider.timestamp(.structure([.uint64(seconds), .uint64(microseconds)])) == nil,
                    "(\(seconds), \(microseconds))")
        }
        #expect(GeoClueLocationProvider.timestamp(.structure([.uint64(1_700_000_000)])) == nil)
        #expect(GeoClueLocationProvider.timestamp(.string("now")) == nil)
        let date = GeoClueLocationProvider.timestamp(.structure([.uint64(1_700_000_000), .uint64(500_000)]))
        #expect(date?.timeIntervalSince1970 == 1_700_000_000.5)
    }

    /// A GeoClue whose Stop never answers: the request still ends (its fix of 25 km given at
    /// the deadline, as the best there was), Stop was sent, and its wait is bounded by
    /// `stopBound` (0.1 s; it was 0.5 s), not by the request's 120 s. The deadline is the
    /// provider's clock's: a test clock moved to it once the fix is being read (it was a real
    /// 15 s wait, which the Python stand-in's fix once took over 5 s of under full-suite load).
    @Test func aStopThatNeverAnswersIsBounded() async throws {
        let service = try await GeoClueService.started(fixture: "stop-hangs.json")
        defer { service.stop() }
        #expect(GeoClueLocationProvider.stopBound <= .milliseconds(100))
        let clock = TestClock()
        let provider = GeoClueLocationProvider(connect: { try DBusConnection.connect(address: service.address) }, clock: clock)
        let request = LocationRequest(timeout: .seconds(120), start: .now).starting(at: clock.now)
        let started = ContinuousClock.now
        let answer = Task { try await provider.requestLocation(request) }
        // Whatever happens below, the wait ends (it would read a still clock for ever).
        defer { answer.cancel(); clock.advance(by: .seconds(3600)) }
        let reading = ContinuousClock.now + .seconds(30)
        while !service.calls.contains("Read Latitude") && ContinuousClock.now < reading {
            try await Task.sleep(for: .milliseconds(10))
        }
        try #require(service.calls.contains("Read Latitude"), "the fix was never read: \(service.calls)")
        let arrived = clock.date
        let advanced = ContinuousClock.now
        clock.advance(by: .seconds(120))
        let fix = try await answer.value
        #expect(fix.horizontalAccuracy == 25_000)
        // Dated on the run's clock when it arrived (its read may end before or after the move),
        // not on the machine's.
        #expect([arrived, arrived.addingTimeInterval(120)].contains(fix.timestamp), "\(fix.timestamp)")
        #expect(service.calls.last == "Stop")
        // Only the client's read is logged: dbus_next reads every property once while it
        // exports the Location, and the clock moved on that read once, before the update
        // reached the provider ("no location within 120 s", in a full run at load 22).
        #expect(service.calls.filter { $0 == "Read Latitude" }.count == 1, "\(service.calls)")
        #expect(ContinuousClock.now - started < .seconds(30), "ended, not hung")
        print("GeoClue with a Stop that never answers ended \(ContinuousClock.now - advanced) after its deadline came")
    }
}
