import Foundation
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore

/// `where` names a fix from memory: when the answer is the location remembered from an
/// earlier run (the live source gave none, or the remembered one was recent and accurate
/// enough), the text says "remembered from GPS (gpsd), 3 s ago", the JSON `"remembered":
/// true`, and `--verbose` why.
@Suite struct RememberedWhereTests {
    /// A gpsd that gives one fix at the clock's date, then none (its receiver lost the sky).
    struct GPSDThatStops: LocationSourceProvider {
        let given = OnceFlag()
        let clock: TestClock
        var source: LocationSource { .gpsd }
        func requestLocation(_ request: LocationRequest) async throws -> Location {
            guard given.claim() else { throw LocationError.noFix(source: "gpsd", seconds: 1, seen: "no fix") }
            return Location(coordinate: Coordinate(latitude: 59.9139, longitude: 10.7522), horizontalAccuracy: 8,
                            timestamp: clock.date, source: .gpsd, mode: 3)
        }
    }

    @Test func aFixFromMemorySaysSoInTextJSONAndVerbose() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig(RunSystemTests.gpsdConfig)
        let clock = TestClock()
        let gpsd = GPSDThatStops(clock: clock)
        let assembly = SystemAssembly.test(.test(gpsd: { _ in gpsd }, clock: clock))
        let live = try await runner.run(["where", "--json", "--accuracy", "10m"], assembly: assembly)
        #expect(live.status == 0, "\(live.stderr)")
        #expect((live.json?["location"] as? [String: Any])?["remembered"] as? Bool == false)

        clock.advance(3)
        // Asked for the best, which always asks the source: gpsd gives none, the memory stands in.
        let text = try await runner.run(["where", "--accuracy", "best", "--verbose"], assembly: assembly)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Source:    remembered from GPS (gpsd), 3D fix, 3 s ago"), "\(text.stdout)")
        #expect(text.stderr.contains("location: remembered from GPS (gpsd), 3 s ago: no source gave a fix, and it is within max age"),
                "\(text.stderr)")
        let json = try await runner.run(["where", "--json", "--accuracy", "best"], assembly: assembly)
        let location = try #require(json.json?["location"] as? [String: Any])
        #expect(location["remembered"] as? Bool == true)
        #expect(location["meets_accuracy"] as? Bool == false)
        #expect(try await JSONSchemaCheck.problems([json.stdout], as: "where").isEmpty)

        // Recent and accurate enough: gpsd is not asked at all, and that is said too.
        let recent = try await runner.run(["where", "--accuracy", "10m", "--verbose"], assembly: assembly)
        #expect(recent.stdout.contains("remembered from GPS (gpsd), 3D fix, 3 s ago"), "\(recent.stdout)")
        #expect(recent.stderr.contains("recent and accurate enough, so no source was asked"), "\(recent.stderr)")
    }
}
