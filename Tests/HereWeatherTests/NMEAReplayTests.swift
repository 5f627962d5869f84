import Foundation
import Testing
@testable import HereWeatherCore

/// The NMEA replay source end to end: fixture logs through the real reader, parser,
/// epoch assembler, replay clock and request rules.
@Suite struct NMEAReplayTests {
    func replay(_ name: String, accuracy: DesiredAccuracy = .threeKilometres, timeout: Int = 10,
                maxAge: Duration? = .seconds(300), speed: ReplaySpeed = .max) async throws -> Location {
        let request = LocationRequest(desiredAccuracy: accuracy, timeout: .seconds(timeout), maxAge: maxAge, start: .now)
        return try await NMEAReplayLocationProvider(path: Fixtures.url("nmea/\(name)").path, speed: speed, clock: ContinuousClock())
            .requestLocation(request)
    }

    func utc(_ text: String) -> Date {
        LocalTime(iso8601: text)!.date(utcOffset: 0)
    }

    @Test func coldStartNeverReportsTheStalePositionAndTimesOutOnTheReplayClock() async throws {
        // 20 void epochs carrying Orlando: within 10 s of replay there is no fix at all.
        do {
            _ = try await replay("cold-start.nmea", timeout: 10)
            Issue.record("expected no fix")
        } catch let error as LocationError {
            #expect(error.exitStatus == .noLocation)
            #expect(error.message.contains("No NMEA fix within 10 s"))
            #expect(error.message.contains("0 used"))
        }
    }

    @Test func coldStartFirstFixIsTheTwoDimensionalOneWithAnHDOPEstimate() async throws {
        let fix = try await replay("cold-start.nmea", timeout: 60)
        #expect(fix.timestamp == utc("2026-11-22T14:05:20"))
        #expect(abs(fix.coordinate.latitude - 27.950604) < 1e-6)
        #expect(abs(fix.coordinate.longitude - -82.457110) < 1e-6)
        #expect(fix.mode == 2)
        #expect(fix.altitude == nil)
        #expect(fix.accuracyIsEstimate)
        #expect(fix.meetsDesiredAccuracy)
        #expect(fix.source == .nmea)
    }

    @Test func tenMetresWaitsForGSTAccuracy() async throws {
        let fix = try await replay("cold-start.nmea", accuracy: .within(metres: 10), timeout: 120)
        let accuracy = try #require(fix.horizontalAccuracy)
        #expect(accuracy <= 10)
        #expect(!fix.accuracyIsEstimate)
        #expect(fix.mode == 3)
        // GST at 14:05:32 is still 12.7/9.4 m: the answer comes later.
        #expect(fix.timestamp > utc("2026-11-22T14:05:32"))
    }

    @Test func bestReadsToTheEndAndReturnsTheMostAccurate() async throws {
        let fix = try await replay("cold-start.nmea", accuracy: .best, timeout: 3600)
        // The last GST (14:06:02) has the smallest sigmas: 4.5 and 3.6 m.
        #expect(fix.timestamp == utc("2026-11-22T14:06:02"))
        #expect(abs((fix.horizontalAccuracy ?? 0) - (4.5 * 4.5 + 3.6 * 3.6).squareRoot()) < 0.01)
        #expect(fix.meetsDesiredAccuracy)
    }

    @Test func theDeadlineReturnsTheBestFixMarkedAsNotMeetingTheAccuracy() async throws {
        let fix = try await replay("fix-lost.nmea", accuracy: .within(metres: 0.5), timeout: 20)
        #expect(!fix.meetsDesiredAccuracy)
        #expect(fix.timestamp <= utc("2026-11-22T15:20:20"), "only the first 20 s of the replay count")
    }

    @Test func voidEpochsCarryingTheLastPositionAreNotFixes() async throws {
        // The tunnel: 30 void epochs from 15:20:30 repeat the 15:20:29 position. With a max age of
        // 20 s and an accuracy never met, the answer at the end must be a real fix after the tunnel.
        let fix = try await replay("fix-lost.nmea", accuracy: .within(metres: 0.5), timeout: 3600, maxAge: .seconds(20))
        #expect(fix.timestamp >= utc("2026-11-22T15:21:00"))
    }

    @Test func maxAgeUsesTheReplayClock() async throws {
        // A fix, then ten minutes of void epochs: at the end of the log the fix is 600 s old.
        // (The void epoch before it is the one gpsd learns the receiver's cycle from.)
        let log = NMEALog.void(at: "115959") + NMEALog.fix(at: "120000", gst: 40) + (1...600).map { NMEALog.void(at: String(format: "12%02d%02d", $0 / 60, $0 % 60)) }.joined()
        let file = try NMEALog.write(log)
        let request = LocationRequest(desiredAccuracy: .within(metres: 10), timeout: .seconds(3600), maxAge: .seconds(300), start: .now)
        await #expect(throws: LocationError.self) {
            try await NMEAReplayLocationProvider(path: file.path, clock: ContinuousClock()).requestLocation(request)
        }
        let anyAge = LocationRequest(desiredAccuracy: .within(metres: 10), timeout: .seconds(3600), maxAge: nil, start: .now)
        let fix = try await NMEAReplayLocationProvider(path: file.path, clock: ContinuousClock()).requestLocation(anyAge)
        #expect(!fix.meetsDesiredAccuracy)
        #expect(fix.timestamp == utc("2026-11-22T12:00:00"))
    }

    @Test func badChecksumsNeverLeakAPosition() async throws {
        let fix = try await replay("bad-checksums.nmea", accuracy: .any)
        #expect(abs(fix.coordinate.latitude - 27.96) < 0.05)
        #expect(abs(fix.coordinate.longitude - -82.45) < 0.05)
    }

    @Test(arguments: [
        // gpsd's first fixes: the logs' first epochs, which the daemon reports (Fixtures/gpsd-json).
        ("southern-eastern.nmea", -33.868820, 151.209290),
        ("southern-western.nmea", -34.603722, -58.381589),
        ("hdop-only.nmea", 39.739236, -104.990246),
        ("simulated.nmea", 27.9477, -82.4586),
    ])
    func hemispheresAndFirstFixes(name: String, latitude: Double, longitude: Double) async throws {
        let fix = try await replay(name)
        #expect(abs(fix.coordinate.latitude - latitude) < 1e-6)
        #expect(abs(fix.coordinate.longitude - longitude) < 1e-6)
        #expect(fix.simulated == (name == "simulated.nmea"))
    }

    @Test func noFixSaysWhatWasSeen() async throws {
        do {
            _ = try await replay("no-fix.nmea", timeout: 3600)
            Issue.record("expected no fix")
        } catch let error as LocationError {
            #expect(error.message.contains("No fix in no-fix.nmea: the log ended before the receiver had a fix"), "\(error.message)")
            #expect(error.message.contains("in 40 epochs"))
            #expect(error.message.contains("9 satellites seen, 0 used"))
            #expect(!error.message.contains("clear view of the sky"), "a recording needs no advice about the sky")
        }
    }

    @Test func aFiniteSpeedKeepsThePaceButStillAnswers() async throws {
        let fix = try await replay("southern-western.nmea", accuracy: .best, timeout: 60, speed: .factor(50))
        #expect(fix.coordinate.latitude < -34)
    }

    @Test func unreadableInputsAreClearErrors() async throws {
        for path in ["/nonexistent/log.nmea", NSTemporaryDirectory()] {
            do {
                _ = try await NMEAReplayLocationProvider(path: path, clock: ContinuousClock()).requestLocation(LocationRequest(start: .now))
                Issue.record("expected an error for \(path)")
            } catch let error as LocationError {
                #expect(error.exitStatus == .noInput)
                #expect(error.message.contains(path))
            }
        }
    }

    @Test func aCharacterDeviceIsReadAsALiveFeed() async throws {
        // /dev/null: a device that ends at once, so no fix rather than a refusal.
        do {
            _ = try await NMEAReplayLocationProvider(path: "/dev/null", clock: ContinuousClock()).requestLocation(LocationRequest(start: .now))
            Issue.record("expected no fix")
        } catch let error as LocationError {
            #expect(error.exitStatus == .noLocation)
            #expect(error.message.contains("null ended after 0 epochs"), "\(error.message)")
        }
    }
}

/// Small NMEA logs written by tests.
enum NMEALog {
    static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(0) { $0 ^ $1 }
        return "$\(body)*\(String(format: "%02X", checksum))\r\n"
    }

    /// A 3D fix near Tampa at `time` (hhmmss), with a GST whose sigmas are `gst` metres.
    static func fix(at time: String, gst: Double) -> String {
        sentence("GPGGA,\(time).00,2757.0000,N,08227.6000,W,1,08,1.0,10.0,M,-30.0,M,,")
            + sentence("GPGSA,A,3,01,02,03,04,05,06,07,08,,,,,1.8,1.0,1.5")
            + sentence("GPRMC,\(time).00,A,2757.0000,N,08227.6000,W,0.0,0.0,221126,,,A")
            + sentence("GPGST,\(time).00,1.0,\(gst),\(gst),0.0,\(gst),\(gst),\(gst)")
    }

    /// A void epoch with no position.
    static func void(at time: String) -> String {
        sentence("GPGGA,\(time).00,,,,,0,00,99.99,,,,,,")
            + sentence("GPRMC,\(time).00,V,,,,,,,221126,,,N")
    }

    static func write(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString).nmea")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }
}
