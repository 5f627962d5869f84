import Foundation
import Testing
@testable import HereWeatherCore

/// A log's first epoch, as gpsd the daemon reports it (issue 35 E33): until gpsd has learned
/// which sentence ends the receiver's cycle it reports after every sentence that sets a
/// position or a mode, so a first epoch with a fix is a fix. `gpsdecode -j` never reports it
/// (`NMEAGpsdecodeComparisonTests` compares the later epochs with it); the references here are
/// the real gpsd 3.22 fed the same log (`GPSDHarness`) and its recordings (`Fixtures/gpsd-json`).
@Suite struct NMEAFirstEpochTests {
    /// A GGA at 12:00:0`second` near Tampa with fix `quality` (8: simulation mode), 8 satellites.
    static func gga(_ second: Int, quality: Int = 1) -> String {
        let body = "GPGGA,12000\(second).00,2757.0852\(second),N,08227.54060,W,\(quality),08,1.02,12.0,M,-28.5,M,,"
        let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        let hex = String(sum, radix: 16, uppercase: true)
        return "$" + body + "*" + (hex.count == 1 ? "0" + hex : hex)
    }

    /// The latitude of `gga(second)`.
    static func latitude(_ second: Int) -> Double { 27 + Double("57.0852\(second)")! / 60 }

    static let twoEpochs = [gga(0), gga(1)]
    static let simulation = [gga(0, quality: 8), gga(1, quality: 8)]

    func fixes(_ lines: [String]) -> [NMEAFix] {
        var stream = NMEAStream(reader: NMEALineReader(bytes: Array(lines.joined(separator: "\r\n").utf8)),
                                date: NMEADate(year: 2026, month: 11, day: 22))
        var result: [NMEAFix] = []
        while let fix = stream.nextFix() { result.append(fix) }
        return result
    }

    /// A log of `lines` in a temporary file (removed when the test ends).
    func logFile(_ lines: [String]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("first-epoch-\(UUID().uuidString).nmea")
        try Data((lines.joined(separator: "\r\n") + "\r\n").utf8).write(to: url)
        return url
    }

    @Test func aLogsFirstEpochIsAFixWhenItHasOne() {
        #expect(fixes([Self.gga(0)]).map(\.isValid) == [true], "one epoch")
        #expect(fixes(Self.twoEpochs).map(\.isValid) == [true, true], "two epochs")
        let simulated = fixes(Self.simulation)
        #expect(simulated.map(\.isValid) == [true, true])
        #expect(simulated.allSatisfy { $0.simulated && $0.mode == 3 }, "GGA quality 8: gpsd's status 8")
        // A void first epoch is still no fix, and the end-of-cycle rule holds for the rest.
        #expect(fixes([Self.gga(0, quality: 0), Self.gga(1)]).map(\.isValid) == [false, true])
    }

    /// `where --replay` answers with the first epoch's fix, and a simulator's is named so.
    @Test func whereAnswersWithTheFirstEpoch() async throws {
        let two = try logFile(Self.twoEpochs)
        let simulation = try logFile(Self.simulation)
        defer {
            try? FileManager.default.removeItem(at: two)
            try? FileManager.default.removeItem(at: simulation)
        }
        let runner = try InProcessCommand()
        let result = try await runner.run(["where", "--json", "--replay", two.path])
        #expect(result.status == 0, "\(result.stderr)")
        let location = try #require(result.json?["location"] as? [String: Any])
        // A log without RMC or ZDA has no date: the replay dates it today.
        #expect((location["timestamp"] as? String)?.hasSuffix("T12:00:00+00:00") == true, "the first epoch's fix: \(location)")
        #expect(abs((location["latitude"] as? Double ?? 0) - Self.latitude(0)) < 1e-6)
        #expect(location["simulated"] as? Bool == false)

        let one = try await runner.run(["where", "--replay", simulation.path])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout.contains("Source:    NMEA replay, 3D fix, simulated"), "\(one.stdout)")
        #expect(one.stdout.contains("T12:00:00Z (log time, "), "\(one.stdout)")
    }

    /// The real gpsd fed the same logs reports the first epoch's fix, with status 8 for the
    /// simulator, and the replay's first fix is that one.
    @Test(.timeLimit(.minutes(2)), arguments: [false, true])
    func theRealGpsdReportsTheFirstEpochToo(simulated: Bool) async throws {
        let lines = simulated ? Self.simulation : Self.twoEpochs
        let log = try logFile(lines)
        defer { try? FileManager.default.removeItem(at: log) }
        let harness = try await GPSDHarness.started()
        defer { harness.stop() }
        harness.feed(log)
        let received = try await Gpspipe.watch(port: harness.port, seconds: 20) { objects in
            objects.contains { object in
                object["class"] as? String == "TPV" && (object["lat"] as? Double).map { abs($0 - Self.latitude(1)) < 1e-7 } == true
            }
        }
        #expect(await harness.fed(timeout: .seconds(10)), "feed: \(harness.feedError ?? "unfinished")")
        let gpsd = try #require(received.first { $0["class"] as? String == "TPV" && ($0["mode"] as? Int ?? 0) >= 2 },
                                "gpsd reported no fix; it said:\n\(harness.gpsdStderr)")
        #expect(abs((gpsd["lat"] as? Double ?? 0) - Self.latitude(0)) < 1e-7, "gpsd's first fix is the first epoch's: \(gpsd)")
        #expect((gpsd["status"] as? Int ?? 0) == (simulated ? 8 : 0), "\(gpsd)")

        let ours = try #require(fixes(lines).first { $0.isValid })
        #expect(abs((ours.coordinate?.latitude ?? 0) - Self.latitude(0)) < 1e-7)
        #expect(ours.mode == gpsd["mode"] as? Int)
        #expect(ours.simulated == simulated)
    }
}
