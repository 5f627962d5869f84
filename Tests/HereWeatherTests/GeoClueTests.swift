import Foundation
import HereWeatherCore
import HereWeatherDBus
import Synchronization
import Testing

/// The GeoClue source against the real GeoClue 2.6 daemon (`GeoClueHarness`): its own bus,
/// config, geolocate service and agent for each test.
@Suite(.serialized) struct GeoClueTests {
    /// A config that uses GeoClue alone, permitted.
    static let config = """
        [location]
        sources = ["geoclue"]
        [location.geoclue]
        permission = "allow"
        """

    func run(_ harness: GeoClueHarness, _ arguments: [String]) async throws -> CommandRunner.Result {
        let runner = try CommandRunner()
        try runner.writeConfig(Self.config)
        return try await runner.run(arguments, environment: harness.environment, killAfter: .seconds(60))
    }

    /// The environment itself, proven with GeoClue's own client (geoclue-2-demo's where-am-i,
    /// which prints what it gets until its timeout, 3 s).
    @Test func whereAmIGetsTheLoopbackServicePosition() async throws {
        var options = GeoClueHarness.Options()
        options.appAllowed = nil
        let harness = try await GeoClueHarness.started(options)
        let output = try await BlockingCall.run {
            Result { try Self.capture("/usr/libexec/geoclue-2.0/demos/where-am-i", ["-t", "3", "-a", "6"],
                                      environment: harness.environment) }
        }
        #expect(output.contains("Latitude:    59.913900°"), "\(output)\n\(harness.logs)")
        #expect(output.contains("Accuracy:    25.000000 meters"))
        #expect(harness.geolocateRequests.first?.hasPrefix("/v1/geolocate ") == true)
    }

    @Test func whereGetsAFixFromGeoClueAndStopsTheClient() async throws {
        let harness = try await GeoClueHarness.started()
        let result = try await run(harness, ["where", "--json"])
        #expect(result.status == 0, "\(result.stderr)\n\(harness.logs)")
        let location = try #require(result.json?["location"] as? [String: Any])
        #expect(location["source"] as? String == "geoclue")
        #expect(location["latitude"] as? Double == 59.9139)
        #expect(location["longitude"] as? Double == 10.7522)
        #expect(location["accuracy_m"] as? Double == 25)
        #expect(location["meets_accuracy"] as? Bool == true)
        #expect(harness.logs.contains("'here-weather' started."))
        #expect(harness.logs.contains("'here-weather' stopped."))
    }

    /// Finding: GeoClue 2.6 scrambles city-level fixes (3 km added to the accuracy), so a client
    /// asking for city level can never meet the default 3 km. Asking for street level gets the fix.
    @Test func theDefaultThreeKilometresGetsAnUnscrambledFix() async throws {
        #expect(GeoClueAccuracyLevel(for: .threeKilometres) == .street)
        #expect(GeoClueAccuracyLevel(for: .within(metres: 25_000)) == .city)
        #expect(GeoClueAccuracyLevel(for: .any) == .city)
        #expect(GeoClueAccuracyLevel(for: .within(metres: 10)) == .exact)
        #expect(GeoClueAccuracyLevel(for: .best) == .exact)
        let harness = try await GeoClueHarness.started()
        let text = try await run(harness, ["where", "--accuracy", "3km"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(!text.stdout.contains("does not meet"), "\(text.stdout)")
        #expect(ReceiverDateTests.row("Accuracy", in: text.stdout) == "25 m", "\(text.stdout)")
        #expect(ReceiverDateTests.row("Source", in: text.stdout) == "GeoClue", "\(text.stdout)")
    }

    /// Finding: a cancelled request (the chain cancels the sources it no longer needs) sent no
    /// Stop, since every D-Bus call in a cancelled task ends before it is sent.
    @Test func cancellingTheRequestStillStopsTheClient() async throws {
        var options = GeoClueHarness.Options()
        options.responseDelay = 30
        let harness = try await GeoClueHarness.started(options)
        let provider = GeoClueLocationProvider(connect: { try DBusConnection.connect(address: harness.busAddress) }, clock: ContinuousClock())
        let request = Task { try await provider.requestLocation(LocationRequest(timeout: .seconds(60), start: .now)) }
        #expect(await harness.waitForLog("'here-weather' started."), "\(harness.logs)")
        request.cancel()
        let outcome = await request.result
        #expect((try? outcome.get()) == nil)
        #expect(await harness.waitForLog("'here-weather' stopped.", limit: .seconds(5)), "\(harness.logs)")
    }

    /// `--follow`'s watch on the real GeoClue 2.6: it takes the client's DistanceThreshold and
    /// TimeThreshold (a refused one would end the stream with a note), gives the loopback
    /// service's position, and the consumer's end stops the client.
    @Test func theWatchGetsAFixAndItsEndStopsTheClient() async throws {
        let harness = try await GeoClueHarness.started()
        defer { harness.stop() }
        let provider = GeoClueLocationProvider(connect: { try DBusConnection.connect(address: harness.busAddress) }, clock: ContinuousClock())
        let watched = GeoClueWatchTests.Watched(try #require(provider.watch(LocationRequest(start: .now))))
        defer { watched.stopConsuming() }
        try #require(try await GeoClueWatchTests.eventually { watched.count > 0 || watched.hasEnded },
                     "\(harness.logs)")
        #expect(watched.notes.withLock { $0 }.isEmpty, "\(watched.notes.withLock { $0 })")
        let fix = try #require(watched.fixes.withLock { $0.first }, "\(harness.logs)")
        #expect(fix.coordinate == Coordinate(latitude: 59.9139, longitude: 10.7522))
        #expect(fix.horizontalAccuracy == 25)
        #expect(harness.logs.contains("'here-weather' started."))
        watched.stopConsuming()
        #expect(await harness.waitForLog("'here-weather' stopped.", limit: .seconds(20)), "\(harness.logs)")
        #expect(!watched.hasEnded || watched.notes.withLock { $0 }.isEmpty)
    }

    @Test func aRefusalShowsTheGeoclueConfLinesThatAllowIt() async throws {
        var options = GeoClueHarness.Options()
        options.appAllowed = false
        let harness = try await GeoClueHarness.started(options)
        let result = try await run(harness, ["where"])
        #expect(result.status == 77, "\(result.stderr)\n\(harness.logs)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("GeoClue refused here-weather"))
        #expect(result.stderr.contains("disallowed by configuration"))
        #expect(result.stderr.contains("/etc/geoclue/geoclue.conf"))
        #expect(result.stderr.contains("[here-weather] allowed=true system=false users="))
        #expect(harness.geolocateRequests.isEmpty)
    }

    /// GeoClue 2.6 without an agent never answers GetClient: the deadline ends the wait.
    @Test func withoutAnAgentTheDeadlineEndsTheWaitWithAdvice() async throws {
        var options = GeoClueHarness.Options()
        options.agent = false
        let harness = try await GeoClueHarness.started(options)
        // 4 s: a source reports the whole timeout when it had at least half of it.
        let result = try await run(harness, ["where", "--timeout", "4"])
        #expect(!result.killed)
        #expect(result.status == 75, "\(result.stderr)")
        #expect(result.stderr.contains("GeoClue did not answer within 4 s"), "\(result.stderr)")
        #expect(result.stderr.contains("agent"))
        #expect(harness.logs.contains("waiting for agent"), "\(harness.logs)")
    }

    /// GeoClue asked after the request's deadline (a late start) must not claim it waited the
    /// whole timeout, nor send the user to set up an agent.
    @Test func askedAfterTheDeadlineItSaysItWasGivenNoTime() async throws {
        var options = GeoClueHarness.Options()
        options.agent = false
        let harness = try await GeoClueHarness.started(options)
        defer { harness.stop() }
        let provider = GeoClueLocationProvider(connect: { try DBusConnection.connect(address: harness.busAddress) }, clock: ContinuousClock())
        var late = LocationRequest(desiredAccuracy: .any, timeout: .seconds(20), start: .now)
        late.deadline = .now - .seconds(1)
        do {
            _ = try await provider.requestLocation(late)
            Issue.record("expected an error")
        } catch let error as GeoClueError {
            #expect(error == .noAgent(seconds: 0))
            #expect(!error.message.contains("within 20 s"), "\(error.message)")
            #expect(error.message.contains("timeout had passed"), "\(error.message)")
            #expect(!error.message.contains("agent"), "\(error.message)")
        }
    }

    @Test func presenceFollowsTheBus() async throws {
        var options = GeoClueHarness.Options()
        options.geoclue = .absent
        let absent = try await GeoClueHarness.started(options)
        let absentProvider = GeoClueLocationProvider(connect: { try DBusConnection.connect(address: absent.busAddress) }, clock: ContinuousClock())
        #expect(await absentProvider.isPresent() == false)
        let result = try await run(absent, ["where"])
        #expect(result.status == 75)
        #expect(result.stderr.contains("GeoClue is not running on the system bus"), "\(result.stderr)")
        absent.stop()

        options.geoclue = .activatable
        let activatable = try await GeoClueHarness.started(options)
        let activatableProvider = GeoClueLocationProvider(connect: { try DBusConnection.connect(address: activatable.busAddress) }, clock: ContinuousClock())
        #expect(await activatableProvider.isPresent() == true)
        activatable.stop()

        let running = try await GeoClueHarness.started()
        let runningProvider = GeoClueLocationProvider(connect: { try DBusConnection.connect(address: running.busAddress) }, clock: ContinuousClock())
        #expect(await runningProvider.isPresent() == true)

        let noBus = GeoClueLocationProvider(connect: { try DBusConnection.connect(address: "unix:path=/nonexistent/bus") }, clock: ContinuousClock())
        #expect(await noBus.isPresent() == false)
    }

    /// The group `stop()` kills is the one the environment runs in, and nothing is left in it
    /// after `stop()`. (Under `setsid`, which forks when started as a group leader, the group
    /// held only setsid's exited parent: the kill never reached the environment, and once the
    /// parent was reaped its number was free for the kernel to give to another test's process.)
    @Test func stopEndsTheEnvironmentsOwnProcessGroup() async throws {
        let harness = try await GeoClueHarness.started()
        let group = harness.processGroup
        let living = ProcessGroup.members(group).filter { $0.state != "Z" }.map(\.command)
        #expect(living.contains("unshare") && living.contains("dbus-daemon"),
                "the environment is not in process group \(group): \(ProcessGroup.report(group))")
        harness.stop()
        let deadline = ContinuousClock.now + .seconds(10)   // killed processes are reaped soon after
        while kill(-group, 0) == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(kill(-group, 0) == -1 && errno == ESRCH, "processes left in group \(group)")
    }

    @Test func doctorProbesGeoClue() async throws {
        let harness = try await GeoClueHarness.started()
        let runner = try CommandRunner()
        try runner.writeConfig(Self.config + "\n[weather.open-meteo]\nbase_url = \"http://127.0.0.1:9\"\n")
        let result = try await runner.run(["doctor"], environment: harness.environment, killAfter: .seconds(60))
        let line = result.stdout.split(separator: "\n").first { $0.contains("geoclue") }
        #expect(line?.contains("OK") == true, "\(result.stdout)")
        #expect(line?.contains("GeoClue") == true)
    }

    /// Runs a program to its end; its stdout and stderr together.
    static func capture(_ path: String, _ arguments: [String], environment: [String: String]) throws -> String {
        let environment = environment.merging(["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]) { a, _ in a }
        return try ChildProcess.run([path] + arguments, environment: environment, mergingErrors: true).stdoutText
    }
}
