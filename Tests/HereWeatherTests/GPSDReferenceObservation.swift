import Foundation
import Testing
@testable import HereWeatherCore
import HereWeatherGPSD
import Synchronization

/// How `GPSDLocationProviderTests` runs the provider beside a reference client on one real
/// gpsd, and what the reference client read.
extension GPSDLocationProviderTests {
    /// gpsd's reports as the reference client read them (JSON objects, handed over once).
    struct ReferenceReports: @unchecked Sendable {
        var tpv: [[String: Any]] = []
        var gst: [[String: Any]] = []
    }

    /// The provider's answer, and the TPV and GST reports a reference client saw.
    ///
    /// Both clients must watch before a sentence is written. The provider's request, and the 15 s
    /// it is given to watch, start when its task starts, not when the task is created. At the
    /// start of a full run, Swift's cooperative pool (one thread per core: 2 in CI) is held by
    /// other suites' blocking work, and a task waits its turn: measured, this suite's first task
    /// started 4.5 s late on this machine, with both pool threads in `TLSFixtureServer`'s start-up
    /// read, a test's synchronous `Process` wait and the NMEA fuzz stream. Twice in CI it started
    /// after its 20 s had passed: it connected, wrote `?WATCH` after gpsd's log was read, and
    /// reported gpsd "accepted but sent nothing within 20 s" without waiting at all. (Ruled out
    /// by measurement: a descriptor closed twice: no `close` failed with EBADF and no libgps
    /// socket was closed by anything but libgps in 6 full runs under an LD_PRELOAD audit; and
    /// signals: the one SIGSTOP goes to its own test's live gpsd.) `providerStartsAfter` delays
    /// the task's start the same way, for the regression test: on a `TestClock` (the provider's
    /// run clock too), advanced once the task sleeps on it, so no real time passes.
    ///
    /// A run where both still do not watch within 15 s fails with what gpsd's processes were doing
    /// (state, kernel wait channel), every connection on gpsd's port (who holds it, what waits in
    /// its queues) and gpsd's stderr.
    func observe(_ log: String, request: LocationRequest, providerStartsAfter delay: Duration = .zero) async throws
        -> (Result<Location, Error>, [[String: Any]], [[String: Any]]) {
        let harness = try await GPSDHarness.started()
        defer { harness.stop() }
        let reference = try GPSDHarness.LineClient(port: harness.port, deadline: .now + .seconds(5))
        try reference.send("?WATCH={\"enable\":true,\"json\":true};\n", deadline: .now + .seconds(5))
        let clock: any RunClock = delay > .zero ? TestClock() : ContinuousClock()
        let provider = GPSDLocationProvider(host: "127.0.0.1", port: Int(harness.port), clock: clock)
        let started = StartFlag()
        let task = Task {
            if delay > .zero { try await clock.sleep(until: clock.now + delay, tolerance: nil) }
            started.set()
            return try await provider.requestLocation(request.starting(at: clock.now))
        }
        if delay > .zero, let clock = clock as? TestClock {
            #expect(await clock.waitForSleepers(), "the provider's task never waited for its start")
            clock.advance(by: delay)
        }
        // A task not started within 2 min is a hang, not a busy pool.
        let startLimit = ContinuousClock.now + .seconds(120)
        while !started.isSet && ContinuousClock.now < startLimit { try await Task.sleep(for: .milliseconds(10)) }
        // Both must watch before a sentence is written, so both see the whole log.
        let deadline = ContinuousClock.now + .seconds(15)
        while harness.watchingClients.count < 2 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        if harness.watchingClients.count < 2 {
            let diagnosis = """
                \(harness.watchingClients.count) of 2 clients watch 15 s after the provider started \
                (started: \(started.isSet)); gpsd's processes:
                \(harness.processReport)
                the connections to gpsd (the reference client is fd \(reference.descriptor)):
                \(harness.connectionReport)
                the end of gpsd's stderr:
                \(harness.stderrTail())
                """
            task.cancel()
            _ = await task.result
            Issue.record(Comment(rawValue: diagnosis))
            throw CancellationError()
        }
        harness.feed(Fixtures.url("nmea/\(log)"), waitForWatcher: false)
        // On a test clock the request's time stands still: a provider that never answers is
        // ended after 60 s of real time by moving its clock past the deadline.
        let bound = Task {
            try await Task.sleep(for: .seconds(60))
            (clock as? TestClock)?.advance(by: .seconds(3600))
        }
        let answer = await task.result
        bound.cancel()
        // Blocking reads, on a thread of their own (see `GPSDHarness.started`).
        let fix = try? answer.get()
        let seen = try await BlockingCall.run { () -> Result<ReferenceReports, Error> in
            .success(Self.referenceReports(reference, harness: harness, through: fix))
        }
        return (answer, seen.tpv, seen.gst)
    }

    /// What the reference client read: up to the end of the epoch of `fix` (the first TPV of a
    /// later epoch), which holds everything that led to the answer; without a fix, or when
    /// gpsd never sent it, the whole log. (Reading to the end of every log cost up to 7 s a
    /// case: drive.nmea's 3,330 lines are written 1 ms apart.)
    static func referenceReports(_ reference: GPSDHarness.LineClient, harness: GPSDHarness, through fix: Location?) -> ReferenceReports {
        func isFix(_ object: [String: Any]) -> Bool {
            guard let fix else { return false }
            let time = (object["time"] as? String).flatMap(GPSDReport.seconds(iso8601:))
            let sameTime = switch (time, fix.receiverTime?.timeIntervalSince1970) {
            case (nil, nil): true
            case let (reported?, received?): abs(reported - received) < 0.001
            default: false
            }
            return object["lat"] as? Double == fix.coordinate.latitude && object["lon"] as? Double == fix.coordinate.longitude
                && sameTime
        }
        var seen = ReferenceReports()
        var fixTime: String??   // set once the fix is seen: its epoch's time (nil: none given)
        let limit = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < limit {
            // gpsd's reports come as the log is written; once all is written, 300 ms of silence is the end.
            guard let object = try? reference.readObject(deadline: .now + .milliseconds(300)) else {
                if harness.finishedFeeding || harness.feedError != nil { break } else { continue }
            }
            if object["class"] as? String == "GST" { seen.gst.append(object) }
            guard object["class"] as? String == "TPV" else { continue }
            if let fixTime, object["time"] as? String != fixTime, object["time"] != nil { break }
            seen.tpv.append(object)
            if fixTime == nil && isFix(object) { fixTime = .some(object["time"] as? String) }
        }
        return seen
    }

    /// Set once the provider's task has started.
    final class StartFlag: Sendable {
        private let value = Atomic(false)
        func set() { value.store(true, ordering: .releasing) }
        var isSet: Bool { value.load(ordering: .acquiring) }
    }
}
