import Foundation
import Glibc
import Testing

/// The rows of docs/location.md's "When no location comes" that `GPSDFaultTests` and
/// `ReceiverDateTests` do not hold, run in-process (their point is the message, not the
/// process): each names what happened.
@Suite(.serialized) struct LocationFailureTableTests {
    /// An IPv4 address of this machine that is not loopback, if it has one.
    static let outsideAddress: String? = {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return nil }
        defer { freeifaddrs(list) }
        var entry = list
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            guard let address = current.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            let found = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { socket -> String? in
                var ip = socket.pointee.sin_addr
                guard inet_ntop(AF_INET, &ip, &text, socklen_t(INET_ADDRSTRLEN)) != nil else { return nil }
                return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            if let found, !found.hasPrefix("127.") { return found }
        }
        return nil
    }()

    func config(host: String, port: UInt16) -> String {
        GPSDFaultTests().config(port: port, fallback: false).replacing(#"host = "127.0.0.1""#, with: #"host = "\#(host)""#)
    }

    @Test(.enabled(if: outsideAddress != nil))
    func connectionRefusedByAnotherHost() async throws {
        let host = try #require(Self.outsideAddress)
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let runner = try InProcessCommand()
        try runner.writeConfig(config(host: host, port: closed.port))
        let result = try await runner.run(["where", "--timeout", "120"], killAfter: .seconds(180), assembly: .gpsdOnly)
        #expect(result.status == 75, "\(result.stderr)")
        #expect(result.stderr.contains("gpsd on \(host):\(closed.port) refused the connection: gpsd is not running there, or a firewall rejects it"),
                "\(result.stderr)")
        #expect(!result.stderr.contains("sudo systemctl start gpsd"), "no advice to start a daemon on this machine")
        #expect(result.elapsed < .seconds(60))
    }

    @Test func onlyFixesCoarserThanDesiredGiveTheBestOneSeen() async throws {
        let harness = try await GPSDHarness.started()
        defer { harness.stop() }
        let runner = try InProcessCommand(queued: false)
        try runner.writeConfig(GPSDFaultTests().config(port: harness.port, fallback: false))
        harness.feed(Fixtures.url("nmea/hdop-only.nmea"))
        let result = try await runner.run(["where", "--accuracy", "10m", "--timeout", "4"], killAfter: .seconds(60), assembly: .gpsdOnly)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("(does not meet the desired accuracy)"), "\(result.stdout)")
        #expect(result.stdout.contains("GPS (gpsd)"), "\(result.stdout)")
        #expect(!result.killed)
    }

    @Test func onlyAStaleRememberedFix() async throws {
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let runner = try InProcessCommand()
        try runner.writeConfig(GPSDFaultTests().config(port: closed.port, fallback: false))
        let memory = runner.home.appendingPathComponent(".local/state/here-weather/last-location.json")
        try FileManager.default.createDirectory(at: memory.deletingLastPathComponent(), withIntermediateDirectories: true)
        let twoHoursAgo = Date().timeIntervalSince1970 - 7300
        try #"{"version":1,"latitude":27.95,"longitude":-82.46,"accuracy_m":50,"timestamp":\#(twoHoursAgo),"source":"gpsd"}"#
            .write(to: memory, atomically: true, encoding: .utf8)
        let result = try await runner.run(["where", "--timeout", "120"], killAfter: .seconds(180), assembly: .gpsdOnly)
        #expect(result.status == 75, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("gpsd is not running"), "\(result.stderr)")
        #expect(result.stderr.contains("The last location remembered (from GPS (gpsd)) is 2 h old, older than the max age of 300 s"),
                "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
    }

    @Test func aReplayFileThatHoldsNoNMEA() async throws {
        let result = try await InProcessCommand().run(["where", "--replay", Fixtures.root.appendingPathComponent("README.md").path])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr.contains("README.md is not an NMEA log: none of its"), "\(result.stderr)")
        #expect(!result.stderr.contains("sky"), "no advice about the sky for a file: \(result.stderr)")
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString).nmea")
        try Data().write(to: empty)
        defer { try? FileManager.default.removeItem(at: empty) }
        let nothing = try await InProcessCommand().run(["where", "--replay", empty.path])
        #expect(nothing.status == 66)
        #expect(nothing.stderr.contains("is not an NMEA log: it is empty"), "\(nothing.stderr)")
    }

    @Test func aReplayThatEndsBeforeAFix() async throws {
        let result = try await InProcessCommand().run(["where", "--replay", Fixtures.url("nmea/no-fix.nmea").path, "--timeout", "3600"])
        #expect(result.status == 75, "\(result.stderr)")
        #expect(result.stderr.contains("No fix in no-fix.nmea: the log ended before the receiver had a fix"), "\(result.stderr)")
        #expect(result.stderr.contains("9 satellites seen, 0 used"), "\(result.stderr)")
        #expect(!result.stderr.contains("sky"), "\(result.stderr)")
    }
}
