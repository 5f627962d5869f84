import Foundation
import Testing
@testable import HereWeatherCore

/// `JSONValue.parse` (its own byte parser) against what it replaced, Foundation's `JSONDecoder`
/// through `JSONValue`'s `Decodable` conformance, on every recorded body; and on the corners
/// of RFC 8259.
@Suite struct JSONValueParserTests {
    static let bodies: [String] = ["weather", "ip", "geocoding"].flatMap { folder in
        (try? FileManager.default.subpathsOfDirectory(atPath: Fixtures.url(folder).path))?
            .filter { $0.hasSuffix(".json") }.map { "\(folder)/\($0)" } ?? []
    }

    @Test func everyRecordedBodyIsThere() {
        #expect(Self.bodies.count > 20)
    }

    @Test(arguments: bodies) func readsRecordedBodyAsJSONDecoderDoes(_ path: String) throws {
        let data = Fixtures.data(path)
        guard let expected = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            #expect(throws: JSONValue.ParseError.self, "\(path)") { try JSONValue.parse(data) }
            return
        }
        #expect(try JSONValue.parse(data) == expected, "\(path)")
    }

    @Test(arguments: [
        (#" {"a" : [1, -2.5e3, 0.125E+2, true, false, null, "x"] } "#,
         JSONValue.object(["a": .array([.number(1), .number(-2500), .number(12.5), .bool(true), .bool(false), .null, .string("x")])])),
        (#""tab\t quote\" slash\/ back\\ \u00e9 \ud83c\udf27 \n""#, .string("tab\t quote\" slash/ back\\ é 🌧 \n")),
        ("[]", .array([])),
        ("{}", .object([:])),
        ("0", .number(0)),
        (#"{"k":1,"k":2}"#, .object(["k": .number(2)])),
        ("\"Zürich\"", .string("Zürich")),
    ])
    func readsValidJSON(_ text: String, _ expected: JSONValue) throws {
        #expect(try JSONValue.parse(Data(text.utf8)) == expected)
    }

    @Test(arguments: ["", " ", "{", "[1,]", "[1 2]", "{\"a\":1,}", "{a:1}", "01", "1.", ".5", "-", "1e", "+1",
                      "tru", "nul", "\"open", "\"bad \\x escape\"", "\"\\ud83c alone\"", "\"\\u12\"",
                      "\"raw\ncontrol\"", "[1] 2", "<html>", "NaN", "Infinity"])
    func rejectsInvalidJSON(_ text: String) {
        #expect(throws: JSONValue.ParseError.self, "\(text)") { try JSONValue.parse(Data(text.utf8)) }
    }

    @Test func rejectsInvalidUTF8AndDeepNesting() {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(Data([0x22, 0xFF, 0xFE, 0x22])) }
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(Data(deep.utf8)) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect((try? JSONValue.parse(Data(fine.utf8))) != nil)
    }
}
