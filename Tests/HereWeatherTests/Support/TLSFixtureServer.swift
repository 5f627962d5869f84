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
    let process = Process()
    let port: Int

    /// The test certificate, which is its own CA.
    static let certificate = Fixtures.url("tls/localhost-cert.pem").path

    /// Runs `Fixtures/tls/<script>` with `arguments` and returns once it has printed its port.
    /// Python takes a second or more to start on a loaded machine: the wait runs on a thread of
    /// its own, never on one of the few cooperative threads every test's task shares (two such
    /// waits at the start of a full run held both for seconds; see `GPSDLocationProviderTests.observe`).
    static func started(script: String, arguments: [String] = []) async throws -> TLSFixtureServer {
        try await BlockingCall.run { Result { try TLSFixtureServer(script: script, arguments: arguments) } }
    }

    /// `fixture-server.py`, answering GETs under each path prefix with the fixture file.
    static func started(routes: [String: String]) async throws -> TLSFixtureServer {
        try await started(script: "fixture-server.py", arguments: routes.map { "\($0.key)=\(Fixtures.url($0.value).path)" })
    }

    /// Runs `Fixtures/tls/<script>` with `arguments` and reads the port it prints (blocking).
    private init(script: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Fixtures.url("tls/" + script).path] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        // The first line is the port (a bounded read: the server prints it at once).
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line += chunk
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            throw FixtureServer.ServerError.socket(0)
        }
        self.port = port
    }

    var baseURL: String { "https://127.0.0.1:\(port)" }

    /// `fixture-server.py`'s counts: TLS connections accepted and requests served.
    func stats() async throws -> (connections: Int, requests: Int) {
        let client = CurlHTTPClient(trust: CertificateTrust(bundle: Self.certificate))
        let response = try await client.get(HTTPRequest(url: baseURL + "/stats", deadline: .now + .seconds(20)))
        let counts = try JSONSerialization.jsonObject(with: response.body) as? [String: Int] ?? [:]
        return (counts["connections"] ?? -1, counts["requests"] ?? -1)
    }

    /// SIGKILL (the test process may block SIGTERM, and its children inherit the mask), and the
    /// wait for the exit on a thread of its own. `stop()` runs in async tests' `defer`s, on the
    /// cooperative pool, and Foundation may learn of the exit late: it watches each child through
    /// a socket that a child started by another thread at the same moment can inherit. Seen: a
    /// `where` run waiting at its permission prompt held one; both pool threads waited here for
    /// it, the prompt's answer needed the pool, and the whole test run stalled.
    func stop() {
        // Not once Foundation has reaped it: the pid may be another process's by then.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        _ = BlockingCall.startThread { self.process.waitUntilExit() }
    }
}
