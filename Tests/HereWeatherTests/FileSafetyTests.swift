import Foundation
import Glibc
import Testing
@testable import HereWeatherCore

/// How the program treats its files when someone (or something) has put odd things in the way,
/// through the release binary: huge files, planted symbolic links, concurrent changes, paths
/// that are not UTF-8, and a user pointing at a policy of their own.
@Suite struct FileSafetyTests {
    static let forecast = FixtureServer.Response.fixture("weather/open-meteo/tampa-metric.json")
    static let cacheEntry = ".cache/here-weather/open-meteo_27.95_-82.46_metric.weather"

    /// Fixed Tampa and Open-Meteo at `server` (the cache tests' config).
    func config(_ server: FixtureServer) -> String {
        CacheCommandTests().config(server: server)
    }

    /// A file of `size` bytes that takes no room (holes): as slow to read as a real one.
    func sparseFile(_ path: String, size: Int) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        defer { close(descriptor) }
        guard ftruncate(descriptor, off_t(size)) == 0 else { throw POSIXError(.EIO) }
    }

    func size(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    }

    // MARK: Size limits

    /// A junk cache entry of 256 MB made every run fail (read whole up to three times, never
    /// replaced); at 2 GB, even `--no-cache` took over a minute and 2 GB of memory.
    @Test(arguments: [(256 << 20, false), (2 << 30, true)])
    func aHugeJunkCacheEntryIsAMissAndIsReplaced(_ bytes: Int, _ noCache: Bool) async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": Self.forecast])
        let runner = try CommandRunner()
        try runner.writeConfig(config(server))
        let entry = runner.home.path + "/" + Self.cacheEntry
        try sparseFile(entry, size: bytes)
        let result = try await runner.run(["--json"] + (noCache ? ["--no-cache"] : []), setup: .init(), limit: .seconds(120))
        #expect(!result.hung)
        #expect(result.status == 0, "\(result.stderr)")
        #expect((result.json?["weather"] as? [String: Any])?["cached"] as? Bool == false, "\(result.stdout)")
        #expect(server.requests.count == 1)
        #expect((size(entry) ?? .max) < 1 << 20, "the junk was replaced by the fresh entry")
        let again = try await runner.run(["--json"], setup: .init(), limit: .seconds(120))
        #expect((again.json?["weather"] as? [String: Any])?["cached"] as? Bool == true, "\(again.stderr)")
    }

    /// Files over their kind's limit are refused by size, before reading: the config and the
    /// policy (exit 78), a weather recording (exit 66); a last location that large is no memory.
    @Test func oversizedFilesAreRefusedWithoutReadingThem() async throws {
        let runner = try CommandRunner()
        try sparseFile(runner.configPath, size: 64 << 20)
        let config = try await runner.run(["where"])
        #expect(config.status == 78, "\(config.stderr)")
        #expect(config.stderr.contains("Cannot read the config file \(runner.configPath): it is larger than 1 MB"), "\(config.stderr)")

        try runner.writeConfig("version = 1\n[location]\nsources = [\"fixed\"]\n[location.fixed]\nlatitude = 1\nlongitude = 2\n")
        let policy = runner.home.path + "/policy.toml"
        try sparseFile(policy, size: 64 << 20)
        let restricted = try await runner.run(["where"], environment: [SystemPolicy.pathVariable: policy], asRoot: true)
        #expect(restricted.status == 78, "\(restricted.stderr)")
        #expect(restricted.stderr.contains("Cannot read the system location policy \(policy): it is larger than 1 MB"), "\(restricted.stderr)")

        let recording = runner.home.path + "/recording.json"
        try sparseFile(recording, size: 1 << 30)
        let replay = try await runner.run(["--lat", "1", "--lon", "2", "--weather-replay", recording])
        #expect(replay.status == 66, "\(replay.stderr)")
        #expect(replay.stderr.contains("it is larger than 32 MB"), "\(replay.stderr)")
    }

    // MARK: Symbolic links

    /// A `<key>.lock` symlink planted in the cache folder made the program create a file
    /// where it pointed. Now the lock is skipped (the cache costs only speed) and nothing is made.
    @Test func aPlantedLockSymlinkIsNotFollowed() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": Self.forecast])
        let runner = try CommandRunner()
        try runner.writeConfig(config(server))
        let lock = runner.home.path + "/" + Self.cacheEntry.replacingOccurrences(of: ".weather", with: ".lock")
        let target = runner.home.path + "/planted-target"
        try FileManager.default.createDirectory(atPath: (lock as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: target)
        let result = try await runner.run(["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.json?["weather"] != nil)
        #expect(!FileManager.default.fileExists(atPath: target), "a file was created through the planted link")

        // The decisions file's lock: the change is refused, naming the link, and nothing is made.
        let stateLock = runner.home.path + "/.local/state/here-weather/permissions.toml.lock"
        try FileManager.default.createDirectory(atPath: (stateLock as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: stateLock, withDestinationPath: target)
        let granted = try await runner.run(["permissions", "allow", "ip"])
        #expect(granted.status == 73, "\(granted.stderr)")
        #expect(granted.stderr.contains("symbolic link"), "\(granted.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    // MARK: Concurrent changes

    /// Two `permissions` changes at once lost one decision in 27 of 40 tries, both exiting 0.
    @Test func twentyConcurrentPermissionChangesAreAllKept() async throws {
        let runner = try CommandRunner()
        let changes: [(String, String)] = [("allow", "gpsd"), ("deny", "ip"), ("allow", "nmea"), ("deny", "fixed")]
        for round in 1...3 {
            try? FileManager.default.removeItem(atPath: runner.home.path + "/.local/state/here-weather/permissions.toml")
            let results = try await withThrowingTaskGroup(of: CommandRunner.Result.self) { group in
                for index in 0..<20 {
                    let (verb, source) = changes[index % changes.count]
                    group.addTask { try await runner.run(["permissions", verb, source]) }
                }
                var results: [CommandRunner.Result] = []
                for try await result in group { results.append(result) }
                return results
            }
            #expect(results.allSatisfy { $0.status == 0 }, "round \(round): \(results.map(\.stderr))")
            let shown = try await runner.run(["permissions"])
            for (verb, source) in changes {
                let row = shown.stdout.split(separator: "\n").first { $0.hasPrefix(source + " ") } ?? ""
                #expect(row.contains(verb) && row.contains("remembered"), "round \(round): \(source): \(row)")
            }
        }
    }

    // MARK: The system policy

    /// Any user escaped the administrator's policy by setting HERE_WEATHER_SYSTEM_POLICY (to a
    /// missing file, say). Only root may redirect it now; for others it is ignored, with a warning.
    @Test func anOrdinaryUserCannotRedirectTheSystemPolicy() async throws {
        let runner = try CommandRunner()
        let policy = runner.home.path + "/policy.toml"
        try "[location.ip]\npermission = \"restricted\"\n".write(toFile: policy, atomically: true, encoding: .utf8)
        try runner.handHomeToUnprivilegedUser()

        let asRoot = try await runner.run(["permissions"], setup: .init(asRoot: true), environment: [SystemPolicy.pathVariable: policy])
        #expect(asRoot.status == 0, "\(asRoot.stderr)")
        #expect(asRoot.stdout.contains("restricted"), "root may point at its own policy: \(asRoot.stdout)")

        let asUser = try await runner.run(["permissions"], setup: .init(unprivileged: true),
                                          environment: [SystemPolicy.pathVariable: policy])
        #expect(asUser.status == 0, "\(asUser.stderr)")
        #expect(!asUser.stdout.contains("restricted"), "the user's policy file was used: \(asUser.stdout)")
        #expect(asUser.stderr.contains("\(SystemPolicy.pathVariable) is ignored: only root"), "\(asUser.stderr)")
    }

    // MARK: Paths that are not UTF-8

    /// `caf\xE9` (Latin-1 é): arguments and variables became U+FFFD, so an existing `--config`
    /// with that name was "missing" and the cache went to a folder of another name.
    @Test func pathsThatAreNotUTF8AreUsedByteForByte() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": Self.forecast])
        let runner = try CommandRunner()
        let folder = Array(runner.home.path.utf8) + Array("/caf".utf8) + [0xE9]
        #expect(mkdir(cString(folder), 0o700) == 0)
        let configBytes = Array(config(server).replacingOccurrences(of: "Tampa", with: "Bytewise").utf8)
        let descriptor = open(cString(folder + Array("/config.toml".utf8)), O_WRONLY | O_CREAT | O_EXCL, 0o600)
        #expect(descriptor >= 0)
        #expect(configBytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == configBytes.count)
        close(descriptor)

        let prelude = #"""
            folder="$(printf '%s/caf\351' "$HOME")"
            export XDG_CACHE_HOME="$folder"
            set -- --config "$folder/config.toml" "$@"
            """#
        let result = try await runner.run(["--json"], setup: .init(shellPrelude: prelude))
        #expect(result.status == 0, "\(result.stderr)")
        #expect((result.json?["location"] as? [String: Any])?["name"] as? String == "Bytewise", "\(result.stdout)")
        let entry = folder + Array("/here-weather/open-meteo_27.95_-82.46_metric.weather".utf8)
        #expect(access(cString(entry), F_OK) == 0, "the cache went elsewhere")
        #expect(!FileManager.default.fileExists(atPath: runner.home.path + "/caf\u{FFFD}"))
    }

    func cString(_ bytes: [UInt8]) -> [CChar] { bytes.map { CChar(bitPattern: $0) } + [0] }

    @Test func systemPathRoundTripsEveryByte() {
        let samples: [[UInt8]] = [
            Array("plain/ascii".utf8), Array("Zürich/🌧".utf8), [0x63, 0x61, 0x66, 0xE9], [0xFF, 0xFE, 0x80],
            [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80], Array("\u{F780}\u{F7FF}x".utf8),
            [0xEF, 0x9E, 0x80, 0xE9], Array(0x01...0xFF),
        ]
        for bytes in samples {
            #expect(SystemPath.bytes(of: SystemPath.decode(bytes)) == bytes, "\(bytes)")
        }
        #expect(SystemPath.decode(Array("Zürich".utf8)) == "Zürich")
    }
}
