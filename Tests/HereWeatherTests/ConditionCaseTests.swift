import Testing
@testable import HereWeatherCore

/// Condition words in sentence case whatever the provider (issue 35 D24).
@Suite struct ConditionCaseTests {
    @Test func titleCaseBecomesSentenceCase() {
        #expect(UserLocale.sentenceCase("Showers And Thunderstorms Likely") == "Showers and thunderstorms likely")
        #expect(UserLocale.sentenceCase("Partly Sunny") == "Partly sunny")
        #expect(UserLocale.sentenceCase("Mainly clear") == "Mainly clear")
        #expect(UserLocale.sentenceCase("Rain. Windy Later") == "Rain. Windy later", "a new sentence keeps its capital")
        #expect(UserLocale.sentenceCase("Chance NWS Test") == "Chance NWS test", "capitals stay")
        #expect(UserLocale.english.conditionWords(.partlyCloudy, "Partly Cloudy") == "Partly cloudy")
    }
}
