import Foundation
import Testing

/// Records `Fixtures/gpsd-json/*.json` (see its README): each log of `Fixtures/nmea` fed to
/// the real gpsd (`GPSDHarness`), its reports as `gpspipe -w` printed them. Runs only when
/// asked (`HERE_WEATHER_RECORD_GPSD_JSON=1` for every log, or the names of some, separated
/// by commas: `=moving`): the recordings are committed, and `GPSDSessionRulesTests` replays
/// them in-process.
@Suite(.serialized) struct GPSDJSONRecorder {
    static let asked = ProcessInfo.processInfo.environment["HERE_WEATHER_RECORD_GPSD_JSON"] ?? ""
    static let enabled = !asked.isEmpty

    static let logs = ["10hz", "10hz-gga-first", "bad-checksums", "cold-start", "drive", "fix-lost", "hdop-only", "mid-epoch",
                       "moving", "multi-constellation", "no-fix", "rmc-first", "simulated", "simulator-status-v", "sounder",
                       "southern-eastern", "southern-western", "zero-satellites"]

    /// The logs asked for: all with `1`, else those named.
    static let recorded = asked == "1" ? logs : logs.filter { asked.split(separator: ",").contains(Substring($0)) }

    @Test(.enabled(if: enabled), arguments: recorded)
    func record(_ name: String) async throws {
        let log = Fixtures.url("nmea/\(name).nmea")
        let reference = try await GPSDHarness.gpsdecodeFixes(log)
        // Done when gpsd reported the log's last epoch (a log without times: when gpspipe's time is up).
        let lastTime = reference.compactMap { $0["time"] as? String }.last
        let harness = try await GPSDHarness.started()
        defer { harness.stop() }
        harness.feed(log)
        let output = try await Gpspipe.record(port: harness.port, seconds: lastTime == nil ? 6 : 20) { objects in
            guard let lastTime else { return false }
            return objects.contains { $0["class"] as? String == "TPV" && $0["time"] as? String == lastTime }
        }
        #expect(await harness.fed(timeout: .seconds(10)), "feed: \(harness.feedError ?? "unfinished")")
        // Kept byte for byte as gpspipe printed it (gpsd's CR LF line ends included).
        let text = String(decoding: output, as: UTF8.self)
        try #require(text.hasPrefix(#"{"class":"VERSION""#), "gpspipe printed: \(text.prefix(300))")
        try output.write(to: Fixtures.url("gpsd-json").appendingPathComponent("\(name).json"))
    }
}
