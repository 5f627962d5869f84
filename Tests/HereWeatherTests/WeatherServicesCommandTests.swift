import Foundation
import Testing

/// The new services with the built binary: provider choice, MET Norway's contact rule
/// (checked before any request), the Pirate Weather key never printed, and alerts in every
/// output form.
@Suite struct WeatherServicesCommandTests {
    let pirateReplay = Fixtures.url("weather/pirateweather/tampa-si.json").path
    static let canary = "CANARYcli9d8c7b6a5f4e3d2c1b0a9f8e"

    func fixedConfig(_ weather: String) -> String {
        ProviderSetup.fixedLocation + "\n" + weather
    }

    // MARK: MET Norway

    @Test func metnoWithoutAContactFailsBeforeAnyRequest() async throws {
        let server = try FixtureServer(routes: [:])
        let runner = try InProcessCommand()
        try runner.writeConfig("""
        \(ProviderSetup.ipLocation(server.baseURL))
        [weather]
        provider = "metno"
        [weather.metno]
        base_url = "\(server.baseURL)"
        """)
        let result = try await runner.run([])
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stderr.contains("[weather.metno]"))
        #expect(result.stderr.contains("contact"))
        #expect(server.requests.isEmpty, "not even the location lookup: \(server.requests)")
    }

    @Test func metnoRunSendsTheUserAgentAndPrintsTheReport() async throws {
        let server = try FixtureServer.inspecting { request in
            request.target.hasPrefix("/weatherapi/locationforecast/2.0/complete?")
                ? .fixture("weather/metno/oslo-compact.json") : .notFound
        }
        let runner = try InProcessCommand()
        try runner.writeConfig(fixedConfig("""
        [weather]
        provider = "metno"
        [weather.metno]
        contact = "ops@example.org"
        base_url = "\(server.baseURL)"
        """))
        let result = try await runner.run(["--daily"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Light rain showers, 2.9 °C"))
        #expect(result.stdout.contains("MET Norway"))
        #expect(result.stdout.contains("Next 7 days"))
        let request = try #require(server.receivedRequests.first)
        #expect(request.headers["user-agent"]?.hasPrefix("here-weather/") == true)
        #expect(request.headers["user-agent"]?.hasSuffix(" ops@example.org") == true)
        #expect(request.target.hasSuffix("lat=27.95&lon=-82.46"))
    }

    @Test func doctorChecksTheChosenProvider() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig(fixedConfig("""
        [weather]
        provider = "metno"
        [weather.nws]
        base_url = "http://127.0.0.1:9"
        """))
        let result = try await runner.run(["doctor"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("metno"))
        #expect(result.stdout.contains("[weather.metno]"))
    }

    // MARK: Pirate Weather

    @Test func pirateKeyFromTheEnvironmentIsNeverPrinted() async throws {
        let server = try FixtureServer(routes: [:])  // 404 for the forecast: an error line.
        let runner = try InProcessCommand()
        try runner.writeConfig(fixedConfig("""
        [weather]
        provider = "pirateweather"
        [weather.pirateweather]
        base_url = "\(server.baseURL)"
        """))
        let result = try await runner.run(["--verbose", "--no-cache"], environment: ["PIRATEWEATHER_API_KEY": Self.canary])
        #expect(result.status == 69, "\(result.stderr)")
        #expect(server.requests.first?.hasPrefix("/forecast/\(Self.canary)/") == true)
        #expect(result.stderr.contains("/forecast/[redacted]/27.95,-82.46"))
        #expect(!result.stderr.contains(Self.canary))
        #expect(!result.stdout.contains(Self.canary))
        let show = try await runner.run(["config", "show"], environment: ["PIRATEWEATHER_API_KEY": Self.canary])
        #expect(show.stdout.contains("api_key = \"[redacted]\"  # from PIRATEWEATHER_API_KEY"))
        #expect(!show.stdout.contains(Self.canary))
    }

    @Test func pirateWithoutAKeyIsAConfigurationError() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig(fixedConfig("[weather]\nprovider = \"pirateweather\""))
        let result = try await runner.run([])
        #expect(result.status == 78)
        #expect(result.stderr.contains("PIRATEWEATHER_API_KEY"))
    }

    @Test func providerOptionNamesEveryService() async throws {
        let runner = try InProcessCommand()
        let result = try await runner.run(["--provider", "darksky"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("open-meteo, openweathermap, metno, pirateweather or nws"))
    }

    // MARK: Alerts in every output form

    @Test func alertsInText() async throws {
        let runner = try InProcessCommand()
        // Wide enough that each alert is one line (at 80 columns they wrap: TerminalWidthTests).
        let result = try await runner.run(["--lat", "27.95", "--lon", "-82.46", "--provider", "pirateweather",
                                           "--weather-replay", pirateReplay], environment: ["COLUMNS": "200"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").filter { $0.contains("Alert: ") }
        #expect(lines.count == 2)
        // The most severe first: the Rip Current Statement (Moderate), then the Small Craft Advisory (Minor).
        #expect(lines.first?.contains("Rip Current Statement (Moderate)") == true)
        #expect(lines.last?.contains("Small Craft Advisory (Minor), until Mon 23 Nov 04:00, from NWS Tampa Bay Ruskin FL") == true)
        #expect(!result.stdout.contains("issued November 22"), "the headline's \"until\" is not repeated")
    }

    @Test func alertsInJSON() async throws {
        let runner = try InProcessCommand()
        let result = try await runner.run(["--lat", "27.95", "--lon", "-82.46", "--provider", "pirateweather", "--json",
                                           "--weather-replay", pirateReplay])
        #expect(result.status == 0, "\(result.stderr)")
        let weather = try #require(result.json?["weather"] as? [String: Any])
        var alerts = try #require(weather["alerts"] as? [[String: Any]])
        #expect(alerts.count == 2)
        #expect(alerts.map { $0["title"] as? String } == ["Rip Current Statement", "Small Craft Advisory"], "the most severe first")
        alerts.swapAt(0, 1)
        #expect(Set(alerts[0].keys) == ["title", "severity", "start", "end", "source", "description", "uri", "headline", "instruction",
                                        "urgency", "certainty", "area", "level"])
        // The title is the event; the whole headline and the issuer are kept apart.
        #expect(alerts[0]["title"] as? String == "Small Craft Advisory")
        #expect(alerts[0]["source"] as? String == "NWS Tampa Bay Ruskin FL")
        #expect((alerts[0]["headline"] as? String)?.hasPrefix("Small Craft Advisory issued November 22 at 9:49AM EST until") == true)
        #expect(alerts[0]["severity"] as? String == "Minor")
        #expect(alerts[0]["start"] as? String == "2026-11-22T09:49:00-05:00")
        #expect(alerts[0]["end"] as? String == "2026-11-23T04:00:00-05:00")
        let quiet = try await runner.run(["--lat", "27.95", "--lon", "-82.46", "--json", "--weather-replay",
                                          Fixtures.url("weather/open-meteo/tampa-metric.json").path])
        let none = try #require((quiet.json?["weather"] as? [String: Any])?["alerts"] as? [Any])
        #expect(none.isEmpty, "an empty list, not null, when the service gives none")
    }

    @Test func alertsInWaybarAndFormat() async throws {
        let runner = try InProcessCommand()
        let result = try await runner.run(["--lat", "27.95", "--lon", "-82.46", "--provider", "pirateweather", "--waybar",
                                           "--weather-replay", pirateReplay])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(result.json)
        #expect(json["class"] as? [String] == ["clear", "alert"])
        #expect((json["tooltip"] as? String)?.contains("Rip Current Statement") == true)

        let line = try await runner.run(["--lat", "27.95", "--lon", "-82.46", "--provider", "pirateweather",
                                         "--format", "%t [%A]", "--weather-replay", pirateReplay])
        #expect(line.stdout.hasSuffix(" [Rip Current Statement +1]\n"), "the event's name, not the whole headline: \(line.stdout)")
        let quiet = try await runner.run(["--lat", "27.95", "--lon", "-82.46", "--format", "%t [%A]",
                                          "--weather-replay", Fixtures.url("weather/open-meteo/tampa-metric.json").path])
        #expect(quiet.stdout == "26.8°C []\n")
    }
}
