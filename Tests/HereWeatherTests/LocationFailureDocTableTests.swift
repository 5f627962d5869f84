import Foundation
import Testing
@testable import HereWeatherCore
import HereWeatherGPSD

/// docs/location.md's "When no location comes" table, row for row, against the code (issue 35,
/// D23): each row's exit status and the words it quotes ("..." stands for the rest) are what
/// the error of that failure says. A row added to the table without a case here, or a case
/// whose row is gone, fails the test.
@Suite struct LocationFailureDocTableTests {
    /// The error each row describes, by the row's first words; `nil` for the rows that are no
    /// failure (exit 0) or that a process test holds (`LocationFailureTableTests`).
    static let rows: [(what: String, error: LocationError?)] = [
        ("gpsd not running", .gpsdNotRunning(address: "127.0.0.1:2947")),
        ("connection refused by another host", .gpsdRefused(address: "192.0.2.7:2947")),
        ("another host out of reach", .gpsdNoConnection(address: "192.0.2.9:2947", host: "192.0.2.9", failure: .noAnswer(seconds: 10))),
        ("gpsd closed the connection", .gpsdClosed(address: "127.0.0.1:2947")),
        ("no libgps at all", .libgpsUnusable(address: "127.0.0.1:2947", problem: .missing, supported: LibGPSVersion.supportedList)),
        ("a libgps of a version", .libgpsUnusable(address: "127.0.0.1:2947",
                                                  problem: .unknownVersion(file: "/usr/lib/x86_64-linux-gnu/libgps.so.31", soname: "libgps.so.31"),
                                                  supported: LibGPSVersion.supportedList)),
        ("no device", .gpsdNoReceiver(address: "127.0.0.1:2947")),
        ("a device but no fix", .noFix(source: "GPS", seconds: 10, seen: "receiver on /dev/ttyACM0, 9 satellites seen, 0 used")),
        ("only fixes coarser", nil),
        ("only stale remembered fixes", nil),
        ("a replay file that holds no NMEA", .notNMEA(path: "README.md", lines: 120)),
        ("a replay that ends before a fix", .replayEnded(name: "no-fix.nmea", seen: "40 sentences in 40 epochs, 9 satellites seen, 0 used",
                                                         hadFixes: false)),
        ("a receiver whose clock is off", nil),
    ]

    /// The table's rows: what happened, the exit status, what it says (its first `code span`).
    static func table() throws -> [(what: String, exit: Int, says: String)] {
        let text = try String(contentsOf: Fixtures.root.appendingPathComponent("docs/location.md"), encoding: .utf8)
        let section = try #require(text.firstRange(of: "### When no location comes").map { text[$0.upperBound...] })
        let body = section.split(separator: "\n").drop { !$0.hasPrefix("| ---") }.dropFirst()
            .prefix { $0.hasPrefix("|") }
        return try body.map { (line: Substring) -> (what: String, exit: Int, says: String) in
            let cells: [String] = line.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false)
                .map { String($0).trimmingCharacters(in: .whitespaces) }
            try #require(cells.count >= 3, "\(line)")
            let says = cells[2...].joined(separator: "|")
            let quoted = says.split(separator: "`", omittingEmptySubsequences: false)
            return (cells[0], Int(cells[1]) ?? -1, quoted.count > 1 ? String(quoted[1]) : says)
        }
    }

    @Test func everyRowIsWhatTheCodeSays() throws {
        let table = try Self.table()
        #expect(table.count == Self.rows.count, "the table has \(table.count) rows, the test \(Self.rows.count)")
        for row in table {
            let match = Self.rows.first { row.what.hasPrefix($0.what) }
            guard let match else { Issue.record("no case for the row \"\(row.what)\""); continue }
            guard let error = match.error else {
                continue
            }
            #expect(Int(error.exitStatus.rawValue) == row.exit, "\(row.what): exit \(error.exitStatus.rawValue), the table says \(row.exit)")
            // The message without its code spans' backticks, which the table's own code span cannot hold.
            let message = error.message.replacing("`", with: "")
            var rest = Substring(message)
            for fragment in row.says.components(separatedBy: "...").map({ $0.trimmingCharacters(in: .whitespaces) })
                where !fragment.isEmpty {
                guard let found = rest.firstRange(of: fragment) else {
                    Issue.record("\(row.what): \"\(fragment)\" is not in the message (in order): \(message)")
                    break
                }
                rest = rest[found.upperBound...]
            }
        }
    }
}
