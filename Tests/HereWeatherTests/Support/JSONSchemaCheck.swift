import Foundation
import HereWeatherCore

/// The JSON output's schema, `docs/here-weather.schema.json`, checked with python3-jsonschema
/// through `scripts/validate-json` (the same check people run by hand:
/// `here-weather --json | scripts/validate-json`).
enum JSONSchemaCheck {
    static let schema = Fixtures.root.appendingPathComponent("docs/here-weather.schema.json")
    static let validator = Fixtures.root.appendingPathComponent("scripts/validate-json")

    /// Why validate-json could not check at all (no python3-jsonschema, a schema that is not one).
    struct CheckFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// What validate-json finds wrong with `documents` (JSON texts, each on one line as the
    /// program prints them) as `$defs/<definition>`: one line per problem ("document 2: at
    /// /weather/current: 'temperature' is a required property"), none when all are valid.
    static func problems(_ documents: [String], as definition: String) async throws -> [String] {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString).jsonl")
        try documents.joined(separator: "\n").write(to: input, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: input) }
        let arguments = [validator.path, "--schema", schema.path, "--def", definition, input.path]
        let (status, output, errors) = try await BlockingCall.run { Result { try run(arguments) } }
        switch status {
        case 0: return []
        case 1: return output.split(separator: "\n").map { String($0).replacing(input.path + ":", with: "document ") }
        default: throw CheckFailed(description: "validate-json exited \(status): \(errors)\(output)")
        }
    }

    /// The schema's `$defs`, parsed: for comparing its enums with the code's.
    static func definitions() throws -> [String: Any] {
        let schema = try JSONSerialization.jsonObject(with: Data(contentsOf: schema)) as? [String: Any]
        return schema?["$defs"] as? [String: Any] ?? [:]
    }

    /// Runs the system python3 (Debian's python3-jsonschema; a pyenv python3 lacks it).
    private static func run(_ arguments: [String]) throws -> (Int32, String, String) {
        let run = try ChildProcess.run(["/usr/bin/python3"] + arguments, environment: ProcessInfo.processInfo.environment)
        return (run.termination.code, run.stdoutText, run.stderrText)
    }
}
