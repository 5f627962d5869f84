import Foundation
import Testing
@testable import HereWeatherCore
import HereWeatherHTTP
#if canImport(Glibc)
import Glibc
#endif

/// libcurl never lets a redirect downgrade an https request to plain http: the real client
/// against a real TLS server on 127.0.0.1 (`Fixtures/tls/redirect-server.py`).
@Suite struct RedirectSecurityTests {
    /// The TLS server, started for one test and stopped with it.
    final class TLSServer: @unchecked Sendable {
        let process = Process()
        let port: Int

        init() throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [Fixtures.url("tls/redirect-server.py").path]
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

        /// SIGKILL: the test process may block SIGTERM, and its children inherit the mask.
        func stop() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    let client = CurlHTTPClient(trust: CertificateTrust(bundle: Fixtures.url("tls/localhost-cert.pem").path))

    func get(_ url: String) async throws -> HTTPResponse {
        try await client.get(HTTPRequest(url: url, deadline: .now + .seconds(30)))
    }

    @Test func httpsToHTTPSIsFollowed() async throws {
        let tls = try TLSServer()
        defer { tls.stop() }
        #expect(try await get(tls.baseURL + "/ok").status == 200, "the test certificate is trusted")
        let followed = try await get(tls.baseURL + "/to-https")
        #expect(followed.status == 200)
        #expect(String(decoding: followed.body, as: UTF8.self) == #"{"ok": true}"#)
    }

    @Test func httpsToPlainHTTPIsRefusedBeforeAnyRequest() async throws {
        let tls = try TLSServer()
        defer { tls.stop() }
        let plain = try FixtureServer(routes: ["/stolen": .json(200, #"{"ok": true}"#)])
        let target = URLText.encode(plain.baseURL + "/stolen?appid=SECRET")
        await #expect(throws: HTTPError.insecureRedirect("127.0.0.1:\(tls.port)")) {
            try await get(tls.baseURL + "/to?url=" + target)
        }
        #expect(plain.requests.isEmpty, "the plain-http server saw nothing")
        let message = WeatherError.unreachable(service: "Open-Meteo", .insecureRedirect("api.open-meteo.com")).message
        #expect(message.contains("redirected the https request to plain http, which is refused"))
    }

    @Test func plainHTTPMayStillRedirectToPlainHTTP() async throws {
        // Only https requests are held to https: loopback and allow_plain_http services keep working.
        let second = try FixtureServer(routes: ["/ok": .json(200, #"{"ok": true}"#)])
        let first = try FixtureServer(routes: ["/moved": FixtureServer.Response(status: 302, headers: [("Location", second.baseURL + "/ok")], body: [])])
        #expect(try await get(first.baseURL + "/moved").status == 200)
        #expect(second.requests == ["/ok"])
    }
}
