import Foundation
import Testing
@testable import HereWeatherCore
@testable import HereWeatherHTTP

/// The real libcurl client against a real server on 127.0.0.1.
@Suite struct CurlHTTPClientTests {
    let client = CurlHTTPClient(clock: ContinuousClock())

    func request(_ url: String, seconds: Int = 30, maxBodyBytes: Int = 8 << 20) -> HTTPRequest {
        HTTPRequest(url: url, deadline: .now + .seconds(seconds), maxBodyBytes: maxBodyBytes)
    }

    @Test func returnsStatusHeadersAndBody() async throws {
        let server = try FixtureServer(routes: [
            "/v1/forecast": .fixture("weather/open-meteo/tampa-metric.json", headers: [("Cache-Control", "max-age=900")]),
        ])
        let response = try await client.get(request(server.baseURL + "/v1/forecast?latitude=27.95&longitude=-82.46"))
        #expect(response.status == 200)
        #expect(response.body == Fixtures.data("weather/open-meteo/tampa-metric.json"))
        #expect(response.headers["cache-control"] == "max-age=900")
        #expect(response.headers["content-type"] == "application/json")
        #expect(server.requests == ["/v1/forecast?latitude=27.95&longitude=-82.46"])
    }

    /// A request without a User-Agent of its own names this version (it said "0.1" while the
    /// program was 0.1.0).
    @Test func theDefaultUserAgentNamesThisVersion() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": .fixture("weather/open-meteo/tampa-metric.json")])
        _ = try await client.get(request(server.baseURL + "/v1/forecast"))
        let agent = try #require(server.receivedRequests.first?.headers["user-agent"])
        #expect(agent == "here-weather/\(HereWeatherVersion.current) (+https://github.com/here-weather/here-weather)")
    }

    @Test func errorStatusesAreResponsesNotErrors() async throws {
        let server = try FixtureServer(routes: ["/missing": .json(404, #"{"cod":"404","message":"city not found"}"#)])
        let response = try await client.get(request(server.baseURL + "/missing"))
        #expect(response.status == 404)
        #expect(String(decoding: response.body, as: UTF8.self).contains("city not found"))
    }

    @Test func hungServerTimesOutAtTheDeadline() async throws {
        let server = try FixtureServer(routes: ["/slow": .hang])
        defer { server.stop() }
        await #expect(throws: HTTPError.timedOut("127.0.0.1:\(server.port)")) {
            try await client.get(request(server.baseURL + "/slow", seconds: 1))
        }
    }

    @Test func stallMidBodyTimesOut() async throws {
        var stalled = FixtureServer.Response.fixture("weather/open-meteo/tampa-metric.json")
        stalled.behaviour = .stallMidBody
        let server = try FixtureServer(routes: ["/stall": stalled])
        defer { server.stop() }
        await #expect(throws: HTTPError.timedOut("127.0.0.1:\(server.port)")) {
            try await client.get(request(server.baseURL + "/stall", seconds: 1))
        }
    }

    /// libcurl refuses a response header over 100 KB with "Out of memory"; the error says
    /// what really happened (issue 25 item 12).
    @Test func aHugeResponseHeaderIsSaidAsSuch() async throws {
        let huge = FixtureServer.Response.fixture("weather/open-meteo/tampa-metric.json",
                                                  headers: [("X-Padding", String(repeating: "a", count: 1 << 20))])
        let server = try FixtureServer(routes: ["/huge": huge])
        defer { server.stop() }
        await #expect(throws: HTTPError.transferFailed("the response's headers were larger than libcurl accepts (100 KB), or memory ran out")) {
            try await client.get(request(server.baseURL + "/huge"))
        }
    }

    @Test func connectionRefusedIsReportedAsSuch() async throws {
        let closed = try ClosedPort()  // held to the end: no other test's server can take the port
        defer { withExtendedLifetime(closed) {} }
        let port = closed.port
        await #expect(throws: HTTPError.connectionRefused("127.0.0.1:\(port)")) {
            try await client.get(request("http://127.0.0.1:\(port)/v1/forecast"))
        }
    }

    @Test func serverClosingWithoutAnswerIsATransferFailure() async throws {
        let server = try FixtureServer(routes: ["/close": FixtureServer.Response(status: 200, body: [], behaviour: .close)])
        await #expect(throws: HTTPError.self) {
            try await client.get(request(server.baseURL + "/close"))
        }
    }

    @Test func oversizedBodyIsRefused() async throws {
        let server = try FixtureServer(routes: ["/big": .fixture("weather/open-meteo/tampa-metric.json")])
        await #expect(throws: HTTPError.bodyTooLarge(limit: 1024)) {
            try await client.get(request(server.baseURL + "/big", maxBodyBytes: 1024))
        }
    }

    @Test func deadlineAlreadyPassedFailsWithoutSending() async throws {
        let server = try FixtureServer(routes: ["/x": .json(200, "{}")])
        await #expect(throws: HTTPError.timedOut("127.0.0.1:\(server.port)")) {
            try await client.get(HTTPRequest(url: server.baseURL + "/x", deadline: .now - .seconds(1)))
        }
        #expect(server.requests.isEmpty)
    }

    @Test(arguments: ["ftp://127.0.0.1/x", "file:///etc/passwd", "not a url"])
    func onlyHTTPAndHTTPSAreAllowed(url: String) async throws {
        await #expect(throws: HTTPError.invalidURL) {
            try await client.get(request(url))
        }
    }

    /// A peer on the port that answers, but not with HTTP, is a network fault naming the
    /// host, not "the service URL is not a valid http(s) URL" (issue 14).
    @Test(arguments: [
        Array("SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n".utf8),
        [0x00, 0xFF, 0x16, 0x03] + Array("garbage\r\n\r\n".utf8),
        Array("HTTP/1.1 100 Continue\r\n\r\n{\"latitude\": 27.9}".utf8),
    ])
    func aPeerThatDoesNotSpeakHTTPIsNamedAsSuch(greeting: [UInt8]) async throws {
        let peer = try FakeTCPPeer(FakeTCPPeer.Behaviour(greeting: greeting, closes: false))
        defer { peer.stop() }
        await #expect(throws: HTTPError.notHTTP("127.0.0.1:\(peer.port)")) {
            try await client.get(request("http://127.0.0.1:\(peer.port)/v1/forecast", seconds: 20))
        }
    }

    /// A plain-http request redirected to another scheme is refused as a redirect, not taken
    /// for a peer that does not speak HTTP.
    @Test func aRedirectToAnotherSchemeIsARefusedRedirect() async throws {
        let server = try FixtureServer(routes: ["/x": FixtureServer.Response(status: 302, headers: [("Location", "ftp://127.0.0.1/x")], body: [])])
        defer { server.stop() }
        await #expect(throws: HTTPError.transferFailed("redirected to a scheme other than http(s)")) {
            try await client.get(request(server.baseURL + "/x"))
        }
    }

    @Test func cancellingTheTaskAbortsTheTransfer() async throws {
        let server = try FixtureServer(routes: ["/slow": .hang])
        defer { server.stop() }
        let task = Task { try await client.get(request(server.baseURL + "/slow", seconds: 30)) }
        while server.requests.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        task.cancel()
        await #expect(throws: HTTPError.cancelled) { try await task.value }
    }

    /// Every transfer runs on the process's one multi handle and its one thread: a hung
    /// transfer must not hold up others, on the same host or another, and many at once all end.
    @Test func aHungTransferHoldsUpNoOther() async throws {
        let server = try FixtureServer(routes: ["/slow": .hang, "/ok": .json(200, #"{"ok": true}"#)])
        defer { server.stop() }
        let hung = Task { try await client.get(request(server.baseURL + "/slow", seconds: 60)) }
        while server.requests.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        let answers = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { try await client.get(request(server.baseURL + "/ok")).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(answers == Array(repeating: 200, count: 20))
        hung.cancel()
        await #expect(throws: HTTPError.cancelled) { try await hung.value }
    }

    @Test func hostInMessagesNeverIncludesPathOrQuery() {
        #expect(ServiceURL("https://api.openweathermap.org/data/2.5/weather?appid=SECRET").shown == "api.openweathermap.org")
        #expect(ServiceURL("http://user:pw@127.0.0.1:8080/x").shown == "127.0.0.1:8080")
    }
}
