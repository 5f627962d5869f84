import Foundation
import Glibc
import Synchronization
import Testing
@testable import HereWeatherCore

/// `--follow` with a moving place, as a status bar runs it: the release binary following a
/// live source that drives out of the weather's cell (`Fixtures/nmea/moving.nmea`: 27.95 then
/// 27.96 at 2 decimals): a replayed log, the real gpsd fed the log, an NMEA FIFO. Each prints a
/// line for each place, and the service is asked for the two rounded coordinates. (The
/// one-a-minute limit, on a test clock: `FollowMoveLoopTests`, `FollowMoveCommandTests`.)
@Suite struct FollowMoveProcessTests {
    /// Open-Meteo's Tampa body, 20°C at latitude 27.95 and 21°C at 27.96.
    static func server() throws -> FixtureServer {
        let body = try String(contentsOf: Fixtures.url("weather/open-meteo/tampa-metric.json"), encoding: .utf8)
        return try FixtureServer { target in
            guard target.hasPrefix("/v1/forecast"), let latitude = target.split(separator: "latitude=").last?
                .split(separator: "&").first.flatMap({ Double($0) }) else { return .notFound }
            let temperature = (latitude * 100).rounded() - 2775
            return .json(200, body.replacing("\"temperature_2m\":26.8", with: "\"temperature_2m\":\(temperature)"))
        }
    }

    static func forecasts(_ server: FixtureServer) -> [String] {
        server.requests.filter { $0.hasPrefix("/v1/forecast") }
    }

    /// The weather part of a config: Open-Meteo at `baseURL`, no companions.
    static func weather(_ baseURL: String) -> String {
        """
        [weather]
        provider = "open-meteo"
        timeout = 60
        [weather.open-meteo]
        base_url = "\(baseURL)"
        [alerts]
        nws = false
        [air_quality]
        enabled = false
        """
    }

    /// moving.nmea's lines for epochs `epochs` (9 lines an epoch).
    static func epochs(_ epochs: Range<Int>) throws -> String {
        let text = try String(contentsOf: Fixtures.url("nmea/moving.nmea"), encoding: .utf8)
        let lines = text.split(separator: "\r\n")  // One Character in Swift: CR LF.
        return lines[(epochs.lowerBound * 9)..<min(epochs.upperBound * 9, lines.count)].joined(separator: "\r\n") + "\r\n"
    }

    static let cells = ["latitude=27.95&longitude=-82.46", "latitude=27.96&longitude=-82.46"]

    /// The two cells asked for, in order, once each.
    func expectBothCells(_ server: FixtureServer, _ follower: Follower) {
        let asked = Self.forecasts(server)
        #expect(asked.count == 2, "\(asked)")
        for (request, cell) in zip(asked, Self.cells) { #expect(request.contains(cell), "\(asked)") }
        #expect(follower.lines == ["20.0°C", "21.0°C"], "\(follower.lines)")
    }

    /// `--replay LOG --replay-speed N`: the log plays on after the first fix, at its speed.
    @Test func aReplayedLogThatDrivesOutOfTheCellGivesALineForEachPlace() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let runner = try CommandRunner()
        try runner.writeConfig("version = 1\n" + Self.weather(server.baseURL))
        let follower = try Follower(runner, ["--format", "%t", "--replay", Fixtures.url("nmea/moving.nmea").path,
                                             "--replay-speed", "10"])
        #expect(try await waitUntil { follower.lines.count == 2 }, "\(follower.lines) \(server.requests)")
        follower.process.signal(SIGTERM)
        let end = try await BlockingCall.run { .success(follower.process.wait(within: .seconds(60))) }
        #expect(end == .exited(0))
        expectBothCells(server, follower)
    }

    /// A log that ends (here at once: `max`) leaves the last place; `--verbose` says so once.
    @Test func aLogThatEndsLeavesTheLastPlaceAndSaysSoOnce() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let runner = try CommandRunner()
        try runner.writeConfig("version = 1\n" + Self.weather(server.baseURL))
        let follower = try Follower(runner, ["--format", "%t", "--verbose", "--replay", Fixtures.url("nmea/moving.nmea").path])
        #expect(try await waitUntil { follower.lines.count == 2 }, "\(follower.lines) \(server.requests)")
        follower.process.signal(SIGTERM)
        let end = try await BlockingCall.run { .success(follower.process.wait(within: .seconds(60))) }
        #expect(end == .exited(0))
        expectBothCells(server, follower)
        let ended = follower.stderrText.split(separator: "\n").filter { $0.contains("moving.nmea ended") }
        #expect(ended.count == 1, "the log's end is said once: \(follower.stderrText)")
    }

    @Test func theRealGPSDFedAMovingReceiverMovesTheLine() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let harness = try await GPSDHarness.started()
        defer { harness.stop() }
        let runner = try CommandRunner()
        try runner.writeConfig(harness.onlySourceConfig + "\n" + Self.weather(server.baseURL))
        let folder = runner.home.path
        try Self.epochs(0..<10).write(toFile: folder + "/first.nmea", atomically: true, encoding: .utf8)
        try Self.epochs(10..<40).write(toFile: folder + "/then.nmea", atomically: true, encoding: .utf8)

        harness.feed(URL(fileURLWithPath: folder + "/first.nmea"))
        let follower = try Follower(runner, ["--format", "%t"])
        #expect(try await waitUntil { follower.lines.count == 1 }, "\(harness.stderrTail())")
        // The request's connection, then the watch's: what gpsd reads from now on goes to the watch.
        #expect(try await waitUntil { harness.watchEnables >= 2 && !harness.watchingClients.isEmpty }, "\(harness.stderrTail())")
        #expect(await harness.fed())
        harness.feed(URL(fileURLWithPath: folder + "/then.nmea"))
        #expect(try await waitUntil { follower.lines.count == 2 }, "\(follower.lines) \(server.requests) \(harness.stderrTail())")
        follower.process.signal(SIGTERM)
        _ = try await BlockingCall.run { .success(follower.process.wait(within: .seconds(60))) }
        expectBothCells(server, follower)
    }

    /// A FIFO as `[location.nmea] path`, written as a receiver would (a writer that stays): its
    /// first fix gives the first line; a fix in the next cell, the second.
    @Test func anNMEAFIFOThatMovesMovesTheLine() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let runner = try CommandRunner()
        let fifo = runner.home.path + "/receiver"
        #expect(mkfifo(fifo, 0o600) == 0)
        try runner.writeConfig("""
            version = 1
            [location]
            sources = ["nmea"]
            accuracy = "any"
            [location.nmea]
            permission = "allow"
            path = "\(fifo)"
            """ + "\n" + Self.weather(server.baseURL))
        // Read and write: the open does not wait for a reader, and a write never meets none.
        let writer = open(fifo, O_RDWR | O_CLOEXEC)
        #expect(writer >= 0)
        defer { close(writer) }
        func write(_ text: String) { _ = text.withCString { Glibc.write(writer, $0, strlen($0)) } }

        let follower = try Follower(runner, ["--format", "%t"])
        write(try Self.epochs(0..<2))  // A fix (its epoch ends when the next begins).
        #expect(try await waitUntil { follower.lines.count == 1 }, "\(follower.lines) \(server.requests)")
        write(try Self.epochs(11..<14))  // 11 s on: the next cell.
        #expect(try await waitUntil { follower.lines.count == 2 }, "\(follower.lines) \(server.requests)")
        follower.process.signal(SIGTERM)
        _ = try await BlockingCall.run { .success(follower.process.wait(within: .seconds(60))) }
        expectBothCells(server, follower)
    }
}

/// Polls `condition` for up to `limit`; a wait, not a timing assertion.
private func waitUntil(within limit: Duration = .seconds(60), _ condition: () -> Bool) async throws -> Bool {
    let end = ContinuousClock.now + limit
    while ContinuousClock.now < end {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}
