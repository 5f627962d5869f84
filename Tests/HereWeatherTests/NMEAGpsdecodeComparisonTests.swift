import Foundation
import Testing
@testable import HereWeatherCore

/// Our NMEA decoding against gpsd's own decoder, `gpsdecode -j`, on every
/// `Fixtures/nmea/*.nmea` log: each TPV report with mode >= 2 must be one of our valid
/// fixes (same UTC time, same mode, lat/lon within 1e-7 degrees, simulated exactly when
/// gpsd's status is 8), and we must report no valid fix at a time gpsd reports as no fix.
/// Reports without a time are matched by position, with the same mode and status.
///
/// Every valid fix of ours is one gpsd reports too: an epoch is a fix only when gpsd's
/// end-of-cycle detector reports it (`NMEACycleDetector`). The log's first epoch is the one
/// difference between gpsdecode and the daemon a client reads: gpsdecode never reports it,
/// while the daemon, which knows no end of cycle yet, reports after each position or mode
/// sentence. We follow the daemon there, and compare the first epoch with the daemon's own
/// recordings (`Fixtures/gpsd-json`, the real gpsd 3.22 fed these logs).
///
/// Known, explained differences, left out of the comparison:
/// - Some of gpsd's TPVs carry no time: before a log gives a date (RMC/ZDA), and for the
///   first fix after a run of no-fix epochs (cold-start.nmea, 14:05:20). Those are matched
///   by position only; we date such epochs with the date we are given or the log's last.
/// - When the sentences of one epoch disagree (a GGA with a fix, an RMC with status V and
///   mode N), the epoch is void for us; gpsd lets the sentence that ends its cycle decide.
///   A simulator's RMC status V (mode S) is the exception: it is what the standard asks of
///   a simulator, and gpsd reports its GGA's fix with status 8, as we do (simulated).
/// - gpsd may report an epoch more than once (at each cycle ender, at every position
///   sentence of the first epoch, or at a DBT before the GGA is in, as a 2D fix); its last
///   report of an epoch is what we compare.
/// - zero-satellites.nmea's first epoch: the daemon, reporting after each sentence, says
///   "no fix" after its GGA (quality 1 with 0 satellites used) and then a momentary 2D fix
///   at the coasting position after its GSA (mode 2, no satellites). We judge the epoch
///   whole: no fix; gpsd's first fix at an end of cycle (18:05:06) is our first.
struct NMEAGpsdecodeComparisonTests {
    static let gpsdecode = "/usr/bin/gpsdecode"

    /// One TPV report of gpsdecode.
    struct Report {
        var time: String?
        var mode: Int
        /// 0 (absent) for an ordinary fix; 8 for a simulator's.
        var status: Int
        var latitude: Double?
        var longitude: Double?

        func isAt(_ coordinate: Coordinate, within tolerance: Double = 1e-7) -> Bool {
            guard let latitude, let longitude else { return false }
            return abs(latitude - coordinate.latitude) < tolerance && abs(longitude - coordinate.longitude) < tolerance
        }
    }

    static var fixtureNames: [String] {
        let folder = Fixtures.url("nmea")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".nmea") }.sorted()
    }

    /// gpsdecode's TPV reports that carry a time, by that time (ISO 8601, milliseconds), and
    /// those with mode >= 2 that carry none.
    static func gpsdReports(for url: URL) async throws -> (timed: [String: Report], untimed: [Report]) {
        var reports: [String: Report] = [:]
        var untimed: [Report] = []
        for report in try await gpsdReportsInOrder(for: url) {
            if let time = report.time {
                reports[time] = report
            } else if report.mode >= 2 {
                untimed.append(report)
            }
        }
        return (reports, untimed)
    }

    /// gpsdecode's TPV reports, in the order it printed them (`GPSDHarness.gpsdecodeFixes`,
    /// which waits for gpsdecode on a thread of its own).
    static func gpsdReportsInOrder(for url: URL) async throws -> [Report] {
        try await GPSDHarness.gpsdecodeFixes(url).map { object in
            Report(time: object["time"] as? String, mode: object["mode"] as? Int ?? 0,
                   status: object["status"] as? Int ?? 0,
                   latitude: object["lat"] as? Double, longitude: object["lon"] as? Double)
        }
    }

    /// Our fixes for the log, by time in gpsd's format.
    static func ourFixes(for url: URL) throws -> [String: NMEAFix] {
        let bytes = [UInt8](try Data(contentsOf: url))
        var stream = NMEAStream(bytes: bytes, today: Date(timeIntervalSince1970: 1_795_000_000))
        var fixes: [String: NMEAFix] = [:]
        while let fix = stream.nextFix() {
            fixes[gpsdTime(fix.time)] = fix
        }
        return fixes
    }

    static func gpsdTime(_ date: Date) -> String {
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded())
        let wholeSeconds = Int((Double(milliseconds) / 1000).rounded(.down))
        let day = LocalTime(Date(timeIntervalSince1970: TimeInterval(wholeSeconds)), utcOffset: 0)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(day.year, 4))-\(pad(day.month, 2))-\(pad(day.day, 2))T\(pad(day.hour, 2)):\(pad(day.minute, 2)):"
            + "\(pad(day.second, 2)).\(pad(milliseconds - wholeSeconds * 1000, 3))Z"
    }

    @Test func thereAreFixturesToCompare() {
        #expect(Self.fixtureNames.count >= 1, "no Fixtures/nmea/*.nmea logs")
        #expect(FileManager.default.isExecutableFile(atPath: Self.gpsdecode), "gpsdecode is not installed")
    }

    @Test(arguments: fixtureNames)
    func validFixesMatchGpsdecode(_ name: String) async throws {
        let url = Fixtures.url("nmea/\(name)")
        let (reports, untimed) = try await Self.gpsdReports(for: url)
        let fixes = try Self.ourFixes(for: url)
        var compared = 0
        for (time, report) in reports.sorted(by: { $0.key < $1.key }) {
            if report.mode >= 2 {
                guard let fix = fixes[time] else {
                    Issue.record("\(name) \(time): gpsd has a mode \(report.mode) fix, we have no epoch")
                    continue
                }
                #expect(fix.isValid, "\(name) \(time): gpsd has a mode \(report.mode) fix, ours is not valid")
                #expect(fix.mode == report.mode, "\(name) \(time): mode \(fix.mode), gpsd \(report.mode)")
                #expect(fix.simulated == (report.status == 8), "\(name) \(time): simulated \(fix.simulated), gpsd status \(report.status)")
                if let latitude = report.latitude, let longitude = report.longitude, let coordinate = fix.coordinate {
                    #expect(abs(coordinate.latitude - latitude) < 1e-7, "\(name) \(time): latitude \(coordinate.latitude), gpsd \(latitude)")
                    #expect(abs(coordinate.longitude - longitude) < 1e-7, "\(name) \(time): longitude \(coordinate.longitude), gpsd \(longitude)")
                } else {
                    Issue.record("\(name) \(time): a position is missing (ours \(String(describing: fix.coordinate)))")
                }
                compared += 1
            } else if let fix = fixes[time] {
                #expect(!fix.isValid, "\(name) \(time): gpsd reports no fix, ours is valid")
            }
        }
        // Every fix gpsd reported without a time is one of our valid fixes, by position.
        for report in untimed {
            let match = fixes.values.first { fix in fix.coordinate.map { report.isAt($0) } ?? false }
            guard let match else {
                Issue.record("\(name): gpsd has a mode \(report.mode) fix at \(report.latitude ?? .nan), \(report.longitude ?? .nan) without a time; we have no epoch there")
                continue
            }
            #expect(match.isValid, "\(name): gpsd has a mode \(report.mode) fix at \(report.latitude ?? .nan), \(report.longitude ?? .nan), ours is not valid")
            #expect(match.mode == report.mode, "\(name): mode \(match.mode) at an untimed fix, gpsd \(report.mode)")
            #expect(match.simulated == (report.status == 8), "\(name): simulated \(match.simulated) at an untimed fix, gpsd status \(report.status)")
            compared += 1
        }
        // Our valid fixes that gpsd did not report with a time: only the log's first epoch
        // (which gpsdecode never reports; `firstFixIsTheDaemonsFirstFix` checks it), or one
        // whose position gpsd reported without a time.
        func reportedWithoutTime(_ fix: NMEAFix) -> Bool {
            guard let coordinate = fix.coordinate else { return false }
            return untimed.contains { $0.isAt(coordinate) }
        }
        let firstEpoch = fixes.keys.min()
        let unreported = fixes.filter { $0.value.isValid && reports[$0.key] == nil && !reportedWithoutTime($0.value) && $0.key != firstEpoch }
            .map(\.key).sorted()
        #expect(unreported.isEmpty, "\(name): valid fixes gpsd never reported: \(unreported)")
        #expect(compared > 0 || !fixes.values.contains { $0.isValid }, "\(name): nothing compared")
    }

    /// The daemon's TPV reports for `name` as recorded (`Fixtures/gpsd-json`), in order, less
    /// those of a known difference (`daemonDiffers`).
    static func daemonReports(for name: String) throws -> [Report] {
        let base = String(name.dropLast(".nmea".count))
        let data = try Data(contentsOf: Fixtures.url("gpsd-json/\(base).json"))
        let skipped = daemonDiffers[name]
        return GPSDHarness.parseJSONLines(data).filter { $0["class"] as? String == "TPV" }.compactMap { object in
            let report = Report(time: object["time"] as? String, mode: object["mode"] as? Int ?? 0,
                                status: object["status"] as? Int ?? 0,
                                latitude: object["lat"] as? Double, longitude: object["lon"] as? Double)
            return skipped != nil && report.time == skipped ? nil : report
        }
    }

    /// First epochs where the daemon's reports after single sentences are no fix of ours (see
    /// the type's comment): the time of the reports left out.
    static let daemonDiffers = ["zero-satellites.nmea": "2026-11-22T18:05:00.000Z"]

    /// The daemon's last report of the epoch whose first fix (mode >= 2) is `first`: the last
    /// at the same time, or, untimed, the first.
    static func lastReport(of first: Report, in reports: [Report]) -> Report {
        first.time.flatMap { time in reports.last { $0.time == time } } ?? first
    }

    /// Our first valid fix is the first fix (mode >= 2) of the real daemon fed the same log,
    /// as recorded: the same position, simulated exactly when its status is 8, the mode of its
    /// last report of that epoch, and the same time when the daemon's carries one.
    @Test(arguments: fixtureNames)
    func firstFixIsTheDaemonsFirstFix(_ name: String) async throws {
        let url = Fixtures.url("nmea/\(name)")
        let reports = try Self.daemonReports(for: name)
        let ours = try Self.ourFixes(for: url).values.filter(\.isValid).min { $0.time < $1.time }
        guard let first = reports.first(where: { $0.mode >= 2 }) else {
            #expect(ours == nil, "\(name): gpsd reports no fix; ours is at \(ours.map { Self.gpsdTime($0.time) } ?? "")")
            return
        }
        let fix = try #require(ours, "\(name): gpsd's first fix is at \(first.time ?? "no time"); we have none")
        #expect(fix.coordinate.map { first.isAt($0) } == true,
                "\(name): our first fix is at \(String(describing: fix.coordinate)), gpsd's at \(first.latitude ?? .nan), \(first.longitude ?? .nan)")
        #expect(fix.simulated == (first.status == 8), "\(name): simulated \(fix.simulated), gpsd status \(first.status)")
        // The epoch's time and mode: from its timed reports when the first carries no time.
        let timed = reports.first { $0.time != nil && $0.mode >= 2 && $0.isAt(fix.coordinate ?? Coordinate(latitude: 0, longitude: 0)) }
        let last = Self.lastReport(of: first.time == nil ? (timed ?? first) : first, in: reports)
        #expect(fix.mode == last.mode, "\(name): mode \(fix.mode), gpsd's last report of the epoch \(last.mode)")
        if let time = last.time {
            #expect(Self.gpsdTime(fix.time) == time, "\(name): our first fix is at \(Self.gpsdTime(fix.time)), gpsd's at \(time)")
        }
    }

    /// The first fix of a log made for a case where the parser once disagreed with gpsd 3.22.
    struct FirstFix: Sendable, CustomTestStringConvertible {
        var log: String
        /// Ours, in gpsd's format; gpsd's too where it gives one.
        var time: String
        var latitude: Double
        var longitude: Double
        var mode: Int
        /// gpsd's TPV status: 8 for a simulator (our `simulated`), else 0.
        var status: Int
        var testDescription: String { log }
    }

    /// Both the daemon's fix for that epoch (its last report there, as recorded) and our first
    /// fix are the expected one: position (within 1e-6 degrees, the generator's facts), mode
    /// and status; gpsdecode's first fix is the next epoch, or this one after a DBT.
    /// - simulator-status-v: GGA quality 8 with RMC status V, mode S. We had no fix at all.
    /// - zero-satellites: GGA quality 1 with 0 satellites used while the receiver coasts. We
    ///   took 18:05:00, six epochs before gpsd's first fix at an end of cycle.
    /// - mid-epoch: a capture that begins after the first epoch's GGA and GSA. Its RMC alone
    ///   is a 2D fix at 19:00:00, which the daemon reports (gpsdecode does not).
    /// - 10hz, 10hz-gga-first: 10 Hz with fractional seconds; the first epoch (.00, .700).
    /// - rmc-first: RMC before GGA, the order turning for two epochs. The daemon reports the
    ///   first epoch after each sentence (2D at the RMC, then 3D), later ones at the GGA.
    /// - sounder: a fish finder's RMC, DBT, GGA. DBT continues gpsd's cycle, so even gpsdecode
    ///   reports the first epoch (first at the DBT as 2D, then as 3D): its last report counts.
    @Test(arguments: [
        FirstFix(log: "simulator-status-v.nmea", time: "2026-11-22T17:30:01.000Z",
                 latitude: 27.9506, longitude: -82.4572, mode: 3, status: 8),
        FirstFix(log: "zero-satellites.nmea", time: "2026-11-22T18:05:06.000Z",
                 latitude: 27.960443, longitude: -82.447911, mode: 3, status: 0),
        FirstFix(log: "mid-epoch.nmea", time: "2026-11-22T19:00:00.000Z",
                 latitude: 27.9375, longitude: -82.4608, mode: 2, status: 0),
        FirstFix(log: "10hz.nmea", time: "2026-11-22T08:45:00.000Z",
                 latitude: 52.370216, longitude: 4.895168, mode: 3, status: 0),
        FirstFix(log: "10hz-gga-first.nmea", time: "2026-11-22T12:59:59.700Z",
                 latitude: 48.858370, longitude: 2.294481, mode: 3, status: 0),
        FirstFix(log: "rmc-first.nmea", time: "2026-11-22T20:10:00.000Z",
                 latitude: 27.771, longitude: -82.638, mode: 3, status: 0),
        FirstFix(log: "sounder.nmea", time: "2026-11-22T21:30:00.000Z",
                 latitude: 44.96, longitude: -93.26, mode: 3, status: 0),
    ])
    func firstFixAgreesWithTheDaemon(_ expected: FirstFix) async throws {
        let url = Fixtures.url("nmea/\(expected.log)")
        let position = Coordinate(latitude: expected.latitude, longitude: expected.longitude)
        let reports = try Self.daemonReports(for: expected.log)
        let first = try #require(reports.first { $0.mode >= 2 }, "gpsd reports no fix")
        let gpsd = Self.lastReport(of: first, in: reports)
        #expect(gpsd.isAt(position, within: 1e-6), "gpsd's first fix is at \(gpsd.latitude ?? .nan), \(gpsd.longitude ?? .nan)")
        #expect(gpsd.mode == expected.mode && gpsd.status == expected.status, "gpsd: mode \(gpsd.mode), status \(gpsd.status)")
        #expect(gpsd.time == nil || gpsd.time == expected.time, "gpsd's first fix is at \(gpsd.time ?? "")")

        let ours = try #require(try Self.ourFixes(for: url).values.filter(\.isValid).min { $0.time < $1.time }, "we report no fix")
        #expect(Self.gpsdTime(ours.time) == expected.time, "our first fix is at \(Self.gpsdTime(ours.time))")
        #expect(ours.coordinate.map { abs($0.latitude - position.latitude) < 1e-6 && abs($0.longitude - position.longitude) < 1e-6 } == true,
                "our first fix is at \(String(describing: ours.coordinate))")
        #expect(ours.mode == expected.mode && ours.simulated == (expected.status == 8), "ours: mode \(ours.mode), simulated \(ours.simulated)")
    }
}
