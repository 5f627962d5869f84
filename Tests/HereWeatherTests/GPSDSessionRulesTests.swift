import Foundation
import Testing
@testable import HereWeatherCore

/// gpsd's protocol rules in-process (`GPSDSessionRules`), fed the reports the real gpsd sent
/// for each of the project's NMEA logs (`Fixtures/gpsd-json`, recorded with
/// `GPSDJSONRecorder`) and constructed streams for the dates receivers put on fixes.
@Suite struct GPSDSessionRulesTests {
    /// This machine's clock in these tests: days after the logs were recorded.
    static let arrival = Date(timeIntervalSince1970: 1_795_700_000)  // 2026-11-26
    static let address = "127.0.0.1:2947"

    static func recording(_ name: String) throws -> [String] {
        let text = try String(contentsOf: Fixtures.url("gpsd-json/\(name).json"), encoding: .utf8)
        // gpsd ends its lines with CR LF, one Character in Swift: split on any line break.
        return text.split(whereSeparator: \.isNewline).map(String.init)
    }

    /// Feeds `lines` one by one, a report a second after `arrival`; the step that ended it, or
    /// the end at the deadline.
    static func run(_ lines: [String], request: LocationRequest) -> GPSDSessionRules.Step {
        var rules = GPSDSessionRules(request: request, address: address)
        var now = arrival
        for line in lines {
            now += 0.001
            let step = rules.receive(GPSDReport(json: line) ?? .other, arrival: now)
            if step != .continue { return step }
        }
        return rules.end(.deadline, at: now, seconds: 10)
    }

    /// gpsd's fixes in a recording: (time, latitude, longitude) of TPVs with a 2D/3D position.
    static func fixes(_ lines: [String]) -> [(time: String?, latitude: Double, longitude: Double)] {
        lines.compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["class"] as? String == "TPV", (object["mode"] as? Int ?? 0) >= 2,
                  let latitude = object["lat"] as? Double, let longitude = object["lon"] as? Double else { return nil }
            return (object["time"] as? String, latitude, longitude)
        }
    }

    @Test(arguments: GPSDJSONRecorder.logs, [Duration.seconds(300), nil])
    func everyLogGPSDFixesGivesOneOfGPSDsFixes(_ name: String, maxAge: Duration?) throws {
        let lines = try Self.recording(name)
        try #require(lines.first?.contains(#""class":"VERSION""#) == true)
        let fixes = Self.fixes(lines)
        for accuracy in [DesiredAccuracy.any, .threeKilometres] {
            let step = Self.run(lines, request: LocationRequest(desiredAccuracy: accuracy, timeout: .seconds(10), maxAge: maxAge, start: .now))
            guard !fixes.isEmpty else {
                guard case .fail(let error) = step, case .noFix(_, _, let seen, _) = error else {
                    Issue.record("\(name): gpsd has no fix, yet \(step)")
                    continue
                }
                #expect(seen.contains("satellites seen"), "\(seen)")
                continue
            }
            guard case .answer(let location) = step else {
                Issue.record("\(name) (\(accuracy), max age \(String(describing: maxAge))): no answer but \(step)")
                continue
            }
            // The fix gpsd sent, current on arrival, with gpsd's date kept beside.
            #expect(fixes.contains { $0.latitude == location.coordinate.latitude && $0.longitude == location.coordinate.longitude },
                    "\(name): \(location.coordinate) is none of gpsd's fixes")
            #expect(location.timestamp > Self.arrival && location.timestamp < Self.arrival + 60)
            if accuracy == .any {
                #expect(location.coordinate.latitude == fixes[0].latitude && location.coordinate.longitude == fixes[0].longitude,
                        "\(name): .any takes gpsd's first fix")
                let expected = fixes[0].time.flatMap(GPSDReport.seconds(iso8601:))
                #expect(location.receiverTime?.timeIntervalSince1970 == expected, "\(name): the receiver's date is kept")
            }
        }
    }

    // MARK: Constructed streams

    static let version = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#
    static let devices = #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0"}]}"#

    static func tpv(_ time: String, eph: Double = 5) -> String {
        #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"\#(time)","lat":27.9506,"lon":-82.4572,"altMSL":10.0,"eph":\#(eph)}"#
    }

    /// A receiver dated 1024 weeks ago, in 2035 (gpsd's date for old recordings), 2099 and 1960:
    /// used, current on arrival, its date kept and named.
    @Test(arguments: [
        ("2007-04-12T12:00:00.000Z", "1024 weeks before this machine's clock: the GPS week rollover"),
        ("2035-06-01T12:00:00.000Z", "ahead of this machine's clock: this machine's clock is likely behind"),
        ("2099-01-01T00:00:00.000Z", "ahead of this machine's clock: this machine's clock is likely behind"),
        ("1960-06-01T12:00:00.000Z", "behind this machine's clock: the receiver's clock is likely wrong"),
    ])
    func aReceiverOnAnyDateIsUsed(time: String, note: String) throws {
        for maxAge in [Duration.seconds(1), nil] {
            let step = Self.run([Self.version, Self.devices, Self.tpv(time)],
                                request: LocationRequest(desiredAccuracy: .threeKilometres, timeout: .seconds(5), maxAge: maxAge, start: .now))
            guard case .answer(let location) = step else {
                Issue.record("\(time): \(step)")
                continue
            }
            #expect(location.timestamp.timeIntervalSince(Self.arrival) < 1)
            #expect(location.receiverTime.map(ReceiverClock.utc) == time.replacing(".000Z", with: "Z"))
            let text = try #require(ReceiverClock.note(for: location))
            #expect(text.contains(note), "\(text)")
            #expect(text.contains(time.replacing(".000Z", with: "Z")), "the note names the receiver's date: \(text)")
        }
    }

    @Test func aFixAwaitsItsEpochsGSTBeforeJudging() {
        let time = "2026-11-26T10:00:00.000Z"
        let gst = #"{"class":"GST","device":"/dev/ttyACM0","time":"\#(time)","lat":3.0,"lon":4.0}"#
        let step = Self.run([Self.version, Self.devices, Self.tpv(time, eph: 50), gst],
                            request: LocationRequest(desiredAccuracy: .within(metres: 10), timeout: .seconds(5), start: .now))
        guard case .answer(let location) = step else { Issue.record("\(step)"); return }
        #expect(location.horizontalAccuracy == 5, "the GST sigmas, not gpsd's eph")
        #expect(!location.accuracyIsEstimate)
    }

    @Test func failuresNameWhatHappened() {
        let request = LocationRequest(desiredAccuracy: .threeKilometres, timeout: .seconds(5), start: .now)
        // Not gpsd: anything before the greeting.
        #expect(Self.run([Self.devices], request: request) == .fail(.notGPSD(address: Self.address)))
        #expect(Self.run(["SSH-2.0-OpenSSH_9.2"], request: request) == .fail(.notGPSD(address: Self.address)))
        // No receiver.
        #expect(Self.run([Self.version, #"{"class":"DEVICES","devices":[]}"#], request: request)
                == .fail(.gpsdNoReceiver(address: Self.address)))
        // Silence, then a greeting and no fix.
        #expect(Self.run([], request: request) == .fail(.gpsdSilent(address: Self.address, seconds: 10)))
        let sky = #"{"class":"SKY","satellites":[{"PRN":1,"used":true},{"PRN":2,"used":false},{"PRN":3,"used":false}]}"#
        guard case .fail(.noFix(_, _, let seen, _)) = Self.run([Self.version, Self.devices, sky], request: request) else {
            Issue.record("no fix expected"); return
        }
        #expect(seen == "receiver on /dev/ttyACM0, 3 satellites seen, 1 used")
        // Closed only when gpsd closed; a fix in hand is still the answer.
        var rules = GPSDSessionRules(request: request, address: Self.address)
        _ = rules.receive(.version, arrival: Self.arrival)
        #expect(rules.end(.closed, at: Self.arrival, seconds: 5) == .fail(.gpsdClosed(address: Self.address)))
        #expect(rules.end(.unreadable, at: Self.arrival, seconds: 5) == .fail(.gpsdUnreadable(address: Self.address)))
        var coarse = GPSDSessionRules(request: request, address: Self.address)
        _ = coarse.receive(.version, arrival: Self.arrival)
        #expect(coarse.receive(GPSDReport(json: Self.tpv("2026-11-26T10:00:00.000Z", eph: 5000))!, arrival: Self.arrival) == .continue)
        guard case .answer(let best) = coarse.end(.closed, at: Self.arrival, seconds: 5) else { Issue.record("best fix expected"); return }
        #expect(best.horizontalAccuracy == 5000 && !best.meetsDesiredAccuracy)
    }

    @Test func gpsdTimesAreRead() {
        #expect(GPSDReport.seconds(iso8601: "2026-11-22T08:45:00.100Z").map { ($0 * 10).rounded() } == 17_953_371_001)
        #expect(GPSDReport.seconds(iso8601: "1960-06-01T12:00:00Z") == -302_443_200)
        #expect(GPSDReport.seconds(iso8601: "2026-11-22T08:45:00") == nil)
        #expect(GPSDReport.seconds(iso8601: "2026-11-22T08:45:00.Z") == nil)
        #expect(GPSDReport(json: #"{"class":"TPV","mode":1}"#) == .tpv(GPSDFixReport(
            mode: 1, latitude: nil, longitude: nil, time: nil, altitudeMSL: nil, eph: nil, epx: nil, epy: nil, hdop: nil, status: 0)))
        #expect(GPSDReport(json: "not json") == nil)
    }
}
