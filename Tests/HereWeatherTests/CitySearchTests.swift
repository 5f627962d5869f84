import Foundation
import Testing
@testable import HereWeatherCore
import HereWeatherHTTP

/// `--city`: both geocoders against a local server serving `Fixtures/geocoding`, the query's
/// qualifiers, and the built binary.
@Suite struct CitySearchTests {
    static let openMeteoPath = "/v1/search"
    static let owmPath = "/geo/1.0/direct"
    static let key = "k3y-s3cr3t-0123456789abcdef"

    func request(_ timeout: Duration = .seconds(10)) -> LocationRequest {
        LocationRequest(desiredAccuracy: .threeKilometres, timeout: timeout, maxAge: .seconds(300), start: .now)
    }

    func openMeteo(_ server: FixtureServer, _ text: String) async throws -> Location {
        let query = try #require(CityQuery(text))
        let provider = CitySearchLocationProvider(
            query: query, geocoder: OpenMeteoGeocoder(baseURL: server.baseURL, http: CurlHTTPClient(clock: ContinuousClock())), clock: ContinuousClock())
        return try await provider.requestLocation(request())
    }

    func openWeatherMap(_ server: FixtureServer, _ text: String, key: String? = key) async throws -> Location {
        let query = try #require(CityQuery(text))
        let geocoder = OpenWeatherMapGeocoder(baseURL: server.baseURL, apiKey: key, http: CurlHTTPClient(clock: ContinuousClock()))
        return try await CitySearchLocationProvider(query: query, geocoder: geocoder, clock: ContinuousClock()).requestLocation(request())
    }

    /// The `UserFacingError` `body` throws, or a test failure.
    func failure(_ body: () async throws -> Location) async -> (any UserFacingError)? {
        do {
            let location = try await body()
            Issue.record("expected an error, got \(location)")
            return nil
        } catch let error as any UserFacingError {
            return error
        } catch {
            Issue.record("not a user-facing error: \(error)")
            return nil
        }
    }

    // MARK: The query

    @Test func queryParsing() throws {
        let plain = try #require(CityQuery("  Melbourne "))
        #expect(plain.name == "Melbourne" && plain.qualifiers.isEmpty && plain.countryCode == nil)
        let coded = try #require(CityQuery("Melbourne, au"))
        #expect(coded.qualifiers == ["au"] && coded.countryCode == "AU")
        #expect(coded.description == "Melbourne, au")
        let region = try #require(CityQuery("Melbourne, Florida, US"))
        #expect(region.qualifiers == ["Florida", "US"] && region.countryCode == "US")
        #expect(CityQuery("London, UK")?.countryCode == "GB")
        #expect(CityQuery("Melbourne, Florida")?.countryCode == nil)
        #expect(CityQuery("") == nil)
        #expect(CityQuery(" , AU") == nil)
    }

    @Test func usStateAbbreviations() throws {
        // A state's abbreviation asks the service for the US, and matches the state.
        let florida = try #require(CityQuery("Melbourne, FL"))
        #expect(florida.countryCode == "US" && florida.stateCode == "FL")
        #expect(CityQuery("Portland, or")?.countryCode == "US")
        // One that is also a country code (California or Canada) filters on neither.
        let ca = try #require(CityQuery("San Diego, CA"))
        #expect(ca.countryCode == nil && ca.stateCode == nil)
        #expect(CityQuery("Berlin, DE")?.countryCode == nil)
        #expect(CityQuery("Melbourne, AU")?.countryCode == "AU")
        #expect(CityQuery("Melbourne, FL, US")?.stateCode == nil)
        let place = GeocodedPlace(name: "Melbourne", coordinate: Coordinate(latitude: 28.08, longitude: -80.61),
                                  countryCode: "US", country: "United States", region: "Florida")
        #expect(florida.matches(place))
        #expect(try #require(CityQuery("Melbourne, fl, us")).matches(place))
        #expect(ca.matches(GeocodedPlace(name: "San Diego", coordinate: Coordinate(latitude: 32.7, longitude: -117.2),
                                         countryCode: "US", region: "California")))
        #expect(!florida.matches(GeocodedPlace(name: "Melbourne", coordinate: Coordinate(latitude: 0, longitude: 0),
                                               countryCode: "AU", region: "Victoria")))
    }

    // MARK: Open-Meteo

    @Test func openMeteoTakesTheFirstResultAndSendsTheDocumentedQuery() async throws {
        let server = try FixtureServer(routes: [Self.openMeteoPath: .fixture("geocoding/open-meteo/melbourne.json")])
        let location = try await openMeteo(server, "Melbourne")
        #expect(location.coordinate == Coordinate(latitude: -37.814, longitude: 144.96332))
        #expect(location.name == "Melbourne, Victoria, AU")
        #expect(location.origin == .city)
        #expect(location.service == "Open-Meteo geocoding")
        #expect(location.horizontalAccuracy == nil && location.meetsDesiredAccuracy)
        #expect(server.requests == ["/v1/search?name=Melbourne&count=10&language=en&format=json"])
    }

    @Test func openMeteoCountryCodeAndRegionQualifiersPick() async throws {
        let server = try FixtureServer(routes: [Self.openMeteoPath: .fixture("geocoding/open-meteo/melbourne.json")])
        let us = try await openMeteo(server, "Melbourne, US")
        #expect(us.name == "Melbourne, Florida, US")
        #expect(us.coordinate == Coordinate(latitude: 28.08363, longitude: -80.60811))
        // The code also goes to the service, which filters before its limit.
        #expect(server.requests.last?.hasSuffix("&countryCode=US") == true)

        let au = try await openMeteo(server, "melbourne, au")
        #expect(au.name == "Melbourne, Victoria, AU")
        let iowa = try await openMeteo(server, "Melbourne, Iowa")
        #expect(iowa.name == "Melbourne, Iowa, US")
        let byCountryName = try await openMeteo(server, "Melbourne, united kingdom")
        #expect(byCountryName.name == "Melbourne, England, GB")
        let uk = try await openMeteo(server, "Melbourne, UK")
        #expect(uk.name == "Melbourne, England, GB")
        let both = try await openMeteo(server, "Melbourne, Arkansas, US")
        #expect(both.coordinate == Coordinate(latitude: 36.05951, longitude: -91.90848))
    }

    @Test func openMeteoStateAbbreviationPicksTheStateAndAsksForTheUS() async throws {
        let server = try FixtureServer(routes: [Self.openMeteoPath: .fixture("geocoding/open-meteo/melbourne.json")])
        let florida = try await openMeteo(server, "Melbourne, FL")
        #expect(florida.name == "Melbourne, Florida, US")
        #expect(server.requests.last?.hasSuffix("&countryCode=US") == true)
        let iowa = try await openMeteo(server, "Melbourne, ia")
        #expect(iowa.name == "Melbourne, Iowa, US")
        // CA: California or Canada. Nothing is filtered; the first place either names wins.
        let ca = try await openMeteo(server, "Melbourne, CA")
        #expect(ca.name == "Melbourne, Quebec, CA")
        #expect(server.requests.last?.contains("countryCode") == false)
    }

    @Test func aNearMissOfTheQualifierSuggestsThePlace() async throws {
        let server = try FixtureServer(routes: [Self.openMeteoPath: .fixture("geocoding/open-meteo/melbourne.json")])
        let typo = try #require(await failure { try await openMeteo(server, "Melbourne, Florda") })
        #expect(typo.exitStatus == .noLocation)
        #expect(typo.message == "No place named \"Melbourne\" in Florda; did you mean \"Melbourne, Florida, US\"?")
        let code = try #require(await failure { try await openMeteo(server, "Melbourne, FK") })
        #expect(code.message == "No place named \"Melbourne\" in FK; did you mean \"Melbourne, Florida, US\"?")
        let two = try #require(await failure { try await openMeteo(server, "Melbourne, Arkansass, US") })
        #expect(two.message == "No place named \"Melbourne\" in Arkansass, US; did you mean \"Melbourne, Arkansas, US\"?")
    }

    @Test func openMeteoNoResultsIsExit75WithAdvice() async throws {
        let server = try FixtureServer(routes: [Self.openMeteoPath: .fixture("geocoding/open-meteo/no-results.json")])
        let error = try #require(await failure { try await openMeteo(server, "Xyzzyville") })
        #expect(error.exitStatus == .noLocation)
        #expect(error.message == "No place named \"Xyzzyville\" found; check the spelling or add a country code, e.g. \"Melbourne, AU\".")
    }

    @Test func aQualifierThatMatchesNothingListsWhatWasFound() async throws {
        let server = try FixtureServer(routes: [Self.openMeteoPath: .fixture("geocoding/open-meteo/melbourne.json")])
        let error = try #require(await failure { try await openMeteo(server, "Melbourne, Texas") })
        #expect(error.exitStatus == .noLocation)
        #expect(error.message.hasPrefix("No place named \"Melbourne\" in Texas (found only: Melbourne, Victoria, AU; Melbourne, Florida, US;"))
    }

    @Test func openMeteoHTTP500IsExit69() async throws {
        let server = try FixtureServer(routes: [Self.openMeteoPath: .json(500, #"{"error":true,"reason":"Internal error"}"#)])
        let error = try #require(await failure { try await openMeteo(server, "Melbourne") })
        #expect(error.exitStatus == .serviceUnavailable)
        #expect(error.message.hasPrefix("Open-Meteo geocoding answered HTTP 500: Internal error. The service is having trouble"))
    }

    @Test func openMeteoErrorBodiesAndNonJSONAreExit69() async throws {
        let server = try FixtureServer(routes: [
            Self.openMeteoPath: .fixture("geocoding/open-meteo/error-400.json", status: 400),
        ])
        let error = try #require(await failure { try await openMeteo(server, "Melbourne") })
        #expect(error.exitStatus == .serviceUnavailable)
        #expect(error.message.contains("answered HTTP 400: Parameter count must be between 1 and 100."))

        let portal = try FixtureServer(routes: [Self.openMeteoPath: .fixture("weather/misc/captive-portal.html")])
        let html = try #require(await failure { try await openMeteo(portal, "Melbourne") })
        #expect(html.exitStatus == .serviceUnavailable)
        #expect(html.message.contains("not a list of places: it is a web page (HTML)"))
    }

    @Test func refusedConnectionIsExit69NamingTheHost() async throws {
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let geocoder = OpenMeteoGeocoder(baseURL: closed.baseURL, http: CurlHTTPClient(clock: ContinuousClock()))
        let provider = CitySearchLocationProvider(query: try #require(CityQuery("Melbourne")), geocoder: geocoder, clock: ContinuousClock())
        let error = try #require(await failure { try await provider.requestLocation(request()) })
        #expect(error.exitStatus == .serviceUnavailable)
        #expect(error.message.hasPrefix("Cannot reach Open-Meteo geocoding: connection refused by 127.0.0.1"))
    }

    // MARK: OpenWeatherMap

    @Test func openWeatherMapFirstResultAndQuery() async throws {
        let server = try FixtureServer(routes: [Self.owmPath: .fixture("geocoding/openweathermap/melbourne.json")])
        let location = try await openWeatherMap(server, "Melbourne")
        #expect(location.name == "Melbourne, Victoria, AU")
        #expect(location.coordinate == Coordinate(latitude: -37.8142454, longitude: 144.9631732))
        #expect(location.service == "OpenWeatherMap geocoding")
        #expect(server.requests == ["/geo/1.0/direct?q=Melbourne&limit=5&appid=\(Self.key)"])
    }

    @Test func openWeatherMapCountryCodeGoesIntoQAndFilters() async throws {
        let server = try FixtureServer { target in
            target.contains("q=Melbourne,US&") ? .fixture("geocoding/openweathermap/melbourne-us.json")
                : .fixture("geocoding/openweathermap/melbourne.json")
        }
        let us = try await openWeatherMap(server, "Melbourne, US")
        #expect(us.name == "Melbourne, Florida, US")
        #expect(server.requests.last?.hasPrefix("/geo/1.0/direct?q=Melbourne,US&limit=5&appid=") == true)
        let iowa = try await openWeatherMap(server, "Melbourne, Iowa")
        #expect(iowa.name == "Melbourne, Iowa, US")
        let gb = try await openWeatherMap(server, "Melbourne, GB")
        #expect(gb.name == "Melbourne, England, GB")
    }

    @Test func openWeatherMapStateAbbreviationGoesAsTheDocumentedStateCode() async throws {
        let server = try FixtureServer { target in
            target.contains("q=Melbourne,FL,US&") ? .fixture("geocoding/openweathermap/melbourne-us.json")
                : .fixture("geocoding/openweathermap/melbourne.json")
        }
        let florida = try await openWeatherMap(server, "Melbourne, FL")
        #expect(florida.name == "Melbourne, Florida, US")
        #expect(server.requests.last?.hasPrefix("/geo/1.0/direct?q=Melbourne,FL,US&limit=5&appid=") == true)
    }

    @Test func openWeatherMapEmptyListIsExit75() async throws {
        let server = try FixtureServer(routes: [Self.owmPath: .fixture("geocoding/openweathermap/no-results.json")])
        let error = try #require(await failure { try await openWeatherMap(server, "Xyzzyville, AU") })
        #expect(error.exitStatus == .noLocation)
        #expect(error.message.contains("No place named \"Xyzzyville\" found in AU; check the spelling"))
    }

    @Test func openWeatherMapKeyNeverAppearsInErrors() async throws {
        let echo = #"{"cod":500,"message":"upstream failed for appid=\#(Self.key)"}"#
        let cases: [(FixtureServer.Response, HereWeatherCore.ExitStatus, String)] = [
            (.fixture("geocoding/openweathermap/error-401.json", status: 401), .configuration,
             "OpenWeatherMap geocoding rejected the API key (HTTP 401)"),
            (.json(500, echo), .serviceUnavailable, "OpenWeatherMap geocoding answered HTTP 500: upstream failed for appid=[redacted]"),
            (.json(429, #"{"cod":429,"message":"limit"}"#), .serviceUnavailable, "is rate-limiting requests"),
        ]
        for (response, status, text) in cases {
            let server = try FixtureServer(routes: [Self.owmPath: response])
            let error = try #require(await failure { try await openWeatherMap(server, "Melbourne") })
            #expect(error.exitStatus == status)
            #expect(error.message.contains(text), "\(error.message)")
            #expect(!error.message.contains(Self.key))
            #expect(server.requests.count == 1 && server.requests[0].contains(Self.key))
        }
        let server = try FixtureServer(routes: [Self.owmPath: .fixture("geocoding/openweathermap/melbourne.json")])
        let missing = try #require(await failure { try await openWeatherMap(server, "Melbourne", key: nil) })
        #expect(missing.exitStatus == .configuration)
        #expect(missing.message.contains("OPENWEATHERMAP_API_KEY"))
        #expect(server.requests.isEmpty)
    }

    // MARK: The command

    func runner(_ server: FixtureServer, provider: String = "open-meteo") throws -> InProcessCommand {
        let runner = try InProcessCommand()
        try runner.writeConfig("""
        [location]
        sources = ["gpsd", "ip"]
        [weather]
        provider = "\(provider)"
        [weather.open-meteo]
        geocoding_url = "\(server.baseURL)"
        [weather.openweathermap]
        base_url = "\(server.baseURL)"
        """)
        return runner
    }

    @Test func whereCityPrintsThePlaceAsJSONWithoutAskingPermission() async throws {
        let server = try FixtureServer(routes: [Self.openMeteoPath: .fixture("geocoding/open-meteo/melbourne.json")])
        // gpsd and ip would ask (and, without a terminal, refuse): --city needs no permission.
        let result = try await runner(server).run(["where", "--city", "Melbourne, AU", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let location = try #require(result.json?["location"] as? [String: Any])
        #expect(location["latitude"] as? Double == -37.814)
        #expect(location["longitude"] as? Double == 144.96332)
        #expect(location["name"] as? String == "Melbourne, Victoria, AU")
        #expect(location["source"] as? String == "city")
        #expect(location["service"] as? String == "Open-Meteo geocoding")
        #expect(server.requests == ["/v1/search?name=Melbourne&count=10&language=en&format=json&countryCode=AU"])
    }

    @Test func reportWithCityFetchesTheWeatherThere() async throws {
        let server = try FixtureServer(routes: [Self.openMeteoPath: .fixture("geocoding/open-meteo/melbourne.json")])
        let replay = Fixtures.url("weather/open-meteo/tampa-metric.json").path
        let result = try await runner(server).run(["--city", "Melbourne, Florida", "--json", "--weather-replay", replay])
        #expect(result.status == 0, "\(result.stderr)")
        let location = try #require(result.json?["location"] as? [String: Any])
        #expect(location["name"] as? String == "Melbourne, Florida, US")
        #expect(location["source"] as? String == "city")
        #expect(result.json?["weather"] != nil)
    }

    /// The place found is the report's headline: its origin says how it was had, not the name
    /// again ("Melbourne, Florida, US (city search: Melbourne, Florida, US)"; issue 35 D25).
    @Test func reportWithCityNamesThePlaceOnce() async throws {
        let server = try FixtureServer(routes: [Self.openMeteoPath: .fixture("geocoding/open-meteo/melbourne.json")])
        let replay = Fixtures.url("weather/open-meteo/tampa-metric.json").path
        let result = try await runner(server).run(["--city", "Melbourne, Florida", "--weather-replay", replay])
        #expect(result.status == 0, "\(result.stderr)")
        let headline = try #require(result.stdout.split(separator: "\n").first.map(String.init))
        #expect(headline == "Melbourne, Florida, US (city search)", "\(result.stdout)")
        let waybar = try await runner(server).run(["--city", "Melbourne, Florida", "--waybar", "--weather-replay", replay])
        let tooltip = try #require((try JSONSerialization.jsonObject(with: Data(waybar.stdout.utf8)) as? [String: Any])?["tooltip"] as? String)
        #expect(tooltip.hasPrefix("Melbourne, Florida, US\n") && tooltip.contains("\nLocation: city search\n"), "\(tooltip)")
    }

    @Test func whereCityTextShowsTheSource() async throws {
        let server = try FixtureServer(routes: [Self.openMeteoPath: .fixture("geocoding/open-meteo/melbourne.json")])
        let result = try await runner(server).run(["where", "--city", "Melbourne, US"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Melbourne, Florida, US"))
        #expect(result.stdout.contains("city search via Open-Meteo geocoding"))
    }

    @Test func commandNoMatchIs75AndServiceFailureIs69() async throws {
        let empty = try FixtureServer(routes: [Self.openMeteoPath: .fixture("geocoding/open-meteo/no-results.json")])
        let none = try await runner(empty).run(["where", "--city", "Xyzzyville", "--json"])
        #expect(none.status == 75)
        #expect(none.stderr.contains("No place named \"Xyzzyville\" found; check the spelling or add a country code"))
        let error = (none.json?["error"] as? [String: Any])
        #expect(error?["code"] as? String == "no_location")

        let broken = try FixtureServer(routes: [Self.openMeteoPath: .json(500, "{}")])
        let failed = try await runner(broken).run(["where", "--city", "Melbourne"])
        #expect(failed.status == 69)
        #expect(failed.stderr.contains("Open-Meteo geocoding answered HTTP 500"))
    }

    @Test func commandFindsAUSStateByItsAbbreviation() async throws {
        // Issue 15: "Melbourne, FL" listed "Melbourne, Florida, US" among the places found,
        // then answered "no place named".
        let server = try FixtureServer(routes: [Self.openMeteoPath: .fixture("geocoding/open-meteo/melbourne.json")])
        let result = try await runner(server).run(["where", "--city", "Melbourne, FL", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let location = try #require(result.json?["location"] as? [String: Any])
        #expect(location["name"] as? String == "Melbourne, Florida, US")
        #expect(server.requests == ["/v1/search?name=Melbourne&count=10&language=en&format=json&countryCode=US"])
    }

    @Test func commandSuggestsThePlaceAQualifierNearlyNames() async throws {
        let server = try FixtureServer(routes: [Self.openMeteoPath: .fixture("geocoding/open-meteo/melbourne.json")])
        let result = try await runner(server).run(["where", "--city", "Melbourne, Florda"])
        #expect(result.status == 75)
        #expect(result.stderr == "here-weather: No place named \"Melbourne\" in Florda; did you mean \"Melbourne, Florida, US\"?\n")
        let texas = try await runner(server).run(["where", "--city", "Melbourne, TX"])
        #expect(texas.status == 75)
        #expect(texas.stderr.hasPrefix("here-weather: No place named \"Melbourne\" in TX (found only: Melbourne, Victoria, AU;"))
        #expect(texas.stderr.split(separator: "\n").count == 1)
    }

    @Test func commandUsesTheOpenWeatherMapGeocoderAndHidesTheKey() async throws {
        let server = try FixtureServer(routes: [Self.owmPath: .fixture("geocoding/openweathermap/error-401.json", status: 401)])
        let result = try await runner(server, provider: "openweathermap")
            .run(["where", "--city", "Melbourne", "--verbose"], environment: ["OPENWEATHERMAP_API_KEY": Self.key])
        #expect(result.status == 78)
        #expect(result.stderr.contains("OpenWeatherMap geocoding rejected the API key (HTTP 401)"))
        #expect(!result.stderr.contains(Self.key) && !result.stdout.contains(Self.key))
        #expect(server.requests.first?.hasPrefix("/geo/1.0/direct?q=Melbourne&limit=5&appid=") == true)
    }

    @Test func cityConflictsWithOtherLocationInputIsUsage64() async throws {
        let runner = try InProcessCommand()
        let withLat = try await runner.run(["--city", "Melbourne", "--lat", "1", "--lon", "2"])
        #expect(withLat.status == 64)
        #expect(withLat.stderr.contains("--city and --lat/--lon both give the location: use one."))
        let withReplay = try await runner.run(["where", "--city", "Melbourne", "--replay", "x.nmea"])
        #expect(withReplay.status == 64)
        #expect(withReplay.stderr.contains("--city and --replay both give the location"))
        let withSource = try await runner.run(["where", "--city", "Melbourne", "--source", "gpsd"])
        #expect(withSource.status == 64)
        let empty = try await runner.run(["where", "--city", " "])
        #expect(empty.status == 64)
        #expect(empty.stderr.contains("--city needs a place name"))
    }

    @Test func geocodingURLIsConfigurableAndShown() throws {
        let (config, _) = try ConfigurationLoader.parse("""
        [weather.open-meteo]
        geocoding_url = "http://127.0.0.1:9/geo"
        """, path: "test.toml")
        #expect(config.weather.openMeteo.geocodingURL == "http://127.0.0.1:9/geo")
        #expect(Configuration().weather.openMeteo.geocodingURL == "https://geocoding-api.open-meteo.com")
        #expect(ConfigurationText.effective(config, environment: [:]).contains("geocoding_url = \"http://127.0.0.1:9/geo\""))
        let (template, warnings) = try ConfigurationLoader.parse(ConfigurationText.template, path: "template.toml")
        #expect(warnings.isEmpty)
        #expect(template.weather.openMeteo.geocodingURL == OpenMeteoGeocoder.defaultBaseURL)
    }
}
