import Foundation
import HereWeatherCore
import Testing

/// Dates and offsets far outside any real one (year 300000000000, an offset of 1e300 hours),
/// from a body, a header or a cache entry, through the built binary. Each trapped the release
/// build (exit 132, nothing printed, also with `--waybar`) in the local-time arithmetic, and a
/// cached entry made every later run trap too. Now they are refused where they enter (an entry
/// with such a time is dropped, an offset falls back) and the run prints its report.
@Suite struct HugeDateCommandTests {
    static let year = "300000000000"

    /// A config with the fixed Tampa location and `provider` at `server`.
    func config(_ provider: String, server: FixtureServer) -> String {
        WeatherServicesCommandTests().fixedConfig("""
        [weather]
        provider = "\(provider)"
        timeout = 30
        [weather.\(provider)]
        base_url = "\(server.baseURL)"
        \(provider == "metno" ? #"contact = "ops@example.org""# : "")
        \(provider == "pirateweather" ? #"api_key = "k-0000-test""# : "")
        """)
    }

    /// `fixture` (a JSON object) with `change` applied, serialised again.
    static func body(_ fixture: String, _ change: (inout [String: Any]) -> Void) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Fixtures.data(fixture)) as? [String: Any])
        change(&object)
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    /// `array[index][key] = value` for an array of objects under `path` of `object`.
    static func set(_ object: inout [String: Any], _ path: [String], index: Int, key: String? = nil, to value: Any) {
        func go(_ node: Any, _ rest: ArraySlice<String>) -> Any {
            if let name = rest.first, var dictionary = node as? [String: Any] {
                dictionary[name] = go(dictionary[name] as Any, rest.dropFirst())
                return dictionary
            }
            guard var array = node as? [Any], array.indices.contains(index) else { return node }
            if let key, var element = array[index] as? [String: Any] {
                element[key] = value
                array[index] = element
            } else {
                array[index] = value
            }
            return array
        }
        object = go(object, path[...]) as? [String: Any] ?? object
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let provider: String
        let body: String
        var headers: [(String, String)] = []
        var testDescription: String { name }
    }

    static func cases() throws -> [Case] {
        [
            Case(name: "an Open-Meteo hourly time", provider: "open-meteo",
                 body: try body("weather/open-meteo/tampa-metric.json") {
                     set(&$0, ["hourly", "time"], index: 20, to: "\(year)-11-22T20:00")
                 }),
            Case(name: "a MET Norway time", provider: "metno",
                 body: try body("weather/metno/oslo-compact.json") {
                     set(&$0, ["properties", "timeseries"], index: 3, key: "time", to: "\(year)-11-22T08:00:00Z")
                 }),
            Case(name: "a MET Norway longitude", provider: "metno",
                 body: try body("weather/metno/oslo-compact.json") {
                     set(&$0, ["geometry", "coordinates"], index: 0, to: 1e300)
                 }),
            Case(name: "a Pirate Weather offset", provider: "pirateweather",
                 body: try body("weather/pirateweather/tampa-si.json") { $0["offset"] = 1e300 }),
            Case(name: "Expires and Date headers", provider: "open-meteo",
                 body: String(decoding: Fixtures.data("weather/open-meteo/tampa-metric.json"), as: UTF8.self),
                 headers: [("Expires", "Sun, 06 Nov \(year) 08:49:37 GMT"), ("Date", "Sat, 05 Nov \(year) 08:49:37 GMT")]),
        ]
    }

    @Test(arguments: try cases())
    func aHugeDateNeitherCrashesThisRunNorTheNext(_ item: Case) async throws {
        let response = FixtureServer.Response(status: 200, headers: [("Content-Type", "application/json")] + item.headers,
                                              body: Array(item.body.utf8))
        let server = try FixtureServer { _ in response }
        let runner = try InProcessCommand()
        try runner.writeConfig(config(item.provider, server: server))
        let first = try await runner.run(["--hourly", "--daily"])
        #expect(first.status == 0, "\(first.status): \(first.stderr)")
        #expect(first.stdout.contains("Tampa"), "\(first.stdout)")
        // The entry the first run cached is read back by the next, in every output form.
        let waybar = try await runner.run(["--waybar"])
        #expect(waybar.status == 0, "\(waybar.status): \(waybar.stderr)")
        #expect((try? JSONSerialization.jsonObject(with: Data(waybar.stdout.utf8))) != nil, "\(waybar.stdout)")
        let json = try await runner.run(["--json", "--hourly", "--daily"])
        #expect(json.status == 0, "\(json.status): \(json.stderr)")
        #expect((json.json?["weather"] as? [String: Any])?["cached"] as? Bool == true)
        #expect(server.requests.count == 1, "\(server.requests)")
    }

    /// A current time of that year leaves nothing to report: a clean error, not a trap.
    @Test func aHugeCurrentTimeIsAnUnreadableAnswer() async throws {
        let body = try Self.body("weather/open-meteo/tampa-metric.json") {
            var current = $0["current"] as? [String: Any] ?? [:]
            current["time"] = "\(Self.year)-11-22T14:15"
            $0["current"] = current
        }
        let server = try FixtureServer { _ in .json(200, body) }
        let runner = try InProcessCommand()
        try runner.writeConfig(config("open-meteo", server: server))
        let result = try await runner.run([])
        #expect(result.status == 69, "\(result.status): \(result.stderr)")
        #expect(result.stderr.contains("Open-Meteo"), "\(result.stderr)")
        // `--waybar` always exits 0, with the error in its JSON.
        let waybar = try await runner.run(["--waybar"])
        #expect(waybar.status == 0 && waybar.stdout.contains("Open-Meteo"), "\(waybar.status): \(waybar.stdout)")
    }

    /// An entry already in the cache (written by an older version, or by hand) whose body
    /// holds such a time and whose service lifetime is 1e300 s.
    @Test func aCachedEntryWithAHugeDateIsShown() async throws {
        let server = try FixtureServer(routes: [:])
        let runner = try InProcessCommand()
        try runner.writeConfig(config("open-meteo", server: server))
        let body = try Self.body("weather/open-meteo/tampa-metric.json") {
            Self.set(&$0, ["daily", "sunrise"], index: 0, to: "\(Self.year)-11-22T07:00")
            Self.set(&$0, ["hourly", "time"], index: 30, to: "\(Self.year)-11-22T20:00")
        }
        let key = WeatherCacheKey(provider: .openMeteo, coordinate: Coordinate(latitude: 27.9506, longitude: -82.4572),
                                  units: .metric, coordinateDecimals: 2)
        let cache = WeatherCache(directory: runner.home.path + "/.cache/here-weather", clock: ContinuousClock())
        try cache.store(WeatherCacheEntry(key: key, fetchedAt: Date(), serviceMaxAge: 1e300, recording: Data(body.utf8)))
        for arguments in [["--hourly", "--daily"], ["--waybar"], ["--json"]] {
            let result = try await runner.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.status): \(result.stderr)")
            #expect(!result.stdout.isEmpty)
        }
        #expect(server.requests.isEmpty, "answered from the cache: \(server.requests)")
    }

    /// `--max-age` had no upper bound (the config file's `max_age` has one): 1e18 s trapped
    /// turning into a Duration. Both now share one bound.
    @Test(arguments: [["where", "--max-age", "1e18"], ["--max-age", "31536001"], ["where", "--timeout", "1e18"]])
    func flagsAreBoundedLikeTheConfigKeys(_ arguments: [String]) async throws {
        let runner = try InProcessCommand()
        let result = try await runner.run(arguments + ["--lat", "27.95", "--lon", "-82.46"])
        #expect(result.status == 64, "\(result.status): \(result.stderr)")
        #expect(result.stderr.contains("from 1 to "), "\(result.stderr)")
    }
}
