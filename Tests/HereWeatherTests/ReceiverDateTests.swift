import Foundation
import Glibc
import HereWeatherCore
import HereWeatherGPSD
import Testing

/// The freshness rule, through the release binary: a live fix is current when it arrives,
/// whatever date its receiver puts on it (gpsd dates old recordings in the 2030s; receivers
/// with the week-rollover bug report dates 1024 weeks back; a fake gpsd says 1960 or 2099).
/// The receiver's date is kept (`receiver_time`) and named; nothing is remembered as fresh
/// beyond max age; a log replay runs on the log's clock. (This replaces issue 14's "a fix
/// dated in the future is refused", which left real receivers without a location.)
@Suite(.serialized) struct ReceiverDateTests {
    func gpsdConfig(port: UInt16) -> String {
        GPSDFaultTests().config(port: port, fallback: false)
    }

    static let version = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#
    static let devices = #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0"}]}"#

    /// A fake gpsd that greets and sends one 3D fix near Tampa dated `time`, then holds the line.
    static func peer(time: String) throws -> FakeTCPPeer {
        let fix = #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"\#(time)","lat":27.9506,"lon":-82.4572,"altMSL":10.0,"eph":5.0}"#
        let greeting = [version, devices, fix].map { $0 + "\r\n" }.joined()
        return try FakeTCPPeer(.init(greeting: Array(greeting.utf8), closes: false))
    }

    /// The value of `where`'s "Label: value" row, whatever the padding.
    static func row(_ label: String, in text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix(label + ":") }
            .map { $0.dropFirst(label.count + 1).trimmingCharacters(in: .whitespaces) }
    }

    /// gpsd's "2007-04-12T13:33:20.000Z" for a Unix time.
    static func gpsdTime(_ seconds: Double) -> String {
        LocalTime.iso8601(Date(timeIntervalSince1970: seconds.rounded(.down)), utcOffset: 0)
            .replacing("+00:00", with: ".000Z")
    }

    struct DateCase: Sendable, CustomTestStringConvertible {
        let name: String
        let time: @Sendable () -> String
        let note: String
        var testDescription: String { name }
    }

    static let cases: [DateCase] = [
        DateCase(name: "1024 weeks ago (week rollover)",
                 time: { gpsdTime(Date().timeIntervalSince1970 - ReceiverClock.rolloverPeriod + 3600) },
                 note: "1024 weeks before this machine's clock: the GPS week rollover, a fault of the receiver's firmware"),
        DateCase(name: "2035 (gpsd's date for an old recording)", time: { "2035-06-01T12:00:00.000Z" },
                 note: "ahead of this machine's clock: this machine's clock is likely behind (check it with `timedatectl`"),
        DateCase(name: "2099", time: { "2099-01-01T00:00:00.000Z" },
                 note: "ahead of this machine's clock: this machine's clock is likely behind"),
        DateCase(name: "1960", time: { "1960-06-01T12:00:00.000Z" },
                 note: "behind this machine's clock: the receiver's clock is likely wrong"),
    ]

    @Test(arguments: cases)
    func aReceiverOnAnyDateIsUsed(_ date: DateCase) async throws {
        let time = date.time()
        let peer = try Self.peer(time: time)
        defer { peer.stop() }
        let runner = try CommandRunner()
        try runner.writeConfig(gpsdConfig(port: peer.port))
        let started = Date()
        for maxAge in [[], ["--max-age", "off"]] {
            let json = try await runner.run(["where", "--json", "--timeout", "20"] + maxAge, setup: .init())
            #expect(json.status == 0, "\(json.stderr)")
            let location = try #require(json.json?["location"] as? [String: Any], "\(json.stdout)")
            #expect(location["receiver_time"] as? String == time.replacing(".000Z", with: "+00:00"), "\(json.stdout)")
            let arrival = try #require((location["timestamp"] as? String).flatMap { LocalTime(iso8601: String($0.prefix(19))) })
            #expect(abs(arrival.date(utcOffset: 0).timeIntervalSince(started)) < 120, "timestamp is the arrival: \(json.stdout)")
        }
        let text = try await runner.run(["where", "--timeout", "20"], setup: .init())
        #expect(text.status == 0, "\(text.stderr)")
        #expect(Self.row("Receiver time", in: text.stdout) == time.replacing(".000Z", with: "Z"), "\(text.stdout)")
        // The note wraps to 80 columns under itself (where fits the width: issue 35 D26).
        let note = text.stdout.replacing(#/\n +/#, with: " ")
        #expect(note.contains("Note: The receiver dates its fixes " + time.replacing(".000Z", with: "Z")), "\(text.stdout)")
        #expect(note.contains(date.note), "\(text.stdout)")
        #expect(text.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(text.stdout)")
        // Current on arrival (or remembered from the runs above): seconds or minutes old, never
        // the hours to the receiver's date.
        #expect(Self.row("Age", in: text.stdout).map { !$0.hasSuffix(" h") } == true, "\(text.stdout)")
        // --verbose names it too, on stderr, beside the report.
        let weather = GPSDFaultTests.weather
        let report = try await runner.run(["--verbose", "--weather-replay", weather, "--timeout", "20"], setup: .init())
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stderr.contains("location: Time: "), "\(report.stderr)")
        #expect(report.stderr.contains("Receiver time: " + time.replacing(".000Z", with: "Z")), "\(report.stderr)")
        #expect(report.stderr.contains("location: Note: The receiver dates its fixes"), "\(report.stderr)")
    }

    /// Before, gpsd's fixes of an old recording (dated 2035) were all refused, and the run then
    /// said "gpsd ... closed the connection before a fix" though gpsd had sent dozens of fixes.
    @Test func fixesDated2035ThenAClosedConnectionGiveTheFix() async throws {
        let fixes = (0..<20).map { second in
            #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2035-06-01T12:00:\#(second < 10 ? "0" : "")\#(second).000Z","lat":27.9506,"lon":-82.4572,"eph":5.0}"#
        }
        let stream = ([Self.version, Self.devices] + fixes).map { $0 + "\r\n" }.joined()
        let peer = try FakeTCPPeer(.init(greeting: Array(stream.utf8), closes: true))
        defer { peer.stop() }
        let runner = try InProcessCommand(queued: false)
        try runner.writeConfig(gpsdConfig(port: peer.port))
        let result = try await runner.run(["where", "--json", "--timeout", "20"], killAfter: .seconds(180), assembly: .gpsdOnly)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("closed the connection"), "\(result.stderr)")
        let location = result.json?["location"] as? [String: Any]
        #expect((location?["receiver_time"] as? String)?.hasPrefix("2035-06-01T12:00:00") == true, "\(result.stdout)")
    }

    /// Issue 14's guard, kept: the 2099 fix is remembered with its arrival, so with max age 1
    /// it stands in exactly 1 s later and not 1 ms after that. In process, on a test clock
    /// (the real gpsd provider talks to a fake gpsd; its arrival is the clock's date).
    @Test func a2099FixIsNotFreshJustOverOneSecondLaterWithMaxAgeOne() async throws {
        let peer = try Self.peer(time: "2099-01-01T00:00:00.000Z")
        defer { peer.stop() }
        let clock = TestClock()
        let vacated = try ClosedPort()
        defer { withExtendedLifetime(vacated) {} }
        let system = RunSystem.test(gpsd: .libgps(clock: clock),
                                    clock: clock)
        let runner = try InProcessCommand()
        try runner.writeConfig(gpsdConfig(port: peer.port))
        let first = try await runner.run(["where", "--json", "--timeout", "20"], killAfter: .seconds(180),
                                         assembly: .test(system))
        peer.stop()
        #expect(first.status == 0, "\(first.stderr)")
        let memory = runner.home.appendingPathComponent(".local/state/here-weather/last-location.json")
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: memory)) as? [String: Any]
        let timestamp = try #require(saved?["timestamp"] as? Double)
        #expect(timestamp == clock.date.timeIntervalSince1970, "remembered with its arrival on the run's clock, not 2099")
        #expect((saved?["receiver_time"] as? Double ?? 0) > 4_000_000_000, "the receiver's date is remembered beside")
        // gpsd gone (nothing on its port now). Exactly 1 s later, max age 1: still fresh.
        try runner.writeConfig(gpsdConfig(port: vacated.port))
        let arguments = ["where", "--json", "--timeout", "20", "--max-age", "1"]
        clock.advance(1)
        let atOne = try await runner.run(arguments, killAfter: .seconds(180), assembly: .test(system))
        #expect(atOne.status == 0, "\(atOne.stdout)\(atOne.stderr)")
        // 1 ms more: stale.
        clock.advance(0.001)
        let later = try await runner.run(arguments, killAfter: .seconds(180), assembly: .test(system))
        #expect(later.status == 75, "\(later.stdout)\(later.stderr)")
        #expect(later.stderr.contains("older than the max age of 1 s"), "\(later.stderr)")
    }

    @Test func aRememberedFixDatedInTheFutureIsNotUsed() async throws {
        let vacated = try ClosedPort()  // Nothing listens there, for the whole test.
        defer { withExtendedLifetime(vacated) {} }
        let runner = try InProcessCommand()
        try runner.writeConfig(gpsdConfig(port: vacated.port))
        let memory = runner.home.appendingPathComponent(".local/state/here-weather/last-location.json")
        try FileManager.default.createDirectory(at: memory.deletingLastPathComponent(), withIntermediateDirectories: true)
        let tomorrow = Date().timeIntervalSince1970 + 86_400
        try #"{"version":1,"latitude":27.95,"longitude":-82.46,"accuracy_m":50,"timestamp":\#(tomorrow),"source":"gpsd"}"#
            .write(to: memory, atomically: true, encoding: .utf8)
        let result = try await runner.run(["where", "--json", "--timeout", "120"], killAfter: .seconds(180), assembly: .gpsdOnly)
        #expect(result.status == 75, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("gpsd is not running"), "\(result.stderr)")
        #expect(result.stderr.contains("is dated after this machine's clock (was the clock set back?)"), "\(result.stderr)")
    }

    // MARK: Through the real gpsd, a recording dated days before today

    /// A log recorded days ago (drive.nmea, 2026-11-21/22), through the real gpsd and the
    /// release binary with the default max age of 5 minutes: gpsd's fix is current on arrival
    /// and is one of gpsd's fixes for the log, its date kept as the receiver's.
    ///
    /// Once per log and per max age before (32 gpsd runs, the suite's long pole). The log and
    /// the max age are covered elsewhere: every log with both max ages through the rules,
    /// in-process, on gpsd's recorded reports (`GPSDSessionRulesTests`); every log through the
    /// real gpsd and libgps once (`GPSDLocationProviderTests.answerEqualsGPSDsOwnFirstFix`);
    /// both max ages through the binary on four receiver dates (`aReceiverOnAnyDateIsUsed`).
    @Test func aRecordingDatedDaysAgoGivesOneOfGPSDsFixes() async throws {
        let log = Fixtures.url("nmea/drive.nmea")
        // gpsd's fixes for this log, as it sent them when recorded (Fixtures/gpsd-json).
        let reference = GPSDSessionRulesTests.fixes(try GPSDSessionRulesTests.recording("drive"))
        try #require(!reference.isEmpty, "gpsd sent no fix for drive")
        let harness = try await GPSDHarness.started()
        defer { harness.stop() }
        let runner = try CommandRunner()
        try runner.writeConfig(gpsdConfig(port: harness.port))
        harness.feed(log)
        let result = try await runner.run(["where", "--json", "--accuracy", "any", "--timeout", "20"], setup: .init())
        #expect(result.status == 0, "\(result.stderr)\ngpsd: \(harness.gpsdStderr)")
        let location = try #require(result.json?["location"] as? [String: Any], "\(result.stdout)")
        let (latitude, longitude) = (location["latitude"] as? Double ?? .nan, location["longitude"] as? Double ?? .nan)
        #expect(reference.contains { abs($0.latitude - latitude) < 1e-6 && abs($0.longitude - longitude) < 1e-6 },
                "\(latitude),\(longitude) is none of gpsd's fixes")
        #expect((location["receiver_time"] as? String)?.hasPrefix("2026-11-2") == true, "\(result.stdout)")
        #expect(location["source"] as? String == "gpsd")
    }

    // MARK: NMEA replay: the log's clock

    /// Ten epochs near Tampa dated `offset` seconds from now.
    static func log(offset: Int) -> String {
        let start = Int(Date().timeIntervalSince1970) + offset
        var lines: [String] = []
        for second in 0..<10 {
            let (time, date) = GPSDFaultNMEA.clock(start + second)
            lines.append(GPSDFaultNMEA.sentence("GPRMC,\(time),A,2757.03600,N,08227.43200,W,0.0,0.0,\(date),,,A"))
            lines.append(GPSDFaultNMEA.sentence("GPGGA,\(time),2757.03600,N,08227.43200,W,1,08,1.0,10.0,M,-20.0,M,,"))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    @Test func aReplayRunsOnTheLogsClock() async throws {
        let runner = try InProcessCommand()
        // Recorded days ago: the age counts on the log's clock, not from today.
        let drive = try await runner.run(["where", "--replay", Fixtures.url("nmea/drive.nmea").path])
        #expect(drive.status == 0, "\(drive.stderr)")
        #expect(Self.row("Time", in: drive.stdout)?.hasPrefix("2026-11-21T23:57:") == true, "\(drive.stdout)")
        #expect(drive.stdout.contains("into the log)"), "\(drive.stdout)")
        #expect(drive.stdout.contains("before the log's latest sentence"), "\(drive.stdout)")
        #expect(!drive.stdout.contains(" h before"), "\(drive.stdout)")
        #expect(!drive.stdout.contains("Note:"), "a recording's date is no clock trouble")
        // Dated tomorrow: a log's date is its own, not a reason to refuse it.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tomorrow-\(UUID().uuidString).nmea")
        try Self.log(offset: 86_400).write(to: url, atomically: true, encoding: .ascii)
        defer { try? FileManager.default.removeItem(at: url) }
        let tomorrow = try await runner.run(["where", "--replay", url.path, "--json"])
        #expect(tomorrow.status == 0, "\(tomorrow.stderr)")
    }
}
