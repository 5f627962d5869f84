import Foundation
import Testing
@testable import HereWeatherCore

/// The config files' TOML parser, against the toml-test suite's TOML 1.0 cases
/// (Fixtures/toml-test) and the errors users see.
@Suite struct TOMLParserTests {
    static let suite = Fixtures.url("toml-test")
    static let cases: [String] = String(decoding: Fixtures.data("toml-test/files-toml-1.0.0"), as: UTF8.self)
        .split(separator: "\n").map(String.init)
    static let valid = cases.filter { $0.hasPrefix("valid/") && $0.hasSuffix(".toml") }
    static let invalid = cases.filter { $0.hasPrefix("invalid/") && $0.hasSuffix(".toml") }

    @Test func theSuiteIsThere() {
        #expect(Self.valid.count > 150)
        #expect(Self.invalid.count > 400)
    }

    @Test(arguments: valid) func acceptsValidDocument(_ name: String) throws {
        let bytes = Array(Fixtures.data("toml-test/" + name))
        let members: [ConfigMember]
        do {
            members = try TOMLParser.parse(bytes: bytes)
        } catch {
            Issue.record("\(name): line \(error.line), column \(error.column): \(error.reason)")
            return
        }
        let expected = try JSONSerialization.jsonObject(with: Fixtures.data("toml-test/" + name.dropLast(5) + ".json"))
        #expect(Self.canonical(.table(members)) == Self.canonical(json: expected), "\(name)")
    }

    @Test(arguments: invalid) func rejectsInvalidDocument(_ name: String) {
        let bytes = Array(Fixtures.data("toml-test/" + name))
        #expect(throws: TOMLSyntaxError.self, "\(name)") { try TOMLParser.parse(bytes: bytes) }
    }

    // MARK: What users see

    @Test(arguments: [
        ("a = 1\nb = 2 3\n", 2, 7),
        ("[a\nb = 1\n", 1, 3),
        ("a = 1\na = 2\n", 2, 1),
        ("[t]\nx = 1\n[t]\n", 3, 1),
        ("s = \"open\n", 1, 10),
        ("n = 0x\n", 1, 5),
        ("é = 1\n", 1, 1),
        ("k = \"é\" x\n", 1, 9),
        ("a = [1, 2\nb = 3\n", 2, 1),
        ("d = 2024-02-30\n", 1, 5),
    ])
    func errorsPointAtTheProblem(_ text: String, _ line: Int, _ column: Int) {
        let error = #expect(throws: TOMLSyntaxError.self) { try TOMLParser.parse(text) }
        #expect(error?.line == line, "\(text)")
        #expect(error?.column == column, "\(text)")
        #expect(error?.reason.isEmpty == false)
    }

    @Test(arguments: ["deadbeef0123", "fa3b9c0d1e2f", "7e3b9c0d1e2f", "0123abcd4567", "true3b9c", "'open"])
    func errorsNeverQuoteTheText(_ value: String) {
        let error = #expect(throws: TOMLSyntaxError.self) { try TOMLParser.parse("api_key = \(value)\n") }
        #expect(error.map { !$0.reason.contains(value.dropFirst()) } == true, "\(error?.reason ?? "")")
    }

    @Test func keepsTheOrderOfKeys() throws {
        let members = try TOMLParser.parse("z = 1\na = 2\n[m]\nq = 3\n[b]\n")
        #expect(members.map(\.key) == ["z", "a", "m", "b"])
    }

    @Test func datesAreReadAsTheirKind() throws {
        let members = try TOMLParser.parse("a = 1979-05-27\nb = 07:32:00\nc = 1979-05-27T07:32:00Z\nd = 1979-05-27 07:32:00\n")
        #expect(members.map { $0.value.typeName } == ["a date", "a time", "a date-time", "a local date-time"])
    }

    @Test func valuesOfEachType() throws {
        let members = try TOMLParser.parse("""
            i = -1_000
            h = 0xdead_BEEF
            f = 6.02e+23
            s = "tab\\there \\u00e9"
            l = 'C:\\path'
            m = \"\"\"
            one \\
              two\"\"\"
            """)
        let values = Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value.quoted) })
        // A quoted string shows its escapes, as a TOML basic string writes them: the tab parsed
        // from `\t` is `\t` again, and the literal string's backslash is `\\`.
        #expect(values == ["i": "-1000", "h": "3735928559", "f": "6.02e+23", "s": "\"tab\\there é\"",
                           "l": "\"C:\\\\path\"", "m": "\"one two\""])
    }

    // MARK: Comparing with toml-test's tagged JSON

    static func canonical(_ node: ConfigNode) -> String {
        switch node {
        case .table(let members):
            return "{" + members.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription):\(canonical($0.value))" }
                .joined(separator: ",") + "}"
        case .array(let elements): return "[" + elements.map(canonical).joined(separator: ",") + "]"
        case .string(let text): return "string \(text.debugDescription)"
        case .integer(let value): return "integer \(value)"
        case .float(let value): return value.isNaN ? "float nan" : "float \(value)"
        case .bool(let value): return "bool \(value)"
        case .other(let kind): return kind
        }
    }

    static func canonical(json: Any) -> String {
        if let array = json as? [Any] { return "[" + array.map { canonical(json: $0) }.joined(separator: ",") + "]" }
        guard let object = json as? [String: Any] else { return "?" }
        if object.count == 2, let type = object["type"] as? String, let value = object["value"] as? String {
            switch type {
            case "string": return "string \(value.debugDescription)"
            case "integer": return "integer \(Int(value).map(String.init) ?? value)"
            case "float":
                let number = value.hasSuffix("nan") ? Double.nan : value.hasSuffix("inf")
                    ? (value.hasPrefix("-") ? -Double.infinity : .infinity) : Double(value)
                return number.map { $0.isNaN ? "float nan" : "float \($0)" } ?? "float ?"
            case "bool": return "bool \(value)"
            case "datetime": return "date-time"
            case "datetime-local": return "local date-time"
            case "date-local": return "date"
            case "time-local": return "time"
            default: return "? \(type)"
            }
        }
        return "{" + object.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription):\(canonical(json: $0.value))" }
            .joined(separator: ",") + "}"
    }
}
