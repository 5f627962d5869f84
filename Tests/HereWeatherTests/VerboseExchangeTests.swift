import Foundation
import Testing
@testable import HereWeatherCore
import HereWeatherHTTP

/// `--verbose` shows each request's header fields exactly as the server got them, with one
/// `Accept` each (the NWS's `application/geo+json` replaces the default, not beside it), and
/// the lines of requests that run at once carry their exchange's number.
@Suite struct VerboseExchangeTests {
    /// The verbose lines of each numbered exchange, by number, without the number.
    static func exchanges(_ stderr: String) -> [Int: [String]] {
        var found: [Int: [String]] = [:]
        for line in stderr.split(separator: "\n") where line.hasPrefix("[") {
            guard let close = line.firstIndex(of: "]"), let number = Int(line[line.index(after: line.startIndex)..<close])
            else { continue }
            found[number, default: []].append(String(line[line.index(after: close)...].dropFirst()))
        }
        return found
    }

    @Test func headersAreShownAsSentWithOneAcceptAndNumberedExchanges() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": .fixture("weather/open-meteo/tampa-metric.json"),
                                                "/alerts/active": .fixture("weather/nws/alerts-tampa.json")])
        let runner = try InProcessCommand()
        try runner.writeConfig(ProviderSetup.all[0].config(server.baseURL))
        let result = try await runner.run(["--verbose", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let received = server.receivedRequests
        #expect(received.count == 2, "the weather and the NWS's alerts")
        for request in received {
            let accepts = request.headerLines.filter { $0.lowercased().hasPrefix("accept:") }
            #expect(accepts.count == 1, "\(request.target): \(request.headerLines)")
        }
        #expect(received.first { $0.target.hasPrefix("/alerts/") }?.headers["accept"] == "application/geo+json")
        let exchanges = Self.exchanges(result.stderr)
        #expect(Set(exchanges.keys) == [1, 2], "\(result.stderr)")
        for (_, lines) in exchanges {
            let request = try #require(lines.first)
            let target = String(request.split(separator: " ").last ?? "").replacing(server.baseURL, with: "")
            let served = try #require(received.first { $0.target == target }, "\(target)")
            let shown = lines.dropFirst().filter { $0.hasPrefix("  ") }.map { String($0.dropFirst(2)) }
            #expect(shown == served.headerLines.filter { !$0.lowercased().hasPrefix("host:") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("-> HTTP 200,") }, "\(lines)")
        }
    }

    @Test func aRequestsOwnFieldReplacesTheDefault() {
        let request = HTTPRequest(url: "https://a.example/", headers: [("accept", "application/geo+json"), ("X-One", "1"),
                                                                       ("User-Agent", "mine"), ("x-one", "2")],
                                  deadline: .now)
        #expect(request.sentHeaders.map { "\($0.name): \($0.value)" }
            == ["accept: application/geo+json", "X-One: 2", "User-Agent: mine", "Accept-Encoding: gzip, deflate"])
        #expect(HTTPRequest(url: "https://a.example/", deadline: .now).sentHeaders.map(\.name) == ["Accept", "User-Agent", "Accept-Encoding"])
    }
}
