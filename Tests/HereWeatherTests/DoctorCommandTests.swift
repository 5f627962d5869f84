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
            "/alerts/active": .fixture("weather/nws/alerts-tampa.json"),
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
            [weather.nws]
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
        // The NWS's alerts, which reports add at this US point, are asked too (issue 35 D27).
        #expect(lines.contains { $0.hasPrefix("nws-alerts") && $0.contains("OK")
                    && $0.contains("the NWS answered for 27.9506°N, 82.4572°W: 1 alert in force") }, "\(result.stdout)")
        #expect(server.requests.contains { $0.hasPrefix("/alerts/active?point=27.95,-82.46") })
    }

    /// A failed alerts request costs a report only its alerts, silently: doctor says so, with
    /// the keys that fix it; outside the US nothing is asked; the NWS provider's own alerts
    /// cannot be turned off, so that advice is left out (issue 35 D27).
    @Test func theNWSAlertsAreCheckedAtAUSPointOnly() async throws {
        let server = try FixtureServer(routes: [
            "/v1/forecast": .fixture("weather/open-meteo/tampa-metric.json"),
            "/alerts/active": .json(500, #"{"title":"Unexpected Problem"}"#),
        ])
        let runner = try InProcessCommand()
        let fixed = { (latitude: String, longitude: String) in """
            version = 1
            [location]
            sources = ["fixed"]
            [location.fixed]
            latitude = \(latitude)
            longitude = \(longitude)
            [weather.open-meteo]
            base_url = "\(server.baseURL)"
            [weather.nws]
            base_url = "\(server.baseURL)"
            """
        }
        try runner.writeConfig(fixed("27.9506", "-82.4572"))
        let failed = try await runner.run(["doctor"])
        #expect(failed.status == 1, "\(failed.stdout)")
        #expect(Self.checks(failed.stdout).contains { $0.hasPrefix("nws-alerts") && $0.contains("FAIL") && $0.contains(
            "The NWS alerts request failed: it answered HTTP 500. Reports leave the alerts out until it answers; check "
            + "[weather.nws] base_url, or set [alerts] nws = false to stop asking") }, "\(failed.stdout)")

        try runner.writeConfig(fixed("43.6532", "-79.3832"))
        let asked = server.requests.count
        let toronto = try await runner.run(["doctor"])
        #expect(toronto.status == 0, "\(toronto.stdout)")
        #expect(Self.checks(toronto.stdout).contains { $0.hasPrefix("nws-alerts") && $0.contains("SKIP")
                    && $0.contains("not asked: 43.6532°N, 79.3832°W is outside the US") }, "\(toronto.stdout)")
        #expect(!server.requests.dropFirst(asked).contains { $0.hasPrefix("/alerts") }, "\(server.requests)")

        try runner.writeConfig(fixed("27.9506", "-82.4572") + "\n[alerts]\nnws = false\n")
        let off = try await runner.run(["doctor"])
        #expect(off.status == 0 && !off.stdout.contains("nws-alerts"), "\(off.stdout)")

        try runner.writeConfig(fixed("27.9506", "-82.4572").replacing("[weather.nws]", with: "[weather]\nprovider = \"nws\"\n[weather.nws]\ncontact = \"ops@example.org\""))
        let nws = try await runner.run(["doctor"])
        let line = Self.checks(nws.stdout).first { $0.hasPrefix("nws-alerts") } ?? ""
        #expect(line.contains("FAIL") && line.contains("HTTP 500") && !line.contains("[alerts] nws"), "\(nws.stdout)")
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
        [weather.nws]
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
