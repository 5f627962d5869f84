import Testing
@testable import HereWeatherCore

/// "Did you mean": the one rule behind value, subcommand, config-key and place suggestions.
struct SuggestionTests {
    @Test(arguments: [
        ("metrc", ["metric", "imperial", "standard"], "metric"),
        ("Imperial", ["metric", "imperial", "standard"], "imperial"),
        ("wehre", ["report", "where", "doctor", "config", "permissions"], "where"),
        ("docter", ["report", "where", "doctor", "config", "permissions"], "doctor"),
        ("int", ["init", "show", "path"], "init"),
        ("soruces", ["sources", "accuracy", "timeout", "max_age"], "sources"),
        ("openweather", ["open-meteo", "openweathermap", "metno", "pirateweather"], "openweathermap"),
        ("met", ["metric", "imperial", "standard"], "metric"),
    ])
    func suggestsTheNearest(typed: String, candidates: [String], expected: String) {
        #expect(Suggestion.nearest(to: typed, among: candidates) == expected)
    }

    @Test(arguments: ["xyz", "", "completelydifferent"])
    func suggestsNothingFarAway(typed: String) {
        #expect(Suggestion.nearest(to: typed, among: ["metric", "imperial", "standard"]) == nil)
    }

    @Test func phraseQuotesTheCandidate() {
        #expect(Suggestion.phrase(for: "metrc", among: ["metric"]) == "did you mean 'metric'?")
    }
}
