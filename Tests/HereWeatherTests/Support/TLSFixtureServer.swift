import Foundation
import HereWeatherCore
import HereWeatherHTTP
#if canImport(Glibc)
import Glibc
#endif

/// A real HTTPS server on 127.0.0.1: one of the Python scripts in `Fixtures/tls/`
/// (`redirect-server.py`, `fixture-server.py`), with the test certificate
/// `Fixtures/tls/localhost-cert.pem` (for 127.0.0.1), started for one test and stopped with it.
final class TLSFixtureServer: @unchecked Sendable {
    let process: ChildProcess
    let port: Int
    /// The server's standard output: its port, then (with `--announce`) a line per connection.
    private let output: ChildPipe

    /// The test certificate, which is its own CA.
    static let certificate = Fixtures.url("tls/localhost-cert.pem").path

    /// Runs `Fixtures/tls/<script>` with `arguments` and returns once it has printed its port.
    /// Python takes a second or more to start on a loaded machine: the wait runs on a thread of
    /// its own, never on one of the few cooperative threads every test's task shares (two such
    /// waits at the start of a full run held both for seconds; see `GPSDLocationProviderTests.observe`).
    static func started(script: String, arguments: [String] = []) async throws -> TLSFixtureServer {
        try await BlockingCall.run { Result { try TLSFixtureServer(script: script, arguments: arguments) } }
    }

    /// `fixture-server.py`, answering GETs under each path prefix with the fixture file;
    /// `announcing` each connection it accepts (`nextAcceptance`); holding the answers to the
    /// first `together` requests until all of them have arrived (or 20 s passed).
    static func started(routes: [String: String], announcing: Bool = false, together: Int = 0) async throws -> TLSFixtureServer {
        try await started(script: "fixture-server.py",
                          arguments: (announcing ? ["--announce"] : []) + (together > 0 ? ["--together", String(together)] : [])
                              + routes.map { "\($0.key)=\(Fixtures.url($0.value).path)" })
    }

    /// Waits (on a thread of its own) until the server, started `announcing`, says it accepted
    /// a connection; false when it says nothing within `limit`.
    func nextAcceptance(within limit: Duration) async throws -> Bool {
        let descriptor = output.ourEnd
        return try await BlockingCall.run { .success(Self.firstLine(descriptor, within: limit) == "accepted\n") }
    }

    /// Runs `Fixtures/tls/<script>` with `arguments` and reads the port it prints (blocking).
    private init(script: String, arguments: [String]) throws {
        let out = try ChildPipe()
        process = try ChildProcess(["/usr/bin/python3", Fixtures.url("tls/" + script).path] + arguments,
                                   environment: ProcessInfo.processInfo.environment, stdout: .use(out.childEnd))
        out.closeChildEnd()
        output = out
        // The first line is the port (the server prints it at once; bounded all the same).
        let line = Self.firstLine(out.ourEnd, within: .seconds(60))
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw FixtureServer.ServerError.socket(0)
        }
        self.port = port
    }

    /// What is read from `descriptor` up to its first newline, its end, or `limit`.
    private static func firstLine(_ descriptor: Int32, within limit: Duration) -> String {
        let deadline = ContinuousClock.now + limit
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while byte != UInt8(ascii: "\n") {
            let left = ContinuousClock.now.duration(to: deadline)
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard left > .zero, poll(&poller, 1, Int32(clamping: left.wholeMilliseconds)) > 0 else { break }
            let count = read(descriptor, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    var baseURL: String { "https://127.0.0.1:\(port)" }

    /// `fixture-server.py`'s counts: TLS connections accepted and requests served.
    func stats() async throws -> (connections: Int, requests: Int) {
        let client = CurlHTTPClient(trust: CertificateTrust(bundle: Self.certificate))
        let response = try await client.get(HTTPRequest(url: baseURL + "/stats", deadline: .now + .seconds(20)))
        let counts = try JSONSerialization.jsonObject(with: response.body) as? [String: Int] ?? [:]
        return (counts["connections"] ?? -1, counts["requests"] ?? -1)
    }

    /// Kills the server's process group and reaps it on a thread of its own: `stop()` runs in
    /// async tests' `defer`s, on the cooperative pool, where no wait belongs.
    func stop() {
        process.killGroup()
        _ = BlockingCall.startThread { [process] in process.wait() }
    }
}
