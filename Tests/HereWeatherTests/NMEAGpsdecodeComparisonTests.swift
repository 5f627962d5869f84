import Foundation
import Testing
@testable import HereWeatherCore

/// Our NMEA decoding against gpsd's own decoder, `gpsdecode -j`, on every
/// `Fixtures/nmea/*.nmea` log: each TPV report with mode >= 2 must be one of our valid
/// fixes (same UTC time, same mode, lat/lon within 1e-7 degrees), and we must report no
/// valid fix at a time gpsd reports as no fix.
///
/// Known, explained differences, left out of the comparison:
/// - gpsd reports an epoch when it sees the sentence it has learned ends the receiver's
///   cycle, so it says nothing about a log's first epoch, while it is learning that. We
///   report every epoch; the first may be valid without a gpsd report.
/// - Some of gpsd's TPVs carry no time: before a log gives a date (RMC/ZDA), and for the
///   first fix after a run of no-fix epochs (cold-start.nmea, 14:05:20). Those are matched
///   by position only; we date such epochs with the date we are given or the log's last.
struct NMEAGpsdecodeComparisonTests {
    static let gpsdecode = "/usr/bin/gpsdecode"

    /// One TPV report of gpsdecode.
    struct Report {
        var mode: Int
        var latitude: Double?
        var longitude: Double?
    }

    static var fixtureNames: [String] {
        let folder = Fixtures.url("nmea")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".nmea") }.sorted()
    }

    /// gpsdecode's TPV reports that carry a time, by that time (ISO 8601, milliseconds), and
    /// those with mode >= 2 that carry none.
    static func gpsdReports(for url: URL) throws -> (timed: [String: Report], untimed: [Report]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gpsdecode)
        process.arguments = ["-j"]
        process.standardInput = try FileHandle(forReadingFrom: url)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var reports: [String: Report] = [:]
        var untimed: [Report] = []
        for line in output.split(separator: UInt8(ascii: "\n")) {
            // gpsd 3.22 prints malformed JSON for some ATT reports; those are not TPVs.
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                  object["class"] as? String == "TPV" else { continue }
            let report = Report(mode: object["mode"] as? Int ?? 0,
                                latitude: object["lat"] as? Double, longitude: object["lon"] as? Double)
            if let time = object["time"] as? String {
                reports[time] = report
            } else if report.mode >= 2 {
                untimed.append(report)
            }
        }
        return (reports, untimed)
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
    func validFixesMatchGpsdecode(_ name: String) throws {
        let url = Fixtures.url("nmea/\(name)")
        let (reports, untimed) = try Self.gpsdReports(for: url)
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
        // Our valid fixes that gpsd did not report with a time: only the log's first epoch, or
        // one whose position gpsd reported without a time.
        func reportedWithoutTime(_ fix: NMEAFix) -> Bool {
            guard let coordinate = fix.coordinate else { return false }
            return untimed.contains { report in
                guard let latitude = report.latitude, let longitude = report.longitude else { return false }
                return abs(latitude - coordinate.latitude) < 1e-7 && abs(longitude - coordinate.longitude) < 1e-7
            }
        }
        let unreported = fixes.filter { $0.value.isValid && reports[$0.key] == nil && !reportedWithoutTime($0.value) }
            .map(\.key).sorted()
        let firstEpoch = fixes.keys.min()
        #expect(unreported.isEmpty || unreported == [firstEpoch].compactMap { $0 },
                "\(name): valid fixes gpsd never reported: \(unreported)")
        #expect(compared > 0 || !fixes.values.contains { $0.isValid }, "\(name): nothing compared")
    }
}
