import Foundation
import Testing

/// The fault-injection suite: every weather service and every IP-lookup service, failed in
/// every way the network and the services fail, with the built binary.
///
/// Each case runs the binary twice against a `FaultStage`, with a cache entry and a
/// remembered location written beforehand: with `--no-stale` (the documented exit status
/// and a one-line error naming the fault), then with `--verbose` (the stale report, exit 0,
/// where the fallback applies; otherwise the same error). Both runs must end within the
/// deadline (2 s) plus a margin that tells "ended" from "hung" on a loaded machine, leave the
/// cache and state files byte-identical with no temporary files, and never show or store
/// any of the canary secrets the config holds.
@Suite struct HTTPFaultTests {
    /// Deadline plus room for a loaded 2-core machine: a run that hangs never ends at all
    /// (the staged servers never give up), so this tells "ended" from "hung" without timing
    /// the machine.
    static let endedBound: Duration = .seconds(FaultTarget.deadlineSeconds + 20)
    /// A run still going then is killed and reported as hung.
    static let killAfter: Duration = .seconds(90)
    static let slots = ProcessSlots(6)

    @Test(arguments: FaultTarget.allCases, HTTPFault.allCases)
    func aFailingServiceEndsAsDocumented(_ target: FaultTarget, _ fault: HTTPFault) async throws {
        let stage = try FaultStage(target: target, fault: fault)
        defer { stage.stop() }
        let runner = try CommandRunner()
        defer { try? FileManager.default.removeItem(at: runner.home) }
        try runner.writeConfig(target.config(baseURL: stage.baseURL))
        target.seedFiles(home: runner.home)
        let before = FolderSnapshot(home: runner.home)
        let expected = target.expectation(for: fault)

        let strict = try await Self.slots.run {
            try await runner.run(target.arguments(verbose: false, noStale: true), killAfter: Self.killAfter)
        }
        checkEnded(strict, "--no-stale")
        #expect(strict.status == expected.status, "--no-stale: \(strict.stderr)")
        #expect(errorLines(strict).count == 1 && strict.stderr.split(separator: "\n").count == 1,
                "one line on stderr: \(strict.stderr)")
        #expect(expected.mentions.contains { strict.stderr.contains($0) }, "names the fault: \(strict.stderr)")
        #expect((strict.json?["error"] as? [String: Any])?["exit_status"] as? Int == Int(expected.status))
        checkFiles(before, runner, "--no-stale")

        let lenient = try await Self.slots.run {
            try await runner.run(target.arguments(verbose: true, noStale: false), killAfter: Self.killAfter)
        }
        checkEnded(lenient, "stale allowed")
        if expected.staleFallback {
            #expect(lenient.status == 0, "the cached report stands in: \(lenient.stderr)")
            let weather = lenient.json?["weather"] as? [String: Any]
            #expect(weather?["stale"] as? Bool == true && weather?["cached"] as? Bool == true)
        } else {
            #expect(lenient.status == expected.status, "no stale report for this: \(lenient.stderr)")
            #expect(errorLines(lenient).count == 1, "one error line among the --verbose lines: \(lenient.stderr)")
        }
        #expect(lenient.stderr.contains("GET "), "--verbose showed the request")
        checkFiles(before, runner, "stale allowed")

        for canary in FaultTarget.allCanaries {
            for result in [strict, lenient] {
                #expect(!result.stdout.contains(canary) && !result.stderr.contains(canary), "a secret was printed")
            }
        }
        // The secret of the service under test did reach it: its absence above means something.
        if let secret = secret(of: target), fault.needsServer {
            #expect(stage.receivedText.contains { $0.contains(secret) })
        }
    }

    /// The lines of stderr that are an error (not `--verbose`'s request lines).
    func errorLines(_ result: CommandRunner.Result) -> [Substring] {
        result.stderr.split(separator: "\n").filter { $0.hasPrefix("here-weather: ") }
    }

    func checkEnded(_ result: CommandRunner.Result, _ run: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!result.killed, "\(run): hung past \(Self.killAfter)", sourceLocation: sourceLocation)
        #expect(result.elapsed < Self.endedBound, "\(run): took \(result.elapsed)", sourceLocation: sourceLocation)
    }

    func checkFiles(_ before: FolderSnapshot, _ runner: CommandRunner, _ run: String,
                    sourceLocation: SourceLocation = #_sourceLocation) {
        let after = FolderSnapshot(home: runner.home)
        #expect(after == before, "\(run): cache or state changed: \(Set(after.files.keys).symmetricDifference(before.files.keys))",
                sourceLocation: sourceLocation)
        #expect(after.temporaryFiles.isEmpty, "\(run): left \(after.temporaryFiles)", sourceLocation: sourceLocation)
        for canary in FaultTarget.allCanaries {
            #expect(after.files(containing: canary).isEmpty, "\(run): a secret was stored", sourceLocation: sourceLocation)
        }
    }

    /// The secret sent to `target`'s service.
    func secret(of target: FaultTarget) -> String? {
        switch target {
        case .openWeatherMap, .oneCall: return FaultTarget.canaries.openWeatherMap
        case .pirateWeather: return FaultTarget.canaries.pirateWeather
        case .ipinfo: return FaultTarget.canaries.ipinfo
        default: return nil
        }
    }
}
