import Foundation
import HereWeatherCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The weather cache as users meet it: the built binary, a temporary HOME, and a local
/// server that counts the requests it gets.
@Suite struct CacheCommandTests {
    /// A config with the fixed Tampa location and Open-Meteo at `server`.
    func config(server: FixtureServer, ttl: Double = 600, staleLimit: Double = 21_600) -> String {
        config(baseURL: server.baseURL, ttl: ttl, staleLimit: staleLimit)
    }

    /// Offline: the service's port refuses (a `ClosedPort`, held: a stopped server's port can
    /// be taken at once by a parallel test's server, seen as "HTTP 400: Parse Error").
    func config(baseURL: String, ttl: Double = 600, staleLimit: Double = 21_600) -> String {
        """
        \(ProviderSetup.fixedLocation)
        [weather]
        provider = "open-meteo"
        timeout = 30
        [weather.open-meteo]
        base_url = "\(baseURL)"
        [cache]
        ttl = \(ttl)
        stale_limit = \(staleLimit)
        """
    }

    static let forecast = FixtureServer.Response.fixture("weather/open-meteo/tampa-metric.json")

    func weather(_ result: CommandRunner.Result) -> [String: Any]? {
        result.json?["weather"] as? [String: Any]
    }

    var cacheFile: String { "here-weather/open-meteo_27.95_-82.46_metric.weather" }

    // MARK: Fresh entries

    @Test func twoRunsWithinTheTTLMakeOneRequest() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": Self.forecast])
        let runner = try InProcessCommand()
        try runner.writeConfig(config(server: server))
        let first = try await runner.run(["--json"])
        let second = try await runner.run(["--json"])
        #expect(first.status == 0 && second.status == 0, "\(first.stderr)\(second.stderr)")
        #expect(server.requests.count == 1)
        #expect(weather(first)?["cached"] as? Bool == false)
        #expect(weather(second)?["cached"] as? Bool == true)
        #expect(weather(second)?["stale"] as? Bool == false)
        #expect((weather(second)?["age_s"] as? Double).map { $0 >= 0 } == true)
        #expect(FileManager.default.fileExists(atPath: runner.home.path + "/.cache/" + cacheFile))
    }

    @Test func noCacheAsksAgainAndXDGCacheHomeIsHonoured() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": Self.forecast])
        let runner = try InProcessCommand()
        try runner.writeConfig(config(server: server))
        let elsewhere = runner.home.path + "/elsewhere"
        let environment = ["XDG_CACHE_HOME": elsewhere]
        #expect(try await runner.run(["--json"], environment: environment).status == 0)
        let bypass = try await runner.run(["--json", "--no-cache"], environment: environment)
        #expect(bypass.status == 0, "\(bypass.stderr)")
        #expect(weather(bypass)?["cached"] as? Bool == false)
        #expect(server.requests.count == 2)
        #expect(FileManager.default.fileExists(atPath: elsewhere + "/" + cacheFile))
        #expect(!FileManager.default.fileExists(atPath: runner.home.path + "/.cache/here-weather"))
    }

    @Test func aReplayNeitherReadsNorWritesTheCache() async throws {
        let runner = try InProcessCommand()
        let replay = Fixtures.url("weather/open-meteo/tampa-metric.json").path
        let result = try await runner.run(["--lat", "27.95", "--lon", "-82.46", "--json", "--weather-replay", replay])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(weather(result)?["cached"] as? Bool == false)
        #expect(!FileManager.default.fileExists(atPath: runner.home.path + "/.cache/here-weather"))
    }

    // MARK: Coalescing

    @Test func fiveRunsStartedTogetherMakeExactlyOneRequest() async throws {
        // A slow answer keeps the first run's lock held while the others start.
        let server = try FixtureServer { _ in
            usleep(300_000)
            return Self.forecast
        }
        let runner = try CommandRunner()
        try runner.writeConfig(config(server: server))
        let runs = try (0..<5).map { _ in try runner.start(["--json"]) }
        let results = try await BlockingCall.run { .success(runs.map { $0.finish() }) }
        for result in results { #expect(result.status == 0, "\(result.stderr)") }
        #expect(server.requests.count == 1)
        #expect(results.filter { weather($0)?["cached"] as? Bool == true }.count == 4)
    }

    /// Issue 14: runs that found the lock held gave up after half their deadline and each
    /// sent its own request (50 runs, 50 requests), then showed the first run's entry, written
    /// moments before, marked stale. They now wait for the holder's answer up to their own
    /// deadline: one request, and no run calls that entry stale.
    @Test func fiftyRunsAgainstAServiceSlowerThanHalfTheTimeoutMakeOneRequest() async throws {
        let timeout = 16.0
        let server = try FixtureServer { _ in
            usleep(useconds_t(timeout * 0.6 * 1_000_000))
            return Self.forecast
        }
        defer { server.stop() }
        let runner = try CommandRunner()
        try runner.writeConfig(config(server: server).replacingOccurrences(of: "timeout = 30", with: "timeout = \(timeout)"))
        let runs = try (0..<50).map { _ in try runner.start(["--json"]) }
        // Waited for on a thread of its own: blocking a cooperative thread for the whole
        // service delay would stall every test whose point is a deadline.
        let results = try await BlockingCall.run { .success(runs.map { $0.finish() }) }
        for result in results { #expect(result.status == 0, "\(result.stderr)") }
        #expect(server.requests.count == 1)
        #expect(results.allSatisfy { weather($0)?["stale"] as? Bool == false }, "an entry younger than the TTL is not stale")
        #expect(results.filter { weather($0)?["cached"] as? Bool == true }.count == 49)
    }

    // MARK: Interrupted runs

    @Test func aRunKilledWhileHoldingTheLockDoesNotBlockTheNext() async throws {
        let answered = RequestCounter()
        let server = try FixtureServer { _ in answered.next() == 0 ? .hang : Self.forecast }
        defer { server.stop() }
        let runner = try CommandRunner()
        try runner.writeConfig(config(server: server))
        let killed = try runner.start(["--json"])
        // Its request has arrived: it holds the lock (taken before the fetch).
        #expect(try await waitUntil { server.requests.count == 1 })
        killed.process.signal(SIGKILL)
        let outcome = try await BlockingCall.run { .success(killed.finish()) }
        #expect(killed.process.exitStatus == .signalled(SIGKILL), "\(outcome.stderr)")

        let next = try await runner.run(["--json"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(weather(next)?["cached"] as? Bool == false)
        #expect(server.requests.count == 2)
        let after = try await runner.run(["--json"])
        #expect(weather(after)?["cached"] as? Bool == true, "the next run's entry was written")
    }

    @Test func aLeftoverTemporaryFileAndATruncatedEntryAreHarmless() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": Self.forecast])
        let runner = try InProcessCommand()
        try runner.writeConfig(config(server: server))
        #expect(try await runner.run(["--json"]).status == 0)
        let folder = runner.home.path + "/.cache/here-weather/"
        let entry = try Data(contentsOf: URL(fileURLWithPath: folder + "open-meteo_27.95_-82.46_metric.weather"))
        try entry.prefix(entry.count / 2).write(to: URL(fileURLWithPath: folder + "open-meteo_27.95_-82.46_metric.weather"))
        try entry.prefix(100).write(to: URL(fileURLWithPath: folder + ".here-weather.tmp.Ab12Cd"))

        let next = try await runner.run(["--json"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(weather(next)?["cached"] as? Bool == false, "the truncated entry was not used")
        #expect(server.requests.count == 2)
        #expect(weather(try await runner.run(["--json"]))?["cached"] as? Bool == true, "and it was replaced")
    }

    // MARK: Offline

    @Test func offlineAnOldReportIsShownMarkedStale() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": Self.forecast])
        let runner = try InProcessCommand()
        try runner.writeConfig(config(server: server, ttl: 0))
        #expect(try await runner.run(["--json"]).status == 0)
        server.stop()
        let offline = try ClosedPort()
        defer { withExtendedLifetime(offline) {} }
        try runner.writeConfig(config(baseURL: offline.baseURL, ttl: 0))

        let json = try await runner.run(["--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let report = try #require(weather(json))
        #expect(report["stale"] as? Bool == true)
        #expect(report["cached"] as? Bool == true)
        #expect((report["age_s"] as? Double).map { $0 >= 0 } == true)
        #expect((report["current"] as? [String: Any])?["temperature"] as? Double == 26.8)

        let text = try await runner.run([])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.split(separator: "\n").dropFirst().first?.hasPrefix("offline: from ") == true, "\(text.stdout)")
        #expect(text.stdout.contains("Mainly clear, 26.8 °C"))
    }

    @Test func offlineNoStaleFails() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": Self.forecast])
        let runner = try InProcessCommand()
        try runner.writeConfig(config(server: server, ttl: 0))
        #expect(try await runner.run(["--json"]).status == 0)
        server.stop()
        let offline = try ClosedPort()
        defer { withExtendedLifetime(offline) {} }
        try runner.writeConfig(config(baseURL: offline.baseURL, ttl: 0))

        let result = try await runner.run(["--json", "--no-stale"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("Cannot reach Open-Meteo"), "\(result.stderr)")
        let error = result.json?["error"] as? [String: Any]
        #expect(error?["code"] as? String == "service_unavailable")
    }

    @Test func offlineAReportPastTheStaleLimitIsNotShown() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": Self.forecast])
        let runner = try InProcessCommand()
        try runner.writeConfig(config(server: server, ttl: 0, staleLimit: 0))
        #expect(try await runner.run(["--json"]).status == 0)
        server.stop()
        let offline = try ClosedPort()
        defer { withExtendedLifetime(offline) {} }
        try runner.writeConfig(config(baseURL: offline.baseURL, ttl: 0, staleLimit: 0))
        let result = try await runner.run(["--json"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("Cannot reach Open-Meteo"), "\(result.stderr)")
    }

    @Test func aServerErrorFallsBackButABadRequestDoesNot() async throws {
        let status = RequestCounter()
        let server = try FixtureServer { _ in
            switch status.next() {
            case 0: return Self.forecast
            case 1: return .json(503, #"{"error": true, "reason": "maintenance"}"#)
            default: return .fixture("weather/open-meteo/error-400.json", status: 400)
            }
        }
        let runner = try InProcessCommand()
        try runner.writeConfig(config(server: server, ttl: 0))
        #expect(try await runner.run(["--json"]).status == 0)
        let unavailable = try await runner.run(["--json"])
        #expect(unavailable.status == 0 && weather(unavailable)?["stale"] as? Bool == true, "\(unavailable.stderr)")
        let badRequest = try await runner.run(["--json"])
        #expect(badRequest.status == 69, "a 400 needs fixing, not hiding")
    }
}

/// A thread-safe counter for server handlers.
private final class RequestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    /// The current value, then one more.
    func next() -> Int {
        lock.lock(); defer { lock.unlock() }
        value += 1
        return value - 1
    }
}

/// Polls `condition` for up to 20 s; a wait, not a timing assertion.
private func waitUntil(_ condition: () -> Bool) async throws -> Bool {
    for _ in 0..<1000 {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}

/// A started run of the binary whose output is collected when it ends.
private struct RunningCommand: @unchecked Sendable {
    let process: ChildProcess
    let out: CollectedOutput
    let err: CollectedOutput

    /// Waits for the run to end and returns what it printed.
    func finish() -> CommandRunner.Result {
        let ended = process.wait()
        return CommandRunner.Result(status: ended.code, stdout: out.text(), stderr: err.text())
    }
}

private extension CommandRunner {
    /// Starts the binary as `run` does, without waiting for it.
    func start(_ arguments: [String]) throws -> RunningCommand {
        let out = try ChildPipe(), err = try ChildPipe()
        let process = try ChildProcess([Self.executable.path] + arguments,
                                       environment: ["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"],
                                       stdout: .use(out.childEnd), stderr: .use(err.childEnd))
        out.closeChildEnd()
        err.closeChildEnd()
        return RunningCommand(process: process, out: CollectedOutput(out), err: CollectedOutput(err))
    }
}
