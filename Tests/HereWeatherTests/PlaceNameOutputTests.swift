import Foundation
import Testing
@testable import HereWeatherCore

/// Offline place names in the outputs: the text report, `where`, JSON, `%l`, waybar, and
/// `[privacy] place_names`.
@Suite struct PlaceNameOutputTests {
    let tampa = ["--lat", "27.97", "--lon", "-82.44"]
    var openMeteoTampa: [String] { ["--weather-replay", Fixtures.url("weather/open-meteo/tampa-metric.json").path] }

    @Test func whereNamesTheNearestPlaceInTextAndJSON() async throws {
        let runner = try InProcessCommand()
        let text = try await runner.run(["where"] + tampa)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Place:     near Tampa, Florida, US (3 km NE)\n"))

        let json = try await runner.run(["where", "--json"] + tampa)
        let location = try #require(json.json?["location"] as? [String: Any])
        #expect(location["name"] is NSNull, "the location itself has no name")
        let place = try #require(location["nearest_place"] as? [String: Any])
        #expect(place["name"] as? String == "Tampa")
        #expect(place["region"] as? String == "Florida")
        #expect(place["country"] as? String == "US")
        #expect(place["latitude"] as? Double == 27.9475)
        #expect(place["longitude"] as? Double == -82.4584)
        #expect(place["distance_m"] as? Double == 3086)
        #expect(place["bearing_deg"] as? Double == 36)
        #expect(place["bearing"] as? String == "NE")
        #expect(place["text"] as? String == "near Tampa, Florida, US (3 km NE)")
    }

    @Test func placeNamesCanBeTurnedOff() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("[privacy]\nplace_names = false\n")
        let text = try await runner.run(["where"] + tampa)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(!text.stdout.contains("Place:"))
        let json = try await runner.run(["where", "--json"] + tampa)
        let location = try #require(json.json?["location"] as? [String: Any])
        #expect(location["nearest_place"] is NSNull)
        let line = try await runner.run(["--format", "%l"] + tampa + openMeteoTampa)
        #expect(line.stdout == "27.9700°N, 82.4400°W\n")
    }

    @Test func theReportNamesThePlaceWhenTheServiceGivesNone() async throws {
        let runner = try InProcessCommand()
        let text = try await runner.run(tampa + openMeteoTampa)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("near Tampa, Florida, US (3 km NE) (--lat/--lon)\n"))
        let line = try await runner.run(["--format", "%l: %t"] + tampa + openMeteoTampa)
        #expect(line.stdout == "near Tampa, Florida, US (3 km NE): 26.8°C\n")
        let waybar = try await runner.run(["--waybar"] + tampa + openMeteoTampa)
        let tooltip = try #require(waybar.json?["tooltip"] as? String)
        #expect(tooltip.hasPrefix("near Tampa, Florida, US (3 km NE)\n"))
        let json = try await runner.run(["--json"] + tampa + openMeteoTampa)
        let location = try #require(json.json?["location"] as? [String: Any])
        #expect((location["nearest_place"] as? [String: Any])?["name"] as? String == "Tampa")
    }

    /// One name for a point whatever the provider: OpenWeatherMap names its place "Tampa, US",
    /// but the nearest town's form comes first, as with every other provider (issue 35 D24); the
    /// service's name stands in only where no town is near (JSON keeps it as weather.place).
    @Test func aNameFromTheLocationWinsThenTheNearestTown() async throws {
        let runner = try InProcessCommand()
        let openWeatherMap = try await runner.run(
            ["--format", "%l", "--provider", "openweathermap", "--weather-replay",
             Fixtures.url("weather/openweathermap/weather-tampa-metric.json").path] + tampa,
            environment: ["OPENWEATHERMAP_API_KEY": "k"])
        #expect(openWeatherMap.stdout == "near Tampa, Florida, US (3 km NE)\n", "\(openWeatherMap.stderr)")
        let openMeteo = try await runner.run(["--format", "%l"] + tampa + openMeteoTampa)
        #expect(openMeteo.stdout == openWeatherMap.stdout)
        // A named fixed location is shown as named.
        try runner.writeConfig("[location.fixed]\nlatitude = 27.97\nlongitude = -82.44\nname = \"Home\"\n")
        let fixed = try await runner.run(["--format", "%l"] + openMeteoTampa, assembly: .withoutDaemons)
        #expect(fixed.stdout == "Home\n", "\(fixed.stderr)")
    }

    @Test func theOpenSeaShowsTheCoordinates() async throws {
        let runner = try InProcessCommand()
        let line = try await runner.run(["--format", "%l", "--lat", "30", "--lon", "-40"] + openMeteoTampa)
        #expect(line.stdout == "30.0000°N, 40.0000°W\n", "\(line.stderr)")
        let json = try await runner.run(["where", "--json", "--lat", "30", "--lon", "-40"])
        #expect((json.json?["location"] as? [String: Any])?["nearest_place"] is NSNull)
    }

    @Test func theConfigKeyIsReadShownAndTemplated() throws {
        #expect(Configuration().privacy.placeNames)
        let (off, warnings) = try ConfigurationLoader.parse("[privacy]\nplace_names = false\n", path: "c.toml")
        #expect(!off.privacy.placeNames)
        #expect(warnings.isEmpty)
        #expect(ConfigurationText.effective(off, environment: [:]).contains("[privacy]\ncoordinate_decimals = 2\nplace_names = false\n"))
        #expect(throws: ConfigError.self) { try ConfigurationLoader.parse("[privacy]\nplace_names = \"no\"\n", path: "c.toml") }
        let (template, templateWarnings) = try ConfigurationLoader.parse(ConfigurationText.template, path: "t.toml")
        #expect(ConfigurationText.template.contains("place_names = true"))
        #expect(template.privacy.placeNames && templateWarnings.isEmpty)
    }
}
