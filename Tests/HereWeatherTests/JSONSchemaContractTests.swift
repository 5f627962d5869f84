import Foundation
import Testing
@testable import HereWeatherCore
@testable import HereWeatherPlaces

/// The schema as a contract: its enums are the code's (a new condition, provider, source or
/// exit status fails here until the schema has it), and it rejects output that drifts (a
/// missing or extra key, a number written as a string, a date that is not one).
@Suite struct JSONSchemaContractTests {
    func values(_ schema: Any?, _ path: String...) -> [String] {
        var node = schema
        for key in path { node = (node as? [String: Any])?[key] }
        return ((node as? [String: Any])?["enum"] as? [Any] ?? []).map { $0 is NSNull ? "null" : "\($0)" }
    }

    @Test func theSchemasEnumsAreTheCodes() throws {
        let defs = try JSONSchemaCheck.definitions()
        #expect(values(defs, "condition") == Condition.allCases.map(\.rawValue))
        #expect(values(defs, "condition_group") == ConditionGroup.allCases.map(\.rawValue))
        let language = try #require((defs["language"] as? [String: Any])?["pattern"] as? String)
        for code in LanguageChoice.codes {
            #expect(code.wholeMatch(of: try Regex(language)) != nil, "\(code) matches the schema's language pattern")
        }
        #expect(values(defs, "weather", "properties", "provider") == WeatherProviderKind.allCases.map(\.rawValue))
        #expect(values(defs, "weather", "properties", "units") == Units.allCases.map(\.rawValue))
        let origins = LocationSource.allCases.map { LocationOrigin.source($0) } + [.commandLine, .city]
        #expect(values(defs, "location", "properties", "source") == origins.map(\.name))
        #expect(values(defs, "current", "properties", "wind_direction") == Formatting.compassPoints + ["null"])
        #expect(values(defs, "nearest_place", "properties", "bearing") == Geodesy.compassPoints)

        // Doctor's "a check failed" (1) has no JSON output: every other failure can reach it.
        let failures = ExitStatus.allCases.filter { $0 != .ok && $0 != .checkFailed }.sorted { $0.rawValue < $1.rawValue }
        #expect(values(defs, "error_code") == failures.map(\.code))
        let error = (defs["error"] as? [String: Any]).flatMap { ($0["properties"] as? [String: Any])?["error"] }
        #expect(values(error, "properties", "exit_status") == failures.map { "\($0.rawValue)" })
        let pairs = ((error as? [String: Any])?["oneOf"] as? [[String: Any]] ?? []).map { branch in
            let properties = branch["properties"] as? [String: [String: Any]]
            return "\(properties?["code"]?["const"] ?? "") \(properties?["exit_status"]?["const"] ?? "")"
        }
        #expect(pairs == failures.map { "\($0.code) \($0.rawValue)" })
    }

    /// A real report, then copies of it doctored as a writer could drift: each must fail.
    @Test func outputThatDriftsFromTheSchemaFails() async throws {
        let result = try await InProcessCommand().run(["--lat", "27.95", "--lon", "-82.46", "--provider", "pirateweather", "--json",
                                                    "--weather-replay", Fixtures.url("weather/pirateweather/tampa-si.json").path])
        let report = try #require(result.json, "\(result.stderr)")
        func doctored(_ change: (inout [String: Any], inout [String: Any]) -> Void) throws -> String {
            var weather = report["weather"] as? [String: Any] ?? [:]
            var current = weather["current"] as? [String: Any] ?? [:]
            change(&weather, &current)
            weather["current"] = current
            var copy = report
            copy["weather"] = weather
            return String(decoding: try JSONSerialization.data(withJSONObject: copy), as: UTF8.self)
        }
        let cases: [(String, String)] = [
            (try doctored { _, _ in }, ""),
            (try doctored { _, current in current["temperature"] = nil }, "at /weather/current: 'temperature' is a required property"),
            (try doctored { _, current in current["temperature"] = "26.8" }, "at /weather/current/temperature: '26.8' is not of type 'number'"),
            (try doctored { weather, _ in weather["feels_like"] = 25 }, "at /weather: Additional properties are not allowed ('feels_like' was unexpected)"),
            (try doctored { _, current in current["time"] = "2026-02-30T14:15:00-05:00" }, "is not a 'date-time'"),
            (try doctored { _, current in current["condition"] = "sunny" }, "at /weather/current/condition: 'sunny' is not one of"),
            (try doctored { weather, _ in weather["stale"] = true }, "at /weather/cached: True was expected"),
        ]
        for (document, expected) in cases {
            let problems = try await JSONSchemaCheck.problems([document], as: "report")
            if expected.isEmpty {
                #expect(problems.isEmpty, "the undoctored copy is valid: \(problems)")
            } else {
                #expect(problems.contains { $0.contains(expected) }, "expected \(expected): \(problems)")
            }
        }
        let mismatched = #"{"error":{"code":"usage","message":"Bad.","exit_status":78}}"#
        #expect(try await JSONSchemaCheck.problems([mismatched], as: "error").isEmpty == false, "usage is 64")
        let markup = #"{"text":"<b>26.8°C</b>","tooltip":"x","class":"clear","alt":"clear"}"#
        #expect(try await JSONSchemaCheck.problems([markup], as: "waybar").isEmpty == false, "waybar text is escaped")
    }

    /// The run's one checker (`validate-json --serve`) numbers the documents of a request as
    /// the script does, says why it cannot check (an unknown definition, no documents) instead
    /// of answering "valid", and answers the next request after that.
    @Test func theSharedCheckerSaysWhyItCannotCheckAndGoesOn() async throws {
        let problems = try await JSONSchemaCheck.problems(["{}", "not json"], as: "error")
        #expect(problems.contains { $0.hasPrefix("document 1: at /: ") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("document 2: not JSON") }, "\(problems)")
        await #expect(throws: JSONSchemaCheck.CheckFailed.self) { try await JSONSchemaCheck.problems(["{}"], as: "no-such-definition") }
        await #expect(throws: JSONSchemaCheck.CheckFailed.self) { try await JSONSchemaCheck.problems([], as: "error") }
        let valid = #"{"error":{"code":"usage","message":"Bad.","exit_status":64}}"#
        #expect(try await JSONSchemaCheck.problems([valid], as: "error") == [])
    }
}
