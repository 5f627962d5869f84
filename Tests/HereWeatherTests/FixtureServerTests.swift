import Foundation
import Testing
import HereWeatherHTTP
@testable import HereWeatherCore

/// The test HTTP server's own life: it ends with the test that made it.
@Suite struct FixtureServerTests {
    /// A server no test holds any more is gone, with its listener and threads, even one that
    /// answered a request and one that held a connection open: its threads hold it weakly.
    /// Before, every server a test did not stop kept a listener and a thread blocked in accept
    /// to the end of the run (about 400 in a full run), and a run under the default
    /// `ulimit -n` of 1024 failed with EMFILE and crashed reading a fixture.
    @Test func aServerNobodyHoldsStopsWithItsThreads() async throws {
        weak var gone: FixtureServer?
        do {
            let server = try FixtureServer(routes: ["/answer": .json(200, #"{"ok":true}"#), "/hang": .hang])
            gone = server
            let client = CurlHTTPClient(clock: ContinuousClock())
            let answer = try await client.get(HTTPRequest(url: server.baseURL + "/answer", deadline: .now + .seconds(30), maxBodyBytes: 1 << 10))
            #expect(answer.status == 200)
            await #expect(throws: HTTPError.self) {
                try await client.get(HTTPRequest(url: server.baseURL + "/hang", deadline: .now + .milliseconds(300), maxBodyBytes: 1 << 10))
            }
            #expect(server.requests == ["/answer", "/hang"])
        }
        let end = ContinuousClock.now + .seconds(20)
        while gone != nil, ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(10)) }
        #expect(gone == nil, "a thread of the server still holds it")
    }
}
