import Foundation
import Glibc
import HereWeatherCore
import Testing

/// Fix times that cannot be right: a fix dated in the future counted as fresh and was
/// remembered, so later runs with gpsd gone answered from that memory as "Age: 0 s" until
/// that date; a gpsd fix dated 1960 was stamped "now". One rule (`FixSelector.isFutureDated`,
/// 60 s of clock skew allowed) now refuses future fixes from gpsd, an NMEA log and the
/// remembered location, and a fix keeps the time its source gave.
@Suite(.serialized) struct FutureDatedFixTests {
    /// gpsd at `port`, always allowed, and no other source.
    func gpsdConfig(port: UInt16) -> String {
        GPSDFaultTests().config(port: port, fallback: false)
    }

    /// Ten epochs of a 3D fix near Tampa dated `offset` seconds from now (RMC first, so
    /// every report has the date).
    static func log(offset: Int, withDate: Bool = true) -> String {
        let start = Int(Date().timeIntervalSince1970) + offset
        var lines: [String] = []
        for second in 0..<10 {
            let (time, date) = GPSDFaultNMEA.clock(start + second)
            if withDate { lines.append(GPSDFaultNMEA.sentence("GPRMC,\(time),A,2757.03600,N,08227.43200,W,0.0,0.0,\(date),,,A")) }
            lines.append(GPSDFaultNMEA.sentence("GPGGA,\(time),2757.03600,N,08227.43200,W,1,08,1.0,10.0,M,-20.0,M,,"))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func write(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("future-\(UUID().uuidString).nmea")
        try text.write(to: url, atomically: true, encoding: .ascii)
        return url
    }

    // MARK: gpsd

    @Test func aGPSDFixDatedTomorrowIsRefusedAndNotRemembered() async throws {
        let harness = try await GPSDHarness.started()
        let log = try Self.write(Self.log(offset: 86_400))
        defer { try? FileManager.default.removeItem(at: log) }
        let runner = try InProcessCommand(queued: false)
        try runner.writeConfig(gpsdConfig(port: harness.port))
        harness.feed(log)
        let live = try await runner.run(["where", "--json", "--timeout", "4"], killAfter: .seconds(90))
        harness.stop()
        #expect(live.status == 75, "\(live.stdout)\(live.stderr)")
        #expect(live.stderr.contains("fixes dated in the future ignored (check this machine's clock)"), "\(live.stderr)")
        let memory = runner.home.appendingPathComponent(".local/state/here-weather/last-location.json")
        #expect(!FileManager.default.fileExists(atPath: memory.path), "a refused fix is not remembered")
        // gpsd gone: nothing remembered stands in.
        let later = try await runner.run(["where", "--json", "--timeout", "120"], killAfter: .seconds(90))
        #expect(later.status == 75, "\(later.stdout)\(later.stderr)")
        #expect(!later.killed)
    }

    @Test func aRememberedFixDatedInTheFutureIsNotUsed() async throws {
        let vacated = try ClosedPort()  // Nothing listens there, for the whole test.
        defer { withExtendedLifetime(vacated) {} }
        let runner = try InProcessCommand(queued: false)
        try runner.writeConfig(gpsdConfig(port: vacated.port))
        let memory = runner.home.appendingPathComponent(".local/state/here-weather/last-location.json")
        try FileManager.default.createDirectory(at: memory.deletingLastPathComponent(), withIntermediateDirectories: true)
        let tomorrow = Date().timeIntervalSince1970 + 86_400
        try #"{"version":1,"latitude":27.95,"longitude":-82.46,"accuracy_m":50,"timestamp":\#(tomorrow),"source":"gpsd"}"#
            .write(to: memory, atomically: true, encoding: .utf8)
        let result = try await runner.run(["where", "--json", "--timeout", "120"], killAfter: .seconds(90))
        #expect(result.status == 75, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("gpsd is not running"), "\(result.stderr)")
    }

    /// gpsd's report keeps its time, even before 1970: max age then judges it.
    @Test func aGPSDFixDated1960IsNotStampedNow() async throws {
        let version = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#
        let devices = #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0","activated":"2026-11-25T08:00:00.000Z"}]}"#
        let fix = #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"1960-06-01T12:00:00.000Z","#
            + #""lat":27.9506,"lon":-82.4572,"altMSL":10.0,"eph":5.0}"#
        let greeting = [version, devices, fix].map { $0 + "\r\n" }.joined()
        let peer = try FakeTCPPeer(.init(greeting: Array(greeting.utf8), closes: false))
        defer { peer.stop() }
        let runner = try InProcessCommand(queued: false)
        try runner.writeConfig(gpsdConfig(port: peer.port))
        let result = try await runner.run(["where", "--json", "--timeout", "2"], killAfter: .seconds(90))
        #expect(result.status == 75, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("1 fixes older than the max age ignored"), "\(result.stderr)")
        let anyAge = try await runner.run(["where", "--json", "--timeout", "2", "--max-age", "off"], killAfter: .seconds(90))
        #expect(anyAge.status == 0, "\(anyAge.stderr)")
        let location = anyAge.json?["location"] as? [String: Any]
        #expect((location?["timestamp"] as? String)?.hasPrefix("1960-06-01T") == true, "\(anyAge.stdout)")
    }

    // MARK: NMEA replay

    @Test func anNMEALogDatedTomorrowIsRefused() async throws {
        let log = try Self.write(Self.log(offset: 86_400))
        defer { try? FileManager.default.removeItem(at: log) }
        let runner = try InProcessCommand()
        let result = try await runner.run(["where", "--replay", log.path, "--json"])
        #expect(result.status == 75, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("10 fixes dated in the future ignored"), "\(result.stderr)")
    }

    /// A log without dates (GGA only) is dated today by assumption: a time of day later than
    /// now is no reason to refuse it.
    @Test func anUndatedLogLaterInTheDayIsReplayed() async throws {
        let log = try Self.write(Self.log(offset: 3 * 3600, withDate: false))
        defer { try? FileManager.default.removeItem(at: log) }
        let runner = try InProcessCommand()
        let result = try await runner.run(["where", "--replay", log.path, "--json", "--max-age", "off"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    // MARK: The rule

    static let now = Date(timeIntervalSince1970: 1_795_374_878)

    func fix(at offset: TimeInterval) -> Location {
        Location(coordinate: Coordinate(latitude: 27.95, longitude: -82.46), horizontalAccuracy: 10,
                 timestamp: Self.now.addingTimeInterval(offset), source: .gpsd)
    }

    @Test func fixesAheadOfTheClockBeyondTheToleranceAreRefused() {
        var selector = FixSelector(request: LocationRequest(desiredAccuracy: .threeKilometres, timeout: .seconds(5), maxAge: nil))
        #expect(selector.consider(fix(at: FixSelector.clockSkewTolerance + 1), now: Self.now, clock: Self.now) == nil)
        #expect(selector.futureFixesSeen == 1)
        #expect(selector.ignored == ["1 fixes dated in the future ignored (check this machine's clock)"])
        #expect(selector.consider(fix(at: FixSelector.clockSkewTolerance), now: Self.now, clock: Self.now) != nil)
        // A replayed log's own clock is not this machine's: no clock, no judgement.
        #expect(selector.consider(fix(at: 86_400), now: Self.now.addingTimeInterval(86_400), clock: nil) != nil)
        #expect(FixSelector.isFutureDated(Self.now.addingTimeInterval(61), clock: Self.now))
        #expect(!FixSelector.isFutureDated(Self.now.addingTimeInterval(-1e9), clock: Self.now))
    }
}
