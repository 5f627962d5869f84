import Foundation
import Testing

/// One weather provider served by a `FixtureServer` from its Fixtures recordings: the routes
/// it asks for, the config that points it there (the fixed Tampa location), and its key.
struct ProviderSetup: Sendable, CustomTestStringConvertible {
    var name: String
    var routes: [String: FixtureServer.Response]
    /// The `[weather]` tables, with `BASE` where the server's URL goes.
    var weather: String
    var environment: [String: String] = [:]
    /// Whether the recording holds weather alerts.
    var hasAlerts = false

    var testDescription: String { name }

    static let key = "placeholder-key-0123456789abcdef"

    /// 2026-11-22 14:15 EST, when the Tampa recordings of Open-Meteo, OpenWeatherMap and Pirate
    /// Weather were made (their alerts end on the 23rd): a test clock at this date shows them.
    static let recordedAt = Date(timeIntervalSince1970: 1_795_374_900)

    /// The fixed Tampa location, named, 1 km.
    static let fixedLocation = fixedLocation(named: "Tampa")

    /// The fixed Tampa location, 1 km, under another `name`.
    static func fixedLocation(named name: String) -> String {
        """
        version = 1
        [location]
        sources = ["fixed"]
        [location.fixed]
        latitude = 27.9506
        longitude = -82.4572
        name = "\(name)"
        accuracy = 1000
        """
    }

    /// The IP source alone, allowed, asking ipinfo at `baseURL/ipinfo`; more keys of
    /// `[location.ip.ipinfo]` (a token) may follow.
    static func ipLocation(_ baseURL: String) -> String {
        """
        version = 1
        [location]
        sources = ["ip"]
        [location.ip]
        permission = "allow"
        services = ["ipinfo"]
        [location.ip.ipinfo]
        base_url = "\(baseURL)/ipinfo"
        """
    }

    static let all = [
        ProviderSetup(name: "open-meteo", routes: ["/v1/forecast": .fixture("weather/open-meteo/tampa-metric.json")],
                      weather: "[weather]\nprovider = \"open-meteo\"\n[weather.open-meteo]\nbase_url = \"BASE\""),
        ProviderSetup(name: "openweathermap classic",
                      routes: ["/data/2.5/weather": .fixture("weather/openweathermap/weather-tampa-metric.json"),
                               "/data/2.5/forecast": .fixture("weather/openweathermap/forecast-tampa-metric.json")],
                      weather: "[weather]\nprovider = \"openweathermap\"\n[weather.openweathermap]\nbase_url = \"BASE\"",
                      environment: ["OPENWEATHERMAP_API_KEY": key]),
        ProviderSetup(name: "openweathermap onecall",
                      routes: ["/data/3.0/onecall": .fixture("weather/openweathermap/onecall-tampa-metric.json")],
                      weather: "[weather]\nprovider = \"openweathermap\"\n[weather.openweathermap]\nbase_url = \"BASE\"\napi = \"onecall\"",
                      environment: ["OPENWEATHERMAP_API_KEY": key], hasAlerts: true),
        ProviderSetup(name: "metno",
                      routes: ["/weatherapi/locationforecast/2.0/complete": .fixture("weather/metno/oslo-compact.json")],
                      weather: "[weather]\nprovider = \"metno\"\n[weather.metno]\nbase_url = \"BASE\"\ncontact = \"ops@example.org\""),
        ProviderSetup(name: "pirateweather",
                      routes: ["/forecast/\(key)/27.95,-82.46": .fixture("weather/pirateweather/tampa-si.json")],
                      weather: "[weather]\nprovider = \"pirateweather\"\n[weather.pirateweather]\nbase_url = \"BASE\"",
                      environment: ["PIRATEWEATHER_API_KEY": key], hasAlerts: true),
        ProviderSetup(name: "nws", routes: nwsRoutes,
                      weather: "[weather]\nprovider = \"nws\"\n[weather.nws]\nbase_url = \"BASE\"\ncontact = \"ops@example.org\"",
                      hasAlerts: true),
    ]

    /// The NWS's answers for the Tampa point (2 decimals), by path.
    static let nwsRoutes: [String: FixtureServer.Response] = [
        "/points/27.95,-82.46": .fixture("weather/nws/points-tampa.json"),
        "/gridpoints/TBW/71,98/forecast": .fixture("weather/nws/forecast-tampa.json"),
        "/gridpoints/TBW/71,98/forecast/hourly": .fixture("weather/nws/forecast-hourly-tampa.json"),
        "/gridpoints/TBW/71,98/stations": .fixture("weather/nws/stations-tampa.json"),
        "/stations/KTPA/observations/latest": .fixture("weather/nws/observation-latest-ktpa.json"),
        "/alerts/active": .fixture("weather/nws/alerts-tampa.json"),
    ]

    /// The config file: the fixed location, this provider at `baseURL`, the cache's TTL.
    /// The NWS's alerts for this US point (open-meteo, metno and OpenWeatherMap's classic API
    /// get them) are asked of the same server, which has none for them: nothing leaves the machine.
    /// `timeout` sets `[weather] timeout`: a run on a `TestClock` needs the longest (300 s),
    /// since its deadline counts from the clock's frozen start while the transfer runs on real
    /// time, which a loaded test run spends waiting for a slot.
    func config(_ baseURL: String, ttl: Int = 600, timeout: Int? = nil) -> String {
        let alerts = weather.contains("[weather.nws]") ? "" : "\n[weather.nws]\nbase_url = \"\(baseURL)\""
        var weather = self.weather
        if let timeout { weather = weather.replacing("[weather]\n", with: "[weather]\ntimeout = \(timeout)\n", maxReplacements: 1) }
        return Self.fixedLocation + "\n" + weather.replacing("BASE", with: baseURL) + alerts
            + "\n[cache]\nttl = \(ttl)\nstale_limit = 21600"
    }
}
