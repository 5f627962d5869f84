import Foundation
import HereWeatherCore
import Testing
@testable import HereWeatherCore

/// https requests trust the CAs that `CURL_CA_BUNDLE`, `SSL_CERT_DIR` and `SSL_CERT_FILE`
/// name, read as curl reads them; the release binary against a real TLS server whose
/// certificate (`Fixtures/tls/localhost-cert.pem`) only those variables make trusted.
@Suite struct CATrustTests {
    static let certificate = TLSFixtureServer.certificate
    /// The same certificate in a hashed directory (`<openssl x509 -hash>.0`).
    static let directory = Fixtures.url("tls/ca-directory").path

    @Test func curlsPrecedence() throws {
        func named(_ environment: [String: String]) -> [String] {
            CertificateTrust.named(in: environment).map { "\($0.variable)=\($0.path)" }
        }
        #expect(named(["CURL_CA_BUNDLE": "/a", "SSL_CERT_DIR": "/d", "SSL_CERT_FILE": "/f"]) == ["CURL_CA_BUNDLE=/a"])
        #expect(named(["SSL_CERT_DIR": "/d", "SSL_CERT_FILE": "/f"]) == ["SSL_CERT_DIR=/d", "SSL_CERT_FILE=/f"])
        #expect(named(["CURL_CA_BUNDLE": "", "SSL_CERT_FILE": "/f"]) == ["SSL_CERT_FILE=/f"], "empty is unset")
        #expect(named(["HOME": "/root"]).isEmpty)
        #expect(try CertificateTrust.fromEnvironment([:], hashedSystemDirectory: nil) == CertificateTrust())
        #expect(try CertificateTrust.fromEnvironment(["SSL_CERT_DIR": Self.directory, "SSL_CERT_FILE": Self.certificate])
                == CertificateTrust(bundle: Self.certificate, directory: Self.directory))
    }

    /// Issue 22 item 1: with no variable set and a hashed system directory (Debian's
    /// /etc/ssl/certs), the system's CAs are that directory and the bundle is not loaded;
    /// SSL_CERT_DIR alone goes in front of it. A bundle named keeps its meaning.
    @Test func aHashedSystemDirectoryStandsInForTheBundle() throws {
        let system = "/etc/ssl/certs"
        #expect(try CertificateTrust.fromEnvironment([:], hashedSystemDirectory: system)
                == CertificateTrust(directory: system, systemBundle: false))
        #expect(try CertificateTrust.fromEnvironment(["SSL_CERT_DIR": Self.directory], hashedSystemDirectory: system)
                == CertificateTrust(directory: Self.directory + ":" + system, systemBundle: false))
        #expect(try CertificateTrust.fromEnvironment(["SSL_CERT_FILE": Self.certificate], hashedSystemDirectory: system)
                == CertificateTrust(bundle: Self.certificate))
        #expect(try CertificateTrust.fromEnvironment(["CURL_CA_BUNDLE": Self.certificate, "SSL_CERT_DIR": Self.directory],
                                                     hashedSystemDirectory: system) == CertificateTrust(bundle: Self.certificate))
        #expect(CertificateTrust.hashedDirectory(Self.directory) == Self.directory)
        #expect(CertificateTrust.hashedDirectory(Fixtures.url("tls").path) == nil, "no hash names there")
        #expect(CertificateTrust.hashedDirectory("/nonexistent") == nil)
        #expect(CertificateTrust.isHashName(Array("002c0b4f.0".utf8)) && CertificateTrust.isHashName(Array("002c0b4f.12".utf8)))
        #expect(!CertificateTrust.isHashName(Array("002c0b4f.pem".utf8)) && !CertificateTrust.isHashName(Array("ca-certificates.crt".utf8)))
    }

    /// Issue 25 item 5: a FIFO named by SSL_CERT_FILE blocked the transfer thread in open()
    /// past every deadline, and a 2 GB file took seconds to parse: both are refused before
    /// any request, by the checks on what was opened (fstat), naming the variable.
    @Test func aFIFOOrAHugeFileIsRefusedBeforeAnyWork() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("ca.pem").path
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(throws: CertificateTrustError(variable: "SSL_CERT_FILE", path: fifo, problem: "is not a regular file")) {
            try CertificateTrust.fromEnvironment(["SSL_CERT_FILE": fifo])
        }
        let link = folder.appendingPathComponent("link.pem").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: fifo)
        #expect(throws: CertificateTrustError(variable: "CURL_CA_BUNDLE", path: link, problem: "is not a regular file")) {
            try CertificateTrust.fromEnvironment(["CURL_CA_BUNDLE": link])
        }
        let huge = folder.appendingPathComponent("huge.pem").path
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        #expect(truncate(huge, 2 << 30) == 0, "a sparse 2 GiB file")
        #expect(throws: CertificateTrustError(variable: "SSL_CERT_FILE", path: huge,
                                              problem: "is larger than 4 MiB (a CA bundle is a few hundred KB)")) {
            try CertificateTrust.fromEnvironment(["SSL_CERT_FILE": huge])
        }
        #expect(throws: CertificateTrustError(variable: "SSL_CERT_FILE", path: "/dev/zero", problem: "is not a regular file")) {
            try CertificateTrust.fromEnvironment(["SSL_CERT_FILE": "/dev/zero"])
        }
    }

    @Test(arguments: [
        ("SSL_CERT_FILE", "/nonexistent/ca.pem", "does not exist"),
        ("CURL_CA_BUNDLE", "/tmp", "is not a file"),
        ("SSL_CERT_DIR", "/etc/hostname", "is not a directory"),
    ])
    func anUnusableLocationNamesItsVariable(variable: String, path: String, problem: String) {
        #expect(throws: CertificateTrustError(variable: variable, path: path, problem: problem)) {
            try CertificateTrust.fromEnvironment([variable: path])
        }
    }

    /// The Open-Meteo body at a fixed place, from a TLS server.
    func openMeteo() async throws -> (TLSFixtureServer, CommandRunner) {
        let server = try await TLSFixtureServer.started(routes: ["/v1/forecast": "weather/open-meteo/tampa-metric.json",
                                                   "/v1/search": "geocoding/open-meteo/melbourne.json"])
        let runner = try CommandRunner()
        try runner.writeConfig(Self.atAFixedPlace("[weather.open-meteo]\nbase_url = \"\(server.baseURL)\""))
        return (server, runner)
    }

    /// A config with a fixed location and these weather settings.
    static func atAFixedPlace(_ weather: String) -> String {
        "version = 1\n[location]\nsources = [\"fixed\"]\n[location.fixed]\nlatitude = 27.9506\nlongitude = -82.4572\n" + weather
    }

    @Test func anUntrustedServerFailsWithoutTheVariables() async throws {
        let (server, runner) = try await openMeteo()
        defer { server.stop() }
        let result = try await runner.run(["--no-cache"])
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("secure connection to 127.0.0.1:\(server.port) failed"), "\(result.stderr)")
    }

    @Test(arguments: [
        ["SSL_CERT_FILE": certificate],
        ["CURL_CA_BUNDLE": certificate],
        ["SSL_CERT_DIR": directory],
        // curl's precedence: CURL_CA_BUNDLE alone counts.
        ["CURL_CA_BUNDLE": certificate, "SSL_CERT_FILE": "/nonexistent/ca.pem"],
    ])
    func eachVariableTrustsTheServer(environment: [String: String]) async throws {
        let (server, runner) = try await openMeteo()
        defer { server.stop() }
        let result = try await runner.run(["--no-cache", "--json"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"temperature\""))
    }

    /// A missing bundle, and a FIFO (which blocked libcurl's open() past every deadline:
    /// issue 25 item 5), are one line naming the variable, before any request.
    @Test(arguments: [("/nonexistent/ca.pem", "does not exist"), ("fifo", "is not a regular file")])
    func anUnusableBundleIsOneLineNamingTheVariable(path: String, problem: String) async throws {
        let (server, runner) = try await openMeteo()
        defer { server.stop() }
        var bundle = path
        if path == "fifo" {
            bundle = runner.home.appendingPathComponent("ca.pem").path
            #expect(mkfifo(bundle, 0o644) == 0)
        }
        let result = try await runner.run(["--no-cache"], environment: ["SSL_CERT_FILE": bundle], killAfter: .seconds(30))
        #expect(!result.killed, "it hung")
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stderr == "here-weather: SSL_CERT_FILE names \"\(bundle)\", which \(problem): point it at a readable PEM file of CA certificates, or unset it to trust the system's certificate authorities.\n")
        #expect(try await server.stats().requests == 0, "nothing was asked")
    }

    // MARK: One CA load per run

    /// Runs the release binary with `Fixtures/tls/count-ca-loads.c` preloaded; its counts.
    func countingCALoads(_ runner: CommandRunner, _ arguments: [String]) async throws -> (result: CommandRunner.Result, counts: String) {
        let counts = runner.home.appendingPathComponent("ca-loads.txt").path
        let result = try await runner.run(arguments, environment: [
            "SSL_CERT_FILE": Self.certificate, "LD_PRELOAD": try await CALoadCounter.library(), "HW_COUNT_FILE": counts,
        ])
        return (result, try String(contentsOfFile: counts, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// OpenWeatherMap from a TLS server: two requests (current weather and forecast) at once,
    /// to one host; `together`, the server answers neither until both have arrived.
    func openWeatherMap(together: Bool = false) async throws -> (TLSFixtureServer, CommandRunner) {
        let server = try await TLSFixtureServer.started(routes: ["/data/2.5/weather": "weather/openweathermap/weather-tampa-metric.json",
                                                   "/data/2.5/forecast": "weather/openweathermap/forecast-tampa-metric.json"],
                                                        together: together ? 2 : 0)
        let runner = try CommandRunner()
        try runner.writeConfig(Self.atAFixedPlace("""
            [weather]
            provider = "openweathermap"
            [weather.openweathermap]
            api_key = "k"
            base_url = "\(server.baseURL)"
            """))
        return (server, runner)
    }

    /// OpenWeatherMap's two requests load the CA bundle once, not once each (issue 16 item 1:
    /// 87% of a run's instructions).
    @Test func openWeatherMapsTwoRequestsLoadTheCABundleOnce() async throws {
        let (server, runner) = try await openWeatherMap()
        defer { server.stop() }
        let (result, counts) = try await countingCALoads(runner, ["--no-cache", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try await server.stats().requests == 2)
        #expect(counts.hasPrefix("files=1 paths=0 "), "\(counts)")
    }

    /// ... and go out side by side, a connection each, to an HTTP/1.1 service (this one):
    /// taking turns on one connection saves a handshake (~6M instructions) but adds a round trip
    /// and the service's time to answer the first to every run (`CurlSession`). The server holds
    /// the first answer until the second request has come: on a loaded machine the second could
    /// otherwise start after the first had ended and rightly reuse its connection (CI failed so).
    @Test func openWeatherMapsTwoRequestsGoOutSideBySide() async throws {
        let (server, runner) = try await openWeatherMap(together: true)
        defer { server.stop() }
        let (result, counts) = try await countingCALoads(runner, ["--no-cache", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(counts.hasSuffix(" connections=2"), "the run's TLS connections (SSL_new): \(counts)")
        let stats = try await server.stats()
        #expect(stats.requests == 2)
        #expect(stats.connections == 3, "the run's two connections, and the one asking for these counts")
    }

    /// Two hosts (a geocoder, then the weather service) share the one CA load too.
    @Test func twoHostsShareTheCALoad() async throws {
        let (weather, runner) = try await openMeteo()
        defer { weather.stop() }
        let geocoder = try await TLSFixtureServer.started(routes: ["/v1/search": "geocoding/open-meteo/melbourne.json"])
        defer { geocoder.stop() }
        try runner.writeConfig("""
            version = 1
            [weather.open-meteo]
            base_url = "\(weather.baseURL)"
            geocoding_url = "\(geocoder.baseURL)"
            """)
        let (result, counts) = try await countingCALoads(runner, ["--no-cache", "--json", "--city", "Melbourne"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(counts == "files=1 paths=0 connections=2", "\(counts)")
    }
}

/// `Fixtures/tls/count-ca-loads.c`, built once per test run (`PreloadLibrary`).
enum CALoadCounter {
    /// The library's path; the first call builds it.
    static func library() async throws -> String { try await PreloadLibrary.built("tls/count-ca-loads.c") }
}
