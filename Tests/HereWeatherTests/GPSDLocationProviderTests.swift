import Foundation
import Testing
@testable import HereWeatherCore
import HereWeatherGPSD

/// The gpsd source against the real gpsd, fed the fixture logs through `GPSDHarness`.
@Suite(.serialized) struct GPSDLocationProviderTests {
    func request(_ accuracy: DesiredAccuracy = .any, seconds: Int = 20, maxAge: Duration? = nil) -> LocationRequest {
        LocationRequest(desiredAccuracy: accuracy, timeout: .seconds(seconds), maxAge: maxAge, start: .now)
    }

    /// Runs the provider and a reference client side by side on one gpsd fed `log`; returns the
    /// provider's answer (or error) and gpsd's TPV reports as the reference client saw them.
    func runBesideReference(_ log: String, request: LocationRequest) async throws
        -> (Result<Location, Error>, [[String: Any]]) {
        let (answer, reports, _) = try await observe(log, request: request)
        return (answer, reports)
    }

    /// The project's logs that gpsd fixes (all of `Fixtures/nmea` but no-fix).
    static let fixedLogs = ["10hz", "10hz-gga-first", "bad-checksums", "cold-start", "drive", "fix-lost", "hdop-only", "mid-epoch",
                            "moving", "multi-constellation", "rmc-first", "simulated", "simulator-status-v", "sounder", "southern-eastern",
                            "southern-western", "zero-satellites"]

    /// Every project log gpsd fixes, once each through the real gpsd and libgps: the answer is
    /// gpsd's first fix as a reference client saw it live. (The same logs through the rules
    /// alone, with both max ages: `GPSDSessionRulesTests.everyLogGPSDFixesGivesOneOfGPSDsFixes`.)
    @Test(arguments: fixedLogs.map { $0 + ".nmea" })
    func answerEqualsGPSDsOwnFirstFix(log: String) async throws {
        let (answer, reports) = try await runBesideReference(log, request: request(.any))
        let fix = try answer.get()
        let first = try #require(reports.first { ($0["mode"] as? Int ?? 0) >= 2 && $0["lat"] != nil })
        #expect(fix.coordinate.latitude == first["lat"] as? Double)
        #expect(fix.coordinate.longitude == first["lon"] as? Double)
        #expect(fix.mode == first["mode"] as? Int)
        #expect(fix.simulated == ((first["status"] as? Int) == 8))
        #expect(fix.source == .gpsd)
        #expect(fix.meetsDesiredAccuracy)
        if log == "cold-start.nmea" {
            // The 20 void epochs carry a stale Orlando position: never an answer.
            #expect(abs(fix.coordinate.latitude - 27.95) < 0.01)
            #expect(fix.mode == 2)
        }
        if log == "simulated.nmea" { #expect(fix.simulated) }
    }

    /// A provider task that starts late (here 21 s on its clock; in a full run, behind other
    /// suites' work on the cooperative pool) still gets its 15 s to watch and its whole 20 s
    /// request. Both used to count from the task's creation: the late provider was reported as
    /// a gpsd that accepted the connection and never answered. (A request dated before the
    /// 21 s would be past its deadline on the provider's clock when it starts.)
    @Test func aProviderStartingLateStillGetsItsWholeTime() async throws {
        let (answer, reports, _) = try await observe("drive.nmea", request: request(.any), providerStartsAfter: .seconds(21))
        let fix = try answer.get()
        let first = try #require(reports.first { ($0["mode"] as? Int ?? 0) >= 2 && $0["lat"] != nil })
        #expect(fix.coordinate.latitude == first["lat"] as? Double)
        #expect(fix.coordinate.longitude == first["lon"] as? Double)
    }

    @Test func tenMetresWaitsForTheReceiversGSTEstimate() async throws {
        // gpsd's eph for these fixes is DOP-based (about 19 m); the receiver's GST sigmas shrink
        // below 10 m during the log. The answer is gpsd's first fix whose same-epoch GST report
        // puts the error within 10 m.
        let (answer, reports, gsts) = try await observe("cold-start.nmea", request: request(.within(metres: 10)))
        let fix = try answer.get()
        let sigma = try #require(gsts.first { gst in
            guard let lat = gst["lat"] as? Double, let lon = gst["lon"] as? Double else { return false }
            return (lat * lat + lon * lon).squareRoot() <= 10
        })
        let first = try #require(reports.first { $0["time"] as? String == sigma["time"] as? String && ($0["mode"] as? Int ?? 0) >= 2 })
        #expect(fix.coordinate.latitude == first["lat"] as? Double)
        #expect(fix.coordinate.longitude == first["lon"] as? Double)
        let lat = try #require(sigma["lat"] as? Double), lon = try #require(sigma["lon"] as? Double)
        #expect(abs((fix.horizontalAccuracy ?? 0) - (lat * lat + lon * lon).squareRoot()) < 1e-6)
        #expect(!fix.accuracyIsEstimate)
        #expect(fix.meetsDesiredAccuracy)
        #expect(fix.mode == 3)
    }


    /// drive.nmea is dated 2026-11-21/22: days old by any clock running this test. gpsd's fix
    /// of it arrives now, so it is current (issue 20; before, max age refused it), and gpsd's
    /// date is kept as the receiver's time.
    @Test func aFixDatedDaysAgoIsCurrentOnArrival() async throws {
        let before = Date()
        let (answer, _) = try await runBesideReference("drive.nmea", request: request(.any, seconds: 3, maxAge: .seconds(300)))
        let fix = try answer.get()
        #expect(fix.timestamp >= before && fix.timestamp <= Date(), "the arrival on this machine's clock")
        let receiverTime = try #require(fix.receiverTime)
        #expect(receiverTime < before.addingTimeInterval(-86_400), "gpsd's date for the fix, days back")
    }

    @Test func gpsdNotRunningFailsFastAndSaysHowToStartIt() async throws {
        let closed = try ClosedPort()  // gpsd not running; held: no other test's server can take the port
        defer { withExtendedLifetime(closed) {} }
        let port = closed.port
        let started = ContinuousClock.now
        do {
            _ = try await GPSDLocationProvider(host: "127.0.0.1", port: Int(port), clock: ContinuousClock()).requestLocation(request(seconds: 120))
            Issue.record("expected an error")
        } catch let error as LocationError {
            #expect(error == .gpsdNotRunning(address: "127.0.0.1:\(port)"))
            #expect(error.message.contains("systemctl start gpsd"))
            #expect(error.exitStatus == .noLocation)
        }
        // It must not have waited for the 120 s deadline (a generous bound, not a timing check).
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    /// Finding: a session that began after its request's deadline (earlier sources had used the
    /// time up) said gpsd "sent nothing within 20 s" though it had given gpsd no time at all.
    @Test func aSilentGPSDIsToldOnlyTheTimeItWasGiven() async throws {
        let peer = try FakeTCPPeer(.init(greeting: [], closes: false))  // accepts, says nothing
        defer { peer.stop() }
        var late = request(seconds: 20)
        late.deadline = .now - .seconds(1)
        do {
            _ = try await GPSDLocationProvider(host: "127.0.0.1", port: Int(peer.port), clock: ContinuousClock()).requestLocation(late)
            Issue.record("expected an error")
        } catch let error as LocationError {
            #expect(error == .gpsdSilent(address: "127.0.0.1:\(peer.port)", seconds: 0))
            #expect(!error.message.contains("within 20 s"), "\(error.message)")
            #expect(error.message.contains("timeout had already passed"), "\(error.message)")
        }
        // Less than half the time left: it says no more than what was left.
        var halfway = request(seconds: 4)
        halfway.deadline = .now + .milliseconds(1500)
        do {
            _ = try await GPSDLocationProvider(host: "127.0.0.1", port: Int(peer.port), clock: ContinuousClock()).requestLocation(halfway)
            Issue.record("expected an error")
        } catch let error as LocationError {
            guard case .gpsdSilent(_, let seconds) = error else { Issue.record("\(error)"); return }
            #expect(seconds > 0 && seconds <= 1.5, "\(error.message)")
            #expect(error.message.contains("sent nothing within \(JSONOutput.format(seconds)) s"), "\(error.message)")
        }
    }

    @Test func gpsdWithoutAReceiverFailsFast() async throws {
        let harness = try await GPSDHarness.started(device: false)
        defer { harness.stop() }
        do {
            _ = try await GPSDLocationProvider(host: "127.0.0.1", port: Int(harness.port), clock: ContinuousClock()).requestLocation(request(seconds: 30))
            Issue.record("expected an error")
        } catch let error as LocationError {
            #expect(error == .gpsdNoReceiver(address: "127.0.0.1:\(harness.port)"))
        }
    }

    @Test func aReceiverThatNeverFixesFailsAtTheDeadlineSayingWhatItSaw() async throws {
        let (answer, _) = try await runBesideReference("no-fix.nmea", request: request(.any, seconds: 3))
        guard case .failure(let error as LocationError) = answer else {
            Issue.record("expected no fix, got \(answer)")
            return
        }
        guard case .noFix(let source, _, let seen, _) = error else { Issue.record("wrong error \(error)"); return }
        #expect(source == "GPS")
        #expect(seen.contains("receiver on /dev/pts/"))
        #expect(seen.contains("9 satellites seen, 0 used"))
    }

    @Test func gpsdClosingMidRequestEndsTheRequest() async throws {
        let harness = try await GPSDHarness.started()
        let provider = GPSDLocationProvider(host: "127.0.0.1", port: Int(harness.port), clock: ContinuousClock())
        let task = Task { try await provider.requestLocation(request(.any, seconds: 60)) }
        #expect(await harness.watcherSeen(timeout: .seconds(15)))
        harness.stop()
        do {
            _ = try await task.value
            Issue.record("expected an error")
        } catch let error as LocationError {
            #expect(error == .gpsdClosed(address: "127.0.0.1:\(harness.port)"))
        }
    }

    @Test func whereCommandReadsGPSDFromTheConfig() async throws {
        let harness = try await GPSDHarness.started()
        defer { harness.stop() }
        let runner = try InProcessCommand(queued: false)
        try runner.writeConfig("""
            version = 1
            [location]
            sources = ["gpsd", "fixed"]
            accuracy = "any"
            max_age = "off"
            [location.gpsd]
            permission = "allow"
            host = "127.0.0.1"
            port = \(harness.port)
            """)
        harness.feed(Fixtures.url("nmea/simulated.nmea"))
        let result = try await runner.run(["where", "--json", "--timeout", "20"], assembly: .gpsdOnly)
        #expect(result.status == 0, "\(result.stderr)")
        let location = try #require(result.json?["location"] as? [String: Any])
        #expect(location["source"] as? String == "gpsd")
        #expect(location["simulated"] as? Bool == true)
        #expect((location["mode"] as? Int ?? 0) >= 2)
        #expect(location["meets_accuracy"] as? Bool == true)
    }
}
