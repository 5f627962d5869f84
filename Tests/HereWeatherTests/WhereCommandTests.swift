import Foundation
import Testing
@testable import HereWeatherCore

/// `here-weather where` and the location options, run as a user runs them.
@Suite struct WhereCommandTests {
    func log(_ name: String) -> String { Fixtures.url("nmea/\(name)").path }

    /// `where` and a report without a place name show a coordinate with the same decimals
    /// (issue 35 D24: `where` had 6, the report 4).
    @Test func coordinatesHaveTheReportsDecimals() {
        let fix = Location(coordinate: Coordinate(latitude: -37.813611, longitude: 144.963056), horizontalAccuracy: 5,
                           timestamp: Date(timeIntervalSince1970: 1_764_000_000), source: .fixed)
        for locale in [UserLocale.english, UserLocale(language: "de")] {
            let text = LocationReport.text(fix, now: fix.timestamp, locale: locale)
            let pair = locale.coordinate(fix.coordinate)
            for value in [locale.number(37.813611, 4), locale.number(144.963056, 4)] {
                #expect(text.contains(value) && pair.contains(value), "\(text) / \(pair)")
            }
            #expect(!text.contains(locale.number(37.813611, 6)), "\(text)")
        }
    }

    @Test func textLooksLikeWhereAmI() async throws {
        let result = try await InProcessCommand().run(["where", "--replay", log("hdop-only.nmea")])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        // gpsd's first fix: the log's first epoch (the daemon reports it: Fixtures/gpsd-json).
        // The same decimals as a report's place ("39.7392°N, 104.9902°W"; issue 35 D24).
        #expect(lines.contains("Latitude:  39.7392°"), "\(lines)")
        #expect(lines.contains("Longitude: -104.9902°"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("Accuracy:") && $0.contains("(estimated from HDOP)") })
        #expect(lines.contains { $0.hasPrefix("Altitude:  1609.") })
        #expect(lines.contains("Source:    NMEA replay, 3D fix"))
        // A replay runs on the log's clock: when in the log, and the age on that clock.
        #expect(lines.contains { $0.hasPrefix("Time:      2026-11-22T18:40:00Z (log time, ") && $0.hasSuffix(" into the log)") }, "\(lines)")
        // Piped, 80 columns: the longer value wraps under itself (issue 35 D26).
        #expect(result.stdout.contains("Age:       0 s before the log's latest sentence (the replay runs on the\n           log's clock)"),
                "\(result.stdout)")
    }

    /// The command-line location has one name in text: the options' own, as the report's
    /// headline and waybar's tooltip write it (where said "command line"; issue 35 D24).
    @Test func theCommandLineLocationIsNamedAsTheReportNamesIt() async throws {
        let runner = try InProcessCommand()
        let whereText = try await runner.run(["where", "--lat", "27.95", "--lon", "-82.46"])
        #expect(whereText.stdout.contains("\nSource:    --lat/--lon\n"), "\(whereText.stdout)")
        let report = try await runner.run(["--lat", "27.95", "--lon", "-82.46", "--weather-replay",
                                           Fixtures.url("weather/open-meteo/tampa-metric.json").path])
        #expect(report.stdout.hasPrefix("near Tampa, Florida, US (--lat/--lon)\n"), "\(report.stdout)")
        let german = try await runner.run(["where", "--lang", "de", "--lat", "27.95", "--lon", "-82.46"])
        #expect(german.stdout.contains("--lat/--lon\n") && !german.stdout.contains("Befehlszeile"), "\(german.stdout)")
    }

    @Test func jsonHasTheMainKeysPlusModeAndSimulated() async throws {
        let result = try await InProcessCommand().run(["where", "--json", "--replay", log("simulated.nmea")])
        #expect(result.status == 0, "\(result.stderr)")
        let location = try #require(result.json?["location"] as? [String: Any])
        for key in ["latitude", "longitude", "accuracy_m", "source", "timestamp", "name", "altitude_m",
                    "meets_accuracy", "mode", "simulated"] {
            #expect(location[key] != nil, "missing \(key)")
        }
        #expect(location["source"] as? String == "nmea")
        #expect(location["mode"] as? Int == 3)
        #expect(location["simulated"] as? Bool == true)
        #expect(location["timestamp"] as? String == "2026-11-22T17:00:00+00:00", "gpsd's first fix, the first epoch")
    }

    @Test func accuracyBestReadsTheWholeLog() async throws {
        let result = try await InProcessCommand().run(["where", "--json", "--replay", log("cold-start.nmea"),
                                              "--accuracy", "best", "--timeout", "3600"])
        #expect(result.status == 0, "\(result.stderr)")
        let location = try #require(result.json?["location"] as? [String: Any])
        #expect(location["timestamp"] as? String == "2026-11-22T14:06:02+00:00")
        #expect(location["accuracy_estimated"] as? Bool == false)
    }

    /// 1 m is no `--accuracy` level (those are best, 10m, 100m, 1km, 3km and any); the config
    /// file's `accuracy` takes any distance.
    @Test func anUnmetAccuracyIsMarked() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("[location]\naccuracy = \"1m\"\n")
        let result = try await runner.run(["where", "--json", "--replay", log("drive.nmea")])
        #expect(result.status == 0, "\(result.stderr)")
        let location = try #require(result.json?["location"] as? [String: Any])
        #expect(location["meets_accuracy"] as? Bool == false)
        let text = try await runner.run(["where", "--replay", log("drive.nmea")])
        #expect(text.stdout.contains("does not meet the desired accuracy"))
    }

    @Test func noFixIsExit75SayingWhatWasSeen() async throws {
        let result = try await InProcessCommand().run(["where", "--replay", log("no-fix.nmea"), "--timeout", "5"])
        #expect(result.status == 75)
        #expect(result.stderr.contains("No NMEA fix within 5 s"))
        #expect(result.stderr.contains("9 satellites seen, 0 used"))
    }

    @Test func configuredNMEASourceAndRequestKeys() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("""
            version = 1
            [location]
            sources = ["nmea"]
            accuracy = "10m"
            timeout = 120
            max_age = "off"
            [location.nmea]
            path = "\(log("cold-start.nmea"))"
            """)
        let result = try await runner.run(["where", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let location = try #require(result.json?["location"] as? [String: Any])
        #expect((location["accuracy_m"] as? Double ?? 99) <= 10)
        // The command line wins over the config.
        let any = try await runner.run(["where", "--json", "--accuracy", "any"])
        #expect((any.json?["location"] as? [String: Any])?["timestamp"] as? String == "2026-11-22T14:05:20+00:00")
    }

    @Test func theReportPlaysALogWithARecordedWeather() async throws {
        let result = try await InProcessCommand().run(["--replay", log("southern-eastern.nmea"), "--weather-replay",
                                              Fixtures.url("weather/open-meteo/melbourne-au-metric.json").path])
        #expect(result.status == 0, "\(result.stderr)")
        // Open-Meteo names no place: the nearest one is named offline (GeoNames), within 1 km.
        #expect(result.stdout.hasPrefix("near Sydney, New South Wales, AU (NMEA log ≈±5 m)"))
        #expect(result.stdout.contains("Slight rain showers"))
    }

    @Test(arguments: [
        (["where", "--accuracy", "fine"], "Invalid value 'fine' for --accuracy: use best,"),
        (["where", "--timeout", "0"], "Invalid value '0' for --timeout: use a number of seconds"),
        (["where", "--max-age", "soon"], "Invalid value 'soon' for --max-age: use 'off' or"),
        (["where", "--replay-speed", "2"], "--replay-speed goes with --replay"),
        (["where", "--replay", "x.nmea", "--replay-speed", "fast"], "Invalid value 'fast' for --replay-speed: use 'max' or"),
        (["where", "--replay", "x.nmea", "--lat", "1", "--lon", "2"], "use one"),
    ])
    func usageErrors(arguments: [String], message: String) async throws {
        let result = try await InProcessCommand().run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func missingLogIsExit66() async throws {
        let result = try await InProcessCommand().run(["where", "--replay", "/nonexistent/drive.nmea"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("/nonexistent/drive.nmea"))
    }

    @Test(arguments: [
        ("[location]\naccuracy = \"fine\"", "config.toml:3: [location] accuracy"),
        ("[location]\nmax_age = \"never\"", "config.toml:3: [location] max_age"),
        ("[location]\ntimeout = 0", "config.toml:3: [location] timeout"),
        ("[location.gpsd]\nport = 70000", "config.toml:3: [location.gpsd] port"),
        ("[location.nmea]\nspeed = \"warp\"", "config.toml:3: [location.nmea] speed"),
        ("[location]\nsources = [\"gps\"]", "config.toml:3: [location] sources"),
    ])
    func badLocationConfigIsExit78(body: String, key: String) async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("version = 1\n" + body + "\n")
        let result = try await runner.run(["where"])
        #expect(result.status == 78)
        #expect(result.stderr.contains(key), "\(result.stderr)")
    }
}
