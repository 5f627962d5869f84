import Foundation
import Testing
@testable import HereWeatherCore

/// Text from a service is inert (issue 25 item 8): bidi controls, line and paragraph
/// separators and other format characters in a service's place name never reach the text
/// report, `--format`, the waybar tooltip or the JSON. In Pango an unclosed U+202E turned
/// the temperature after the name round.
@Suite struct InertServiceTextTests {
    /// Every bidi embedding, override and isolate, the two separators, a zero-width space, a
    /// byte order mark and a soft hyphen.
    static let hostile = "\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}\u{2066}\u{2067}\u{2068}\u{2069}\u{200E}\u{200F}"
        + "\u{200B}\u{FEFF}\u{00AD}"

    static func isInert(_ text: String) -> Bool {
        !text.unicodeScalars.contains { scalar in
            scalar.properties.generalCategory == .format && scalar != "\u{200C}" && scalar != "\u{200D}"
                || scalar.value == 0x2028 || scalar.value == 0x2029
        }
    }

    @Test func formatCharactersAreRemovedAndSeparatorsAreSpaces() {
        #expect(ServiceText.printable("Tam\u{202E}pa\u{2028}Bay\u{2029}!" + Self.hostile) == "Tampa Bay !")
        #expect(ServiceText.oneLine("Invalid\u{2028}\u{2029}key\u{2066}.\u{2069}") == "Invalid key")
        // Joiners spell Persian and Indic names and emoji sequences; they reorder nothing.
        #expect(ServiceText.printable("می\u{200C}خواهم 👨\u{200D}👩") == "می\u{200C}خواهم 👨\u{200D}👩")
        #expect(ServiceText.printable("Zürich °C ·") == "Zürich °C ·")
    }

    /// OpenWeatherMap's `name` carrying the controls, through every output (with place names
    /// off, so that the service's name is the one shown: the nearest town comes first).
    @Test(arguments: [["--format", "%l %t"], [], ["--waybar"], ["--json"]])
    func aHostilePlaceNameReachesNoOutput(output: [String]) async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("version = 1\n[privacy]\nplace_names = false\n")
        let body = String(decoding: Fixtures.data("weather/openweathermap/weather-tampa-metric.json"), as: UTF8.self)
        let hostileBody = body.replacing(#""name":"Tampa""#, with: #""name":"Tam\u202Epa\u2028\u2066Bay\u200B\u2069\u202A""#)
        #expect(hostileBody != body, "the fixture was changed")
        let replay = runner.home.appendingPathComponent("weather.json")
        try Data(hostileBody.utf8).write(to: replay)
        let result = try await runner.run(["--lat", "27.97", "--lon", "-82.44", "--provider", "openweathermap",
                                           "--weather-replay", replay.path] + output,
                                          environment: ["OPENWEATHERMAP_API_KEY": "k"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.isInert(result.stdout), "\(result.stdout.unicodeScalars.map { String($0.value, radix: 16) })")
        // The JSON's strings as a tooltip or a script shows them, escapes decoded.
        let shown = result.json.map(Self.strings) ?? [result.stdout]
        #expect(shown.contains { $0.contains("Tampa Bay") }, "\(result.stdout)")
        #expect(shown.allSatisfy(Self.isInert), "\(shown)")
    }

    /// Every string in a decoded JSON value.
    static func strings(_ value: Any) -> [String] {
        switch value {
        case let text as String: return [text]
        case let object as [String: Any]: return object.values.flatMap(strings)
        case let array as [Any]: return array.flatMap(strings)
        default: return []
        }
    }
}
