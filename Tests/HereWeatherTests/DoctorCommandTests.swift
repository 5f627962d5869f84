import Foundation
import Testing
import HereWeatherCore
import HereWeatherGPSD

/// `here-weather doctor` with the built binary.
@Suite struct DoctorCommandTests {
    @Test func reportsEachSourceAndTheServiceWithoutProbingUnpermittedOnes() async throws {
        let server = try FixtureServer(routes: [
            "/v1/forecast": .fixture("weather/open-meteo/tampa-metric.json"),
            "/ipinfo/json": .fixture("ip/ipinfo/success.json"),
        ])
        let runner = try InProcessCommand()
        try runner.writeConfig("""
            version = 1
            [location]
            sources = ["gpsd", "ip", "fixed"]
            [location.gpsd]
            permission = "allow"
            host = "127.0.0.1"
            port = 1
            [location.ip]
            services = ["ipinfo"]
            [location.ip.ipinfo]
            base_url = "\(server.baseURL)/ipinfo"
            [location.fixed]
            latitude = 27.9506
            longitude = -82.4572
            name = "Tampa"
            [weather.open-meteo]
            base_url = "\(server.baseURL)"
            """)
        let result = try await runner.run(["doctor"], assembly: .gpsdOnly)
        #expect(result.status == 1, "gpsd fails")
        let lines = Self.checks(result.stdout)
        #expect(lines.contains { $0.hasPrefix("config") && $0.contains("OK") })
        #expect(lines.contains { $0.hasPrefix("gpsd") && $0.contains("FAIL") && $0.contains("gpsd is not running") })
        // The gpsd line names the libgps in use: its file and version (Debian 12: libgps.so.28, API 11).
        guard case .usable(let libgps) = LibGPS.current else { Issue.record("no libgps on this machine"); return }
        #expect(lines.contains { $0.hasPrefix("gpsd") && $0.hasSuffix("; libgps: " + libgps.description) }, "\(result.stdout)")
        #expect(libgps.description.contains("API \(libgps.version.api)") && libgps.description.contains(libgps.path))
        #expect(lines.contains { $0.hasPrefix("ip") && $0.contains("SKIP") && $0.contains("permissions allow ip") })
        #expect(lines.contains { $0.hasPrefix("fixed") && $0.contains("OK") && $0.contains("fixed: Tampa") })
        #expect(lines.contains { $0.hasPrefix("open-meteo") && $0.contains("OK") && $0.contains("26.8 °C") })
        #expect(server.requests.allSatisfy { !$0.hasPrefix("/ipinfo") }, "the unpermitted IP service saw nothing")
        #expect(server.requests.contains { $0.hasPrefix("/v1/forecast?latitude=27.95&longitude=-82.46") })
    }

    /// Each check on one line: a wrapped detail's continuation lines (indented) joined back.
    static func checks(_ text: String) -> [String] {
        text.split(separator: "\n").reduce(into: [String]()) { checks, line in
            if line.hasPrefix(" "), let last = checks.popLast() {
                checks.append(last + " " + line.drop { $0 == " " })
            } else {
                checks.append(String(line))
            }
        }
    }

    /// A config whose doctor run has a check of each kind: gpsd and the weather service fail
    /// (nothing listens on port 1), IP lookup is skipped (not permitted), the fixed place passes.
    static let passFailAndSkip = """
        version = 1
        [location]
        sources = ["gpsd", "ip", "fixed"]
        [location.gpsd]
        permission = "allow"
        host = "127.0.0.1"
        port = 1
        [location.fixed]
        latitude = 27.9506
        longitude = -82.4572
        [weather.open-meteo]
        base_url = "http://127.0.0.1:1"
        """

    /// Doctor's lines once ran past COLUMNS; now a long detail wraps under itself, and a word
    /// (a path, a command) is never cut. `doctor --json` was refused as an unknown option.
    @Test(arguments: [40, 60, 100])
    func doctorFitsTheWidthAndSpeaksJSON(columns: Int) async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.passFailAndSkip)
        let text = try await runner.run(["doctor"], environment: ["COLUMNS": "\(columns)"], assembly: .gpsdOnly)
        #expect(text.status == 1)
        for line in text.stdout.split(separator: "\n") where TextWidth.columns(String(line)) > columns {
            // Only a word that is longer than a line by itself may pass the edge: the detail
            // part (after the name and status, or the indent) is that one word.
            let detail = line.hasPrefix(" ") ? line.drop { $0 == " " }
                : line.drop { $0 != " " }.drop { $0 == " " }.drop { $0 != " " }.drop { $0 == " " }
            #expect(!detail.contains(" "), "a line past \(columns) columns that could wrap: \(line)")
        }
        #expect(!text.stdout.contains("…"), "nothing is cut:\n\(text.stdout)")
        let gpsd = try #require(Self.checks(text.stdout).first { $0.hasPrefix("gpsd") }, "\(text.stdout)")
        #expect(gpsd.contains("gpsd is not running on 127.0.0.1:1 (connection refused)"), "\(gpsd)")

        let json = try await runner.run(["doctor", "--json"], environment: ["COLUMNS": "\(columns)"], assembly: .gpsdOnly)
        #expect(json.status == 1, "\(json.stderr)")
        #expect(json.stdout.split(separator: "\n").count == 1, "one line")
        let object = try #require(json.json, "\(json.stdout)")
        #expect(object["ok"] as? Bool == false)
        let checks = try #require(object["checks"] as? [[String: Any]])
        #expect(checks.map { $0["name"] as? String } == Self.checks(text.stdout).map { String($0.prefix { $0 != " " }) })
        #expect(checks.first { $0["name"] as? String == "gpsd" }?["status"] as? String == "fail")
        #expect(checks.first { $0["name"] as? String == "ip" }?["status"] as? String == "skip")
        #expect(checks.first { $0["name"] as? String == "fixed" }?["status"] as? String == "ok")
    }

    @Test func aBrokenConfigIsExit78() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("version = 1\n[weather]\nunits = \"kelvinish\"\n")
        let result = try await runner.run(["doctor"])
        #expect(result.status == 78)
        #expect(result.stdout.contains("weather.units"))
    }
}
