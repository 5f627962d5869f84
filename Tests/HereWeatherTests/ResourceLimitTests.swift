import Foundation
import Glibc
import Testing
@testable import HereWeatherCore

/// The release binary under process, memory and descriptor limits (issue 25 items 2 and 6):
/// a line and an exit status, never a hang or a death by signal, and never advice that risks
/// data. Before: `--nproc` 2 to 4 left the libcurl loop thread unstarted and the run waited
/// until it was killed (Dispatch waits for a thread forever); `--as` 70 MB died with
/// SIGSEGV; `--nofile` 6 advised `config init --force` (which erases the config's keys), 7
/// asked whether libcurl4 was installed, and 4 and 5 trapped in Dispatch. `StartupLimits`
/// now ends such runs at once with one line and exit 71.
@Suite struct ResourceLimitTests {
    /// `prlimit` arguments for each case, and the exit status expected (`nil`: a report, or
    /// the start-up line when the limit leaves too little).
    static let cases: [(String, Int32?)] = [
        ("--nproc=1", 71), ("--nproc=2", 71), ("--nproc=3", 71), ("--nproc=4", 71), ("--nproc=5", 71), ("--nproc=6", 71),
        ("--nproc=12", 0), ("--as=60000000", nil), ("--as=70000000", nil), ("--as=80000000", nil), ("--as=120000000", nil),
        ("--as=400000000", 0), ("--nofile=4", 71), ("--nofile=6", 71), ("--nofile=7", 71), ("--nofile=15", 71), ("--nofile=16", 0),
    ]

    /// Each case runs as a user of its own, whom no other process counts against: `--nproc`
    /// counts every thread of the real user, and the cases run side by side. Root gives each
    /// case a user id of its own (`setpriv`, on a copy of the binary every user can reach); an
    /// ordinary user runs it as root of a user namespace of its own, where the count starts
    /// afresh (root there is held to the limit like anyone: `aContainersRootIsHeldToTheLimit`).
    @Test(arguments: cases.indices)
    func aLimitGivesALineAndAStatusNeverAHangOrACrash(index: Int) async throws {
        try TestUser.requireUserNamespaces()
        let (limit, expected) = Self.cases[index]
        let id = UInt32(47_000 + index)
        let run = try await Self.runLimited(limit, id: id) { command in
            TestUser.isRoot ? TestUser.asUser(id, command) : TestUser.asRoot(command)
        }
        Self.expectALineAndAStatus(run, limit: limit, expected: expected)
    }

    static let containerCases: [(String, Int32)] = [("--nproc=3", 71), ("--nproc=6", 71), ("--nproc=12", 0)]

    /// Root of a user namespace of its own (a container's root, an unprivileged `unshare -r`) is
    /// held to `RLIMIT_NPROC`: only the first namespace's root passes it. Before, the start-up
    /// check took any uid 0 for that root and skipped the threads, and under `--nproc=3` the run
    /// hung until it was killed, as before issue 25.
    @Test(arguments: containerCases.indices)
    func aContainersRootIsHeldToTheLimit(index: Int) async throws {
        try TestUser.requireUserNamespaces()
        let (limit, expected) = Self.containerCases[index]
        let id = UInt32(47_100 + index)
        let run = try await Self.runLimited(limit, id: id) { command in TestUser.asRootOfAUserNamespace(command, id: id) }
        Self.expectALineAndAStatus(run, limit: limit, expected: expected)
    }

    /// Runs the binary (`--no-cache`, fixed Tampa, a local Open-Meteo) under `prlimit limit`,
    /// wrapped by `wrap` in a user of its own; HOME is given to `id` when the tests run as root.
    static func runLimited(_ limit: String, id: UInt32,
                    wrap: @escaping @Sendable ([String]) -> [String]) async throws -> ChildProcess.Finished {
        let server = try FixtureServer(routes: ["/v1/forecast": .fixture("weather/open-meteo/tampa-metric.json")])
        defer { server.stop() }
        let runner = try CommandRunner()
        defer { try? FileManager.default.removeItem(at: runner.home) }
        try runner.writeConfig(ProviderSetup.fixedLocation + """

            [weather]
            timeout = 3
            [weather.open-meteo]
            base_url = "\(server.baseURL)"
            """)
        if TestUser.isRoot { try give(runner.home.path, to: id) }
        let binary = TestUser.isRoot ? CommandRunner.reachableExecutable : CommandRunner.executable.path
        let command = wrap(["/usr/bin/prlimit", limit, "--", binary, "--no-cache"])
        let run = try await ChildProcess.finished(command, environment: ["HOME": runner.home.path, "PATH": "/usr/bin:/bin",
                                                                         "LANG": "C.UTF-8"], limit: .seconds(30))
        try LaunchFailure.check(run.termination, stderr: run.stderrText, command: command)
        return run
    }

    /// A line and a status (`expected` when given), never a hang or a death by signal, and
    /// never advice that risks data.
    static func expectALineAndAStatus(_ run: ChildProcess.Finished, limit: String, expected: Int32?) {
        let stderr = run.stderrText
        #expect(!run.killed, "\(limit): still running after 30 s with a 3 s timeout: it hung")
        guard case .exited(let status) = run.termination else {
            Issue.record("\(limit): ended by signal \(run.termination.code), stderr: \(stderr)")
            return
        }
        if let expected {
            #expect(status == expected, "\(limit): \(stderr)")
        }
        if status == 0 {
            #expect(run.stdoutText.contains("°C"), "\(limit): \(run.stdoutText)")
            return
        }
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.hasPrefix("here-weather: ") == true, "\(limit) (exit \(status)): \(stderr)")
        #expect(!stderr.contains("--force") && !stderr.contains("libcurl4 installed"), "\(limit): \(stderr)")
        if status == 71 {
            // An address space limit refuses the threads' stacks or the room libcurl needs.
            let what = limit.hasPrefix("--nofile") ? "cannot start: too few open files allowed (ulimit -n is "
                : limit.hasPrefix("--as") ? "cannot start: " : "cannot start: cannot start a thread"
            #expect(stderr.hasPrefix("here-weather: " + what), "\(limit): \(stderr)")
        }
        if stderr.contains("thread") || stderr.contains("open files") || stderr.contains("memory") {
            #expect(stderr.hasSuffix(ResourceShortage.advice + "\n"), "\(limit): \(stderr)")
        }
    }

    @Test func theStartUpCheckPassesWithoutLimitsAndTriesTheThreads() {
        #expect(StartupLimits.problem() == nil, "the test process has no small limits")
        #expect(StartupLimits.tryThreads(StartupLimits.threadsNeeded) == 0)
    }

    /// Advice never risks data: an errno that is not "not found" or "not a regular file" gets
    /// its own words and no advice to overwrite the file (`config init --force` erases its
    /// keys); running out of descriptors, files or memory has its own short advice.
    @Test func adviceNeverRisksTheConfig() {
        let path = "/home/u/.config/here-weather/config.toml"
        for code in [EIO, EROFS, ELOOP, ENXIO, EOVERFLOW] {
            let message = ConfigError.unreadable(path: path, reason: String(cString: strerror(code))).message
            #expect(!message.contains("--force") && !message.contains("init"), "\(message)")
            #expect(message.contains(String(cString: strerror(code))), "\(message)")
        }
        for code in [EMFILE, ENFILE, ENOMEM, EAGAIN] {
            let message = ConfigError.unreadable(path: path, reason: ResourceShortage.reason(code)).message
            #expect(message == "Cannot read the config file \(path): \(ResourceShortage.reason(code)). \(ResourceShortage.advice)")
            #expect(FileAdvice.forWriting(path, code: code, folder: "/home/u/.cache") == ResourceShortage.advice)
        }
        #expect(ResourceShortage.reason(EMFILE) == "too many open files (the process's descriptor limit, ulimit -n)")
        #expect(ResourceShortage.thread(EAGAIN).hasPrefix("cannot start a thread: a resource limit was reached"))
        // What may be replaced still says how.
        #expect(ConfigError.unreadable(path: path, reason: TextFile.notRegular).message.contains("config init --force"))
        #expect(HTTPError.noResources(ResourceShortage.thread(EAGAIN)).advice == ResourceShortage.advice)
        #expect(WeatherError.unreachable(service: "Open-Meteo", .noResources(ResourceShortage.thread(EAGAIN))).message
                == "Cannot reach Open-Meteo: \(ResourceShortage.thread(EAGAIN)). \(ResourceShortage.advice)")
    }

    /// Out of descriptors, memory or threads, an IP lookup names the resource and the next
    /// step, never "check the network": the network was never tried (before, every failure
    /// of the lookup ended in "Check the network connection and try again later").
    @Test(arguments: [EMFILE, ENFILE, ENOMEM, EAGAIN])
    func anIPLookupShortOfResourcesSaysWhichAndWhatToDo(code: Int32) async throws {
        var settings = IPSettings()
        settings.services = [.ipinfo, .ipwhois]
        let shortage = HTTPError.noResources(ResourceShortage.thread(code))
        let provider = IPLocationProvider(settings: settings, http: RefusingHTTPClient(error: shortage))
        let error = await #expect(throws: LocationError.self) {
            try await provider.requestLocation(LocationRequest(desiredAccuracy: .threeKilometres, timeout: .seconds(5)))
        }
        let message = try #require(error).message
        #expect(message == "No IP location: ipinfo.io: \(ResourceShortage.thread(code)); ipwho.is: \(ResourceShortage.thread(code)). "
                + ResourceShortage.advice)
        #expect(!message.contains("network"), "\(message)")
        // Any other failure still points at the network.
        let refused = IPLocationProvider(settings: settings, http: RefusingHTTPClient(error: .connectionRefused("ipinfo.io")))
        let other = await #expect(throws: LocationError.self) {
            try await refused.requestLocation(LocationRequest(desiredAccuracy: .threeKilometres, timeout: .seconds(5)))
        }
        #expect(try #require(other).message.contains("Check the network connection"))
    }

    /// The process: an IP lookup whose socket the system refuses (`Fixtures/faults/
    /// refuse-sockets.c`: EMFILE, ENFILE, ENOMEM) says which resource ran out and what to do.
    /// Before: "could not connect to 127.0.0.1:PORT. Check the network connection and try
    /// again later", about a network that was never tried.
    @Test(arguments: [EMFILE, ENFILE, ENOMEM])
    func aRefusedSocketIsSaidAsTheShortageItIs(code: Int32) async throws {
        let server = try FixtureServer(routes: ["/ipinfo/json": .fixture("ip/ipinfo/success.json")])
        defer { server.stop() }
        let runner = try CommandRunner()
        defer { try? FileManager.default.removeItem(at: runner.home) }
        try runner.writeConfig(ProviderSetup.ipLocation(server.baseURL))
        let result = try await runner.run(["where", "--timeout", "5"], environment: [
            "LD_PRELOAD": try await PreloadLibrary.built("faults/refuse-sockets.c"), "HW_SOCKET_ERRNO": String(code),
        ], killAfter: .seconds(30))
        #expect(!result.killed)
        #expect(result.status == ExitStatus.noLocation.rawValue, "\(result.stderr)")
        #expect(server.requests.isEmpty, "no socket, no request")
        #expect(result.stderr == "here-weather: No IP location: ipinfo.io: cannot connect to 127.0.0.1:\(server.port): "
                + ResourceShortage.reason(code) + ". " + ResourceShortage.advice + "\n")
    }

    /// HOME and everything under it to `id`.
    static func give(_ path: String, to id: UInt32) throws {
        guard lchown(path, id, id) == 0 else { throw POSIXError(.EPERM) }
        let walker = FileManager.default.enumerator(atPath: path)
        while let relative = walker?.nextObject() as? String {
            lchown(path + "/" + relative, id, id)
        }
    }
}

/// An HTTP client that fails every request with `error`, before any network I/O (as libcurl
/// does when the system refuses it a thread or a descriptor).
struct RefusingHTTPClient: HTTPClient {
    let error: HTTPError

    func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        throw error
    }
}
