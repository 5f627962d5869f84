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
    typealias TLSServer = TLSFixtureServer

    let client = CurlHTTPClient(trust: CertificateTrust(bundle: TLSServer.certificate), clock: ContinuousClock())

    func get(_ url: String) async throws -> HTTPResponse {
        try await client.get(HTTPRequest(url: url, deadline: .now + .seconds(30)))
    }

    @Test func httpsToHTTPSIsFollowed() async throws {
        let tls = try await TLSServer.started(script: "redirect-server.py")
        defer { tls.stop() }
        #expect(try await get(tls.baseURL + "/ok").status == 200, "the test certificate is trusted")
        let followed = try await get(tls.baseURL + "/to-https")
        #expect(followed.status == 200)
        #expect(String(decoding: followed.body, as: UTF8.self) == #"{"ok": true}"#)
    }

    @Test func httpsToPlainHTTPIsRefusedBeforeAnyRequest() async throws {
        let tls = try await TLSServer.started(script: "redirect-server.py")
        defer { tls.stop() }
        let plain = try FixtureServer(routes: ["/stolen": .json(200, #"{"ok": true}"#)])
        let target = URLText.encode(plain.baseURL + "/stolen?appid=SECRET")
        await #expect(throws: HTTPError.insecureRedirect("127.0.0.1:\(tls.port)")) {
            try await get(tls.baseURL + "/to?url=" + target)
        }
        #expect(plain.requests.isEmpty, "the plain-http server saw nothing")
        let message = WeatherError.service(.openMeteo, .unreachable(.insecureRedirect("api.open-meteo.com"))).message
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
