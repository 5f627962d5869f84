import Foundation
import Glibc
import Testing

/// Config and state files in bad shape, through the built binary: unreadable (mode 000, run
/// as an unprivileged user, since root reads anything), a folder where a file belongs, corrupt,
/// a read-only cache folder, and a full disk (`ulimit -f 0` with SIGXFSZ ignored: every write
/// to a file fails with EFBIG, as writes to a full disk fail with ENOSPC; a tmpfs would need
/// mount rights CI may not have). Each: the documented exit, at most one line per problem
/// naming the file and what to do, never a crash, never "allow" from a file that cannot be
/// read, and the old file intact after a failed write.
@Suite struct FileFaultTests {
    static let forecast = FixtureServer.Response.fixture("weather/open-meteo/tampa-metric.json")

    /// Fixed Tampa (or the IP source, allowed) and Open-Meteo at `server`.
    func config(_ server: FixtureServer, ip: Bool = false) -> String {
        """
        version = 1
        [location]
        sources = \(ip ? #"["ip"]"# : #"["fixed"]"#)
        [location.fixed]
        latitude = 27.9506
        longitude = -82.4572
        accuracy = 1000
        [location.ip]
        permission = "allow"
        services = ["ipinfo"]
        [location.ip.ipinfo]
        base_url = "\(server.baseURL)/ipinfo"
        [weather.open-meteo]
        base_url = "\(server.baseURL)"
        """
    }

    func server() throws -> FixtureServer {
        try FixtureServer(routes: ["/v1/forecast": Self.forecast, "/ipinfo/json": .fixture("ip/ipinfo/success.json")])
    }

    static let nobody = CommandRunner.Setup(unprivileged: true)
    static let fullDisk = CommandRunner.Setup(noRoomToWrite: true)

    func path(_ runner: CommandRunner, _ relative: String) -> String { runner.home.path + "/" + relative }
    static let cacheFolder = ".cache/here-weather"
    static let cacheEntry = cacheFolder + "/open-meteo_27.95_-82.46_metric.weather"
    static let decisions = ".local/state/here-weather/permissions.toml"
    static let lastLocation = ".local/state/here-weather/last-location.json"

    /// The file's bytes, or nil when it is missing or not a file.
    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    func isFolder(_ path: String) -> Bool {
        var folder = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder
    }

    /// Replaces `path` with an empty folder.
    func putFolder(at path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Temporary files an interrupted atomic write would leave in `folder`.
    func leftovers(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(".here-weather.tmp.") }
    }

    /// Printed the weather, exit 0, with nothing or one warning line on stderr.
    func expectWeather(_ result: CommandRunner.BoundedResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect((result.json?["weather"] as? [String: Any])?["current"] != nil, "\(result.stdout)", sourceLocation: sourceLocation)
        #expect(result.stderrLines.count <= 1, "\(result.stderr)", sourceLocation: sourceLocation)
    }

    // MARK: The config file

    struct BadConfig: Sendable, CustomTestStringConvertible {
        let name: String
        let folder: Bool
        let advice: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        BadConfig(name: "mode 000", folder: false, advice: "chmod 600"),
        BadConfig(name: "a folder", folder: true, advice: "Move the folder aside"),
    ])
    func anUnreadableConfigIsExit78SayingWhatToDo(_ bad: BadConfig) async throws {
        let server = try server()
        let runner = try CommandRunner()
        try runner.writeConfig(config(server))
        if bad.folder { try putFolder(at: runner.configPath) } else { chmod(runner.configPath, 0) }
        try runner.handHomeToUnprivilegedUser()
        for arguments in [["--json"], ["where"], ["config", "show"]] {
            let result = try await runner.run(arguments, setup: Self.nobody)
            #expect(result.status == 78, "\(arguments): \(result.stderr)")
            #expect(result.stderrLines.count == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("Cannot read the config file \(runner.configPath)"))
            #expect(result.stderr.contains(bad.advice), "\(result.stderr)")
        }
        #expect(server.requests.isEmpty)
        if bad.folder {
            let initialised = try await runner.run(["config", "init"], setup: Self.nobody)
            #expect(initialised.status == 73)
            #expect(initialised.stderr.contains("A folder stands where the file belongs"), "\(initialised.stderr)")
            #expect(isFolder(runner.configPath))
        }
    }

    // MARK: The permission decisions file

    enum BadDecisions: String, CaseIterable, Sendable {
        case unreadable, folder, corrupt
        /// 40,000 nested arrays: a stack overflow (exit 139) on every run before parsers had a depth limit.
        case deeplyNested
        /// Over the size limit for such a file: junk, never read whole.
        case oversized

        /// Whether the next decision replaces the file (it holds nothing worth keeping).
        var isReplaced: Bool { self != .unreadable && self != .folder }
    }

    @Test(arguments: BadDecisions.allCases)
    func aDecisionsFileInBadShapeMeansAskAgainNeverAllow(_ bad: BadDecisions) async throws {
        let runner = try CommandRunner()
        // gpsd without a permission in the config: only the decisions file could allow it.
        try runner.writeConfig("version = 1\n[location]\nsources = [\"gpsd\"]\n[location.gpsd]\nhost = \"127.0.0.1\"\nport = 1\n")
        let file = path(runner, Self.decisions)
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        switch bad {
        case .unreadable:
            try "version = 1\n[decisions]\ngpsd = \"allow\"\n".write(toFile: file, atomically: true, encoding: .utf8)
            chmod(file, 0)
        case .folder:
            try putFolder(at: file)
        case .corrupt:
            try "version = 1\n[decisions]\ngpsd = \"allow\nip = allow".write(toFile: file, atomically: true, encoding: .utf8)
        case .deeplyNested:
            let nested = String(repeating: "[", count: 40_000) + String(repeating: "]", count: 40_000)
            try "version = 1\n[decisions]\ngpsd = \"allow\"\nip = \(nested)\n".write(toFile: file, atomically: true, encoding: .utf8)
        case .oversized:
            let padding = String(repeating: "# padding\n", count: 200_000)
            try "version = 1\n[decisions]\ngpsd = \"allow\"\n\(padding)".write(toFile: file, atomically: true, encoding: .utf8)
        }
        try runner.handHomeToUnprivilegedUser()
        let before = bytes(file)

        let result = try await runner.run(["where"], setup: Self.nobody)
        #expect(result.status == 77, "asked again (refused without a terminal), never allowed: \(result.stderr)")
        #expect(result.stderrLines.count == 2, "a warning and the refusal: \(result.stderr)")
        #expect(result.stderrLines.first?.contains(file) == true, "\(result.stderr)")
        #expect(result.stderr.contains("here-weather permissions allow gpsd"))

        let granted = try await runner.run(["permissions", "allow", "ip"], setup: Self.nobody)
        if bad.isReplaced {
            // Documented: a file that parses as nothing is replaced by the next decision.
            #expect(granted.status == 0, "\(granted.stderr)")
            #expect(String(decoding: bytes(file) ?? Data(), as: UTF8.self).contains("ip = \"allow\""))
        } else {
            // What cannot be read is not replaced: its decisions would be lost.
            #expect(granted.status == 73, "\(granted.stderr)")
            #expect(granted.stderr.contains(file))
            #expect(granted.stderr.contains(bad == .folder ? "Move \(file) aside" : "chmod 600 \(file)"), "\(granted.stderr)")
            #expect(bytes(file) == before)
            #expect(isFolder(file) == (bad == .folder))
        }
    }

    // MARK: The last location and the cache

    @Test(arguments: [true, false])
    func aLastLocationFileInBadShapeIsNoMemory(folder: Bool) async throws {
        let server = try server()
        let runner = try CommandRunner()
        try runner.writeConfig(config(server, ip: true))
        let file = path(runner, Self.lastLocation)
        if folder {
            try putFolder(at: file)
        } else {
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try #"{"version":1,"latitude":27.9"#.write(toFile: file, atomically: true, encoding: .utf8)
        }
        let result = try await runner.run(["--json"], setup: .init())
        expectWeather(result)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect((result.json?["location"] as? [String: Any])?["source"] as? String == "ip")
        if folder {
            #expect(isFolder(file), "left alone")
        } else {
            let remembered = try JSONSerialization.jsonObject(with: bytes(file) ?? Data()) as? [String: Any]
            #expect(remembered?["source"] as? String == "ip", "the corrupt file was replaced whole")
        }
    }

    @Test func aFolderWhereTheCacheEntryBelongsCostsOnlySpeed() async throws {
        let server = try server()
        let runner = try CommandRunner()
        try runner.writeConfig(config(server))
        try putFolder(at: path(runner, Self.cacheEntry))
        for _ in 0..<2 {
            let result = try await runner.run(["--json"], setup: .init())
            expectWeather(result)
        }
        #expect(server.requests.count == 2, "nothing cached, nothing broken")
        #expect(isFolder(path(runner, Self.cacheEntry)))
        #expect(leftovers(in: path(runner, Self.cacheFolder)).isEmpty)
    }

    @Test func aReadOnlyCacheFolderStillPrintsTheWeatherAndKeepsTheOldEntry() async throws {
        let server = try server()
        let runner = try CommandRunner()
        try runner.writeConfig(config(server))
        try runner.handHomeToUnprivilegedUser()
        expectWeather(try await runner.run(["--json"], setup: Self.nobody))
        let folder = path(runner, Self.cacheFolder)
        let before = try #require(bytes(path(runner, Self.cacheEntry)))
        chmod(folder, 0o500)
        let result = try await runner.run(["--json", "--no-cache"], setup: Self.nobody)
        expectWeather(result)
        #expect(server.requests.count == 2, "asked the service: \(server.requests) \(result.stderr) \(result.stdout.prefix(600))")
        #expect(bytes(path(runner, Self.cacheEntry)) == before)
        #expect(leftovers(in: folder).isEmpty)
    }

    // MARK: A full disk

    @Test func onAFullDiskTheWeatherIsPrintedAndEveryOldFileSurvives() async throws {
        let server = try server()
        let runner = try CommandRunner()
        try runner.writeConfig(config(server, ip: true))
        expectWeather(try await runner.run(["--json"], setup: .init()))
        let entry = path(runner, Self.cacheEntry), memory = path(runner, Self.lastLocation)
        let oldEntry = try #require(bytes(entry)), oldMemory = try #require(bytes(memory))

        // The IP source is asked again (25 km never meets 3 km) and the service too: both
        // answers are written, and both writes fail.
        let result = try await runner.run(["--json", "--no-cache"], setup: Self.fullDisk)
        expectWeather(result)
        #expect(server.requests.count == 4)
        #expect(bytes(entry) == oldEntry)
        #expect(bytes(memory) == oldMemory)
        #expect(leftovers(in: path(runner, Self.cacheFolder)).isEmpty)
        #expect(leftovers(in: (memory as NSString).deletingLastPathComponent).isEmpty)
    }

    @Test func onAFullDiskAFailedWriteSaysSoAndKeepsTheOldFile() async throws {
        let runner = try CommandRunner()
        try runner.writeConfig("version = 1\n")
        #expect(try await runner.run(["permissions", "allow", "gpsd"], setup: .init()).status == 0)
        let decisions = path(runner, Self.decisions)
        let oldDecisions = try #require(bytes(decisions)), oldConfig = try #require(bytes(runner.configPath))
        for arguments in [["permissions", "deny", "gpsd"], ["config", "init", "--force"]] {
            let result = try await runner.run(arguments, setup: Self.fullDisk)
            #expect(result.status == 73, "\(arguments): \(result.stderr)")
            #expect(result.stderrLines.count == 1, "\(result.stderr)")
            #expect(result.stderr.contains("free some space"), "\(result.stderr)")
        }
        #expect(bytes(decisions) == oldDecisions)
        #expect(bytes(runner.configPath) == oldConfig)
        #expect(leftovers(in: (decisions as NSString).deletingLastPathComponent).isEmpty)
        #expect(leftovers(in: (runner.configPath as NSString).deletingLastPathComponent).isEmpty)
    }
}
