import Foundation
import Testing
@testable import HereWeatherCore

/// A service the fault suite fails: each weather service (One Call 3.0 apart from
/// OpenWeatherMap's classic API) and each IP-lookup service, with the config that points the
/// built binary at it and what the binary must do when it fails.
enum FaultTarget: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case openMeteo = "open-meteo"
    case openWeatherMap = "openweathermap"
    case oneCall = "openweathermap onecall"
    case metNorway = "metno"
    case pirateWeather = "pirateweather"
    case nws
    case ipinfo, ipwhois, ipapi
    case ipApiCom = "ip-api"

    var testDescription: String { rawValue }

    /// Canary secrets, one per place a secret can be configured: none may ever be printed or stored.
    static let canaries = (openWeatherMap: "CANARYowm5f1c3a9e7d2b4c6e8a0f1d3b5c7e9a1",
                           pirateWeather: "CANARYpirate7e2d4f6a8c0e1b3d5f7a9c1e3b5",
                           ipinfo: "CANARYipinfo3b5d7f9a1c3e5b7d9f1a3c5e7b9d")
    static var allCanaries: [String] { [canaries.openWeatherMap, canaries.pirateWeather, canaries.ipinfo] }

    /// The fixed location of the weather runs (Tampa), and the cache key's coordinate.
    static let tampa = Coordinate(latitude: 27.9506, longitude: -82.4572)

    var weatherKind: WeatherProviderKind? {
        switch self {
        case .openMeteo: return .openMeteo
        case .openWeatherMap, .oneCall: return .openWeatherMap
        case .metNorway: return .metNorway
        case .pirateWeather: return .pirateWeather
        case .nws: return .nws
        case .ipinfo, .ipwhois, .ipapi, .ipApiCom: return nil
        }
    }

    var ipService: IPService? {
        switch self {
        case .ipinfo: return .ipinfo
        case .ipwhois: return .ipwhois
        case .ipapi: return .ipapi
        case .ipApiCom: return .ipApiCom
        default: return nil
        }
    }

    /// The service's real answer: the raw material of the faults, and the cached report.
    var success: Data {
        switch self {
        case .openMeteo: return Fixtures.data("weather/open-meteo/tampa-metric.json")
        case .openWeatherMap: return Fixtures.data("weather/openweathermap/weather-tampa-metric.json")
        case .oneCall: return Fixtures.data("weather/openweathermap/onecall-tampa-metric.json")
        case .metNorway: return Fixtures.data("weather/metno/oslo-compact.json")
        case .pirateWeather: return Fixtures.data("weather/pirateweather/tampa-si.json")
        // The first answer a run needs: every request is failed the same way.
        case .nws: return Fixtures.data("weather/nws/points-tampa.json")
        case .ipinfo, .ipwhois, .ipapi, .ipApiCom: return Fixtures.data("ip/\(ipService?.rawValue ?? "")/success.json")
        }
    }

    /// What a cache entry holds for this service (OpenWeatherMap's classic API: both bodies).
    var recording: Data {
        if self == .nws {
            let nws = { (name: String) in Fixtures.data("weather/nws/\(name).json") }
            return Data(#"{"points":"#.utf8) + nws("points-tampa") + Data(#","forecast_hourly":"#.utf8)
                + nws("forecast-hourly-tampa") + Data(#","forecast":"#.utf8) + nws("forecast-tampa")
                + Data(#","observation":null,"alerts":null}"#.utf8)
        }
        guard self == .openWeatherMap else { return success }
        return Data(#"{"weather":"#.utf8) + success + Data(#","forecast":"#.utf8)
            + Fixtures.data("weather/openweathermap/forecast-tampa-metric.json") + Data("}".utf8)
    }

    /// The deadline each run is given: `[weather] timeout`, or `--timeout` for the IP lookup.
    static let deadlineSeconds = 2

    /// The command line of a run.
    func arguments(verbose: Bool, noStale: Bool) -> [String] {
        var arguments = ["--json"]
        if ipService != nil { arguments += ["--source", "ip", "--timeout", String(Self.deadlineSeconds)] }
        if verbose { arguments.append("--verbose") }
        if noStale { arguments.append("--no-stale") }
        return arguments
    }

    /// A config with every secret set to its canary, the service under test at `baseURL`, and
    /// the weather at a fixed place (weather services) or the IP source (IP services).
    func config(baseURL: String) -> String {
        let weatherURL = weatherKind == nil ? "https://weather.example" : baseURL
        let ipService = ipService ?? .ipinfo
        let ipURL = self.ipService == nil ? "https://ip.example" : baseURL
        let provider = weatherKind ?? .openMeteo
        return """
            version = 1
            [location]
            sources = ["\(self.ipService == nil ? "fixed" : "ip")"]
            [location.fixed]
            latitude = \(Self.tampa.latitude)
            longitude = \(Self.tampa.longitude)
            name = "Tampa"
            accuracy = 1000
            [location.ip]
            permission = "allow"
            services = ["\(ipService.rawValue)"]
            [location.ip.ipinfo]
            token = "\(Self.canaries.ipinfo)"
            \(ipService == .ipinfo ? "base_url = \"\(ipURL)\"" : "")
            \(ipService == .ipinfo ? "" : "[location.ip.\(ipService.rawValue)]\nbase_url = \"\(ipURL)\"")
            [weather]
            provider = "\(provider.rawValue)"
            timeout = \(Self.deadlineSeconds)
            [weather.open-meteo]
            base_url = "\(provider == .openMeteo ? weatherURL : "https://open-meteo.example")"
            [weather.openweathermap]
            api_key = "\(Self.canaries.openWeatherMap)"
            api = "\(self == .oneCall ? "onecall" : "classic")"
            base_url = "\(provider == .openWeatherMap ? weatherURL : "https://owm.example")"
            [weather.metno]
            contact = "ops@example.org"
            base_url = "\(provider == .metNorway ? weatherURL : "https://metno.example")"
            [weather.pirateweather]
            api_key = "\(Self.canaries.pirateWeather)"
            base_url = "\(provider == .pirateWeather ? weatherURL : "https://pirate.example")"
            [weather.nws]
            contact = "ops@example.org"
            base_url = "\(provider == .nws ? weatherURL : "https://nws.example")"
            """
    }

    /// Files a run must leave alone: a cached report for the place, an hour old (past its
    /// TTL, so the service is asked; within the stale limit, so it may stand in), and a
    /// remembered location too old to answer. Written with the real code.
    func seedFiles(home: URL) {
        let kind = weatherKind ?? .openMeteo
        let recording = weatherKind == nil ? Fixtures.data("weather/open-meteo/tampa-metric.json") : recording
        let key = WeatherCacheKey(provider: kind, coordinate: Self.tampa, units: .metric, coordinateDecimals: 2)
        let entry = WeatherCacheEntry(key: key, fetchedAt: Date().addingTimeInterval(-3600), serviceMaxAge: nil,
                                      recording: recording)
        let cache = WeatherCache(directory: home.appendingPathComponent(".cache/here-weather").path)
        do { try cache.store(entry) } catch { fatalError("cannot seed the cache: \(error)") }
        let old = Location(coordinate: Self.tampa, horizontalAccuracy: 25_000, timestamp: Date().addingTimeInterval(-2 * 86_400),
                           source: .ip, service: "ipinfo.io")
        LastLocationStore(path: home.appendingPathComponent(".local/state/here-weather/last-location.json").path).save(old)
    }

    /// What the binary must do when this service meets `fault`.
    func expectation(for fault: HTTPFault) -> FaultExpectation {
        guard let kind = weatherKind else {
            return FaultExpectation(status: 75, staleFallback: false, mentions: ipMentions(fault))
        }
        switch fault {
        case .unauthorized where self == .oneCall:
            return FaultExpectation(status: 78, staleFallback: false, mentions: ["One Call API 3.0"])
        case .unauthorized where kind == .openWeatherMap || kind == .pirateWeather:
            return FaultExpectation(status: 78, staleFallback: false, mentions: ["rejected the API key (HTTP 401)"])
        case .unauthorized:
            return FaultExpectation(status: 69, staleFallback: false, mentions: ["HTTP 401"])
        default:
            return FaultExpectation(status: 69, staleFallback: true, mentions: Self.weatherMentions(fault))
        }
    }

    static func weatherMentions(_ fault: HTTPFault) -> [String] {
        switch fault {
        case .connectionRefused: return ["connection refused"]
        // Without a DNS server the lookup may time out instead of failing.
        case .dnsFailure: return ["could not resolve host here-weather-fault.invalid", "did not answer in time"]
        case .acceptsNeverAnswers, .stallsMidBody: return ["did not answer in time"]
        case .status500: return ["HTTP 500"]
        case .status502: return ["HTTP 502"]
        case .status503: return ["HTTP 503"]
        case .rateLimited: return ["retry after 120 s"]
        case .unauthorized: return ["401"]
        case .truncatedJSON: return ["not valid JSON"]
        case .htmlWith200: return ["web page (HTML)"]
        case .numbersAsWords, .arraysForObjects: return ["not weather data"]
        case .hugeBody: return ["larger than 8192 KiB"]
        // The first redirect (same host) is followed, the second not (`SameOriginRedirects`).
        case .redirectLoop: return ["(HTTP 302), which is not followed"]
        case .sshBanner, .garbage, .continueThenJSON: return ["answered, but not with HTTP"]
        }
    }

    func ipMentions(_ fault: HTTPFault) -> [String] {
        switch fault {
        case .status500: return ["server error (HTTP 500)"]
        case .status502: return ["server error (HTTP 502)"]
        case .status503: return ["server error (HTTP 503)"]
        case .rateLimited: return ["rate limited (HTTP 429, retry after 120 s)"]
        case .unauthorized: return ["access refused (HTTP 401)"]
        case .numbersAsWords: return ["answered without a usable position"]
        case .arraysForObjects: return ["it is not a JSON object"]
        case .hugeBody: return ["larger than 256 KiB"]
        case .redirectLoop: return ["too many redirects"]  // IP lookups keep libcurl's rule
        default: return Self.weatherMentions(fault)
        }
    }
}

/// The documented outcome of a fault.
struct FaultExpectation: Sendable {
    /// The exit status (ExitStatus.swift; `here-weather --help`, "Exit status").
    var status: Int32
    /// Whether a cached report within the stale limit stands in (exit 0, marked stale).
    var staleFallback: Bool
    /// The error line names the fault with one of these.
    var mentions: [String]
}
