import Foundation
import Testing

/// What checking the output against its schema found, each fixed in the one place that
/// writes it: a bearing of 360°, an empty place name printed as "", and usage errors with
/// `--json` that left stdout empty.
@Suite struct JSONConsistencyTests {
    /// 0.3° west of due north rounded to 360, while `bearing` said "N" and the schema's range
    /// is 0...359: a whole-degree bearing is now 0 there.
    @Test func aBearingJustWestOfNorthIsZeroDegreesNot360() async throws {
        let result = try await InProcessCommand().run(["where", "--json", "--lat", "27.96", "--lon", "-82.4585"])
        #expect(result.status == 0, "\(result.stderr)")
        let place = try #require((result.json?["location"] as? [String: Any])?["nearest_place"] as? [String: Any])
        #expect(place["name"] as? String == "Tampa")
        #expect(place["bearing"] as? String == "N")
        #expect(place["bearing_deg"] as? Int == 0, "\(place)")
        #expect(try await JSONSchemaCheck.problems([result.stdout.trimmingCharacters(in: .newlines)], as: "where") == [])
    }

    /// `name = ""` under [location.fixed] printed `"name":""` (documented: null when none),
    /// an empty "Place:" line in `where`, and "(fixed: )" in the report: a blank name is no name.
    @Test func aBlankFixedNameIsNoName() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig(ProviderSetup.fixedLocation.replacing(#"name = "Tampa""#, with: #"name = "  ""#))
        let json = try await runner.run(["where", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let location = try #require(json.json?["location"] as? [String: Any])
        #expect(location["name"] is NSNull, "\(location)")
        let text = try await runner.run(["where"])
        #expect(text.stdout.contains("Place:     near Tampa, Florida, US"), "\(text.stdout)")
        let report = try await runner.run(["--weather-replay", Fixtures.url("weather/open-meteo/tampa-metric.json").path])
        #expect(report.status == 0, "\(report.stderr)")
        let firstLine = report.stdout.split(separator: "\n").first ?? ""
        #expect(firstLine.contains("near Tampa, Florida, US (fixed: 27.9506°N, 82.4572°W"), "\(firstLine)")
    }

    /// A command line that does not parse ends before the command runs, so `--json` never
    /// printed its error object: stdout was empty for exit 64 alone.
    @Test(arguments: [["--json", "--no-such-option"], ["--json", "--lat", "1"], ["--units", "metrc", "--json"],
                      ["where", "--json", "--lon", "1"], ["where", "--lat", "95", "--lon", "1", "--json"], ["wehre", "--json"]])
    func aCommandLineThatDoesNotParseStillPrintsTheJSONError(_ arguments: [String]) async throws {
        let result = try await InProcessCommand().run(arguments)
        #expect(result.status == 64)
        let error = try #require(result.json?["error"] as? [String: Any], "stdout: \(result.stdout)")
        #expect(error["code"] as? String == "usage")
        #expect(error["exit_status"] as? Int == 64)
        let message = try #require(error["message"] as? String)
        #expect(!message.isEmpty && !message.contains("\n") && !message.hasPrefix("Error:"), "\(message)")
        #expect(result.stderr.contains(message), "the same error as on stderr: \(result.stderr)")
        #expect(try await JSONSchemaCheck.problems([result.stdout.trimmingCharacters(in: .newlines)], as: "error") == [])
    }

    /// Without `--json` (or with it only after `--`), stdout stays empty as before.
    @Test func withoutJSONAUsageErrorPrintsNothingOnStdout() async throws {
        let plain = try await InProcessCommand().run(["--no-such-option"])
        #expect(plain.status == 64 && plain.stdout.isEmpty, "\(plain.stdout)")
        let afterOptions = try await InProcessCommand().run(["where", "--lat", "1", "--", "--json"])
        #expect(afterOptions.status == 64 && afterOptions.stdout.isEmpty, "\(afterOptions.stdout)")
    }
}
