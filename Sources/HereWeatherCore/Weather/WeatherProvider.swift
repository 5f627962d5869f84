#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The weather services here-weather can ask.
public enum WeatherProviderKind: String, Sendable, CaseIterable {
    case openMeteo = "open-meteo"
    case openWeatherMap = "openweathermap"
    case metNorway = "metno"
    case pirateWeather = "pirateweather"
    case nws

    /// The service's name as users know it.
    public var displayName: String {
        switch self {
        case .openMeteo: return "Open-Meteo"
        case .openWeatherMap: return "OpenWeatherMap"
        case .metNorway: return "MET Norway"
        case .pirateWeather: return "Pirate Weather"
        case .nws: return "NWS"
        }
    }

    /// Whether the service writes words of its own in the language asked (`WeatherQuery.language`):
    /// its answers in one language are not another's (`WeatherCacheKey`).
    public var writesInLanguage: Bool { self == .openWeatherMap || self == .pirateWeather }

    /// The provider whose `displayName` is `name`: the `service` a `WeatherError` names.
    public init?(displayName name: String) {
        guard let kind = Self.allCases.first(where: { $0.displayName == name }) else { return nil }
        self = kind
    }

    /// Every name, for help and error texts: `open-meteo, openweathermap, metno, pirateweather or nws`.
    public static var choices: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }
}

/// What to fetch: a place, a unit system and a deadline for the whole fetch.
public struct WeatherQuery: Sendable {
    public var coordinate: Coordinate
    public var units: Units
    public var deadline: ContinuousClock.Instant
    /// The run's language (a catalogue's code, `UserLocale.code`): services that write words
    /// of their own (OpenWeatherMap, Pirate Weather) are asked for them in it.
    public var language: String

    public init(coordinate: Coordinate, units: Units, deadline: ContinuousClock.Instant, language: String = "en") {
        self.coordinate = coordinate
        self.units = units
        self.deadline = deadline
        self.language = language
    }
}

/// A weather service: one real implementation per provider, all decoding to `WeatherReport`.
public protocol WeatherProvider: Sendable {
    var kind: WeatherProviderKind { get }
    /// Fetches current conditions and forecasts for `query` by its deadline, with the bodies
    /// they were decoded from and the freshness lifetime the service declared (what a cache keeps).
    func fetch(_ query: WeatherQuery) async throws -> WeatherFetch
    /// Decodes a recorded response (`--weather-replay`, a cache entry) as if the service had just sent it.
    func report(fromRecording data: Data, units: Units) throws -> WeatherReport
    /// Like `fetch(_:)`, but a service that supports conditional requests (MET Norway) may
    /// answer "not modified" for `stored`, which then comes back with `notModified` set and
    /// the service's new freshness lifetime. Others ignore `stored`.
    func fetch(_ query: WeatherQuery, revalidating stored: StoredWeather?) async throws -> WeatherFetch
    /// Throws when the settings forbid any request (MET Norway without a contact), so that a
    /// run can fail before it asks anything of anyone. The default checks nothing.
    func checkConfigured() throws
    /// Starts the connections a fetch in `units` will use (`HTTPClient.preconnect`), before
    /// the location is known; nothing is sent. Returns at once. The default does nothing.
    func preconnect(units: Units, until deadline: ContinuousClock.Instant)
}

extension WeatherProvider {
    public func fetch(_ query: WeatherQuery, revalidating stored: StoredWeather?) async throws -> WeatherFetch {
        try await fetch(query)
    }

    public func checkConfigured() throws {}

    public func preconnect(units: Units, until deadline: ContinuousClock.Instant) {}

    /// Fetches current conditions and forecasts for `query` by its deadline.
    public func report(for query: WeatherQuery) async throws -> WeatherReport {
        try await fetch(query).report
    }
}

/// One answer from a weather service: the decoded report and what is needed to rebuild it.
public struct WeatherFetch: Sendable {
    public var report: WeatherReport
    /// The body (or bodies) the report came from, in the shape `report(fromRecording:units:)` reads.
    public var recording: Data
    /// Seconds the service says the data stays fresh (`Cache-Control: max-age`, else
    /// `Expires`); `nil` when it says nothing usable.
    public var serviceMaxAge: Double?
    /// The service's `Last-Modified`, sent back as `If-Modified-Since` when the data is stale.
    public var lastModified: String?
    /// The service answered 304 Not Modified: `recording` is the stored one, still current.
    public var notModified: Bool

    public init(report: WeatherReport, recording: Data, serviceMaxAge: Double? = nil,
                lastModified: String? = nil, notModified: Bool = false) {
        self.report = report
        self.recording = recording
        self.serviceMaxAge = serviceMaxAge
        self.lastModified = lastModified
        self.notModified = notModified
    }
}

/// A stored answer that a conditional request may confirm unchanged.
public struct StoredWeather: Sendable {
    /// The recording as `report(fromRecording:units:)` reads it.
    public var recording: Data
    /// The `Last-Modified` the service sent with it.
    public var lastModified: String

    public init(recording: Data, lastModified: String) {
        self.recording = recording
        self.lastModified = lastModified
    }
}

/// Coordinates sent to web services are rounded to this many decimals by default (about
/// 1.1 km): finer than any weather model's grid, and no finer.
public let defaultCoordinateDecimals = 2

/// Why no weather report could be had.
public enum WeatherError: UserFacingError, ServiceFailure {
    /// No HTTP response at all (DNS, refused, timeout, TLS).
    case unreachable(service: String, HTTPError)
    /// The service answered with an error status.
    /// `detail` is the service's own text, without any secret; `message` puts it on one line
    /// (`ServiceText.oneLine`).
    case serviceFailed(service: String, status: Int, detail: String?)
    /// HTTP 429.
    case rateLimited(service: String, retryAfter: String?)
    /// HTTP 401/403 for a keyed service: the key is wrong, expired or lacks the plan.
    case keyRejected(service: String, status: Int, howToSet: String)
    /// A keyed service with no key configured.
    case missingKey(service: String, howToSet: String)
    /// The body was not the weather data expected.
    case undecodable(service: String, reason: String)
    /// A `--weather-replay` file could not be read.
    case recordingUnreadable(path: String, reason: String)
    /// A `--weather-replay` file is not a body of the chosen provider (another provider's
    /// recording, or no weather at all): the file is local, so the service is not to blame.
    case recordingNotWeatherData(service: String, reason: String)
    /// A service whose terms require a contact (MET Norway) has none configured.
    case missingContact(service: String, howToSet: String)
    /// HTTP 403 from MET Norway: the User-Agent was refused or the coordinates too precise.
    case identificationRefused(service: String, userAgent: String)
    /// HTTP 401 from OpenWeatherMap One Call 3.0: the key has no One Call subscription.
    case planLacksProduct(service: String, product: String, advice: String)
    /// A plain-http base URL for a remote host without `allow_plain_http`: anyone on the path
    /// could read or change it. `key` is the config key (`[weather.metno] base_url`).
    case insecureBaseURL(service: String, key: ConfigKey)
    /// The service sent a forecast whose periods had all ended when it was had (the NWS
    /// serving a grid's old forecast); `lastEnd` is when the last one ended, in words.
    case forecastEnded(service: String, lastEnd: String)
    /// A service that covers one country only (the NWS: the United States) was asked about a
    /// point outside it (HTTP 404, problem `InvalidPoint`).
    case outsideCoverage(service: String, region: String)

    public var message: String {
        switch self {
        case .unreachable(let service, let error):
            var advice = error.advice ?? "Check the network connection, or \(Self.baseURL(service)) and \(ConfigKey.weatherTimeout) in the config."
            switch error {
            case .redirected:
                advice = "If that is the service's new address, set \(Self.baseURL(service)) to it; a network with a sign-in page redirects until you sign in."
            case .cannotResolveHost:
                // A longer timeout does not help a name nobody can look up.
                advice = "Check the network connection and its name server (DNS), or the host in \(Self.baseURL(service))."
            default:
                break
            }
            return "Cannot reach \(service): \(error.summary). \(advice)"
        case .serviceFailed(let service, let status, let detail):
            let what = detail.map { ": " + ServiceText.oneLine($0) } ?? ""
            let advice = status >= 500 ? "The service is having trouble; try again in a few minutes." : "Check the settings under [\(Self.table(service))] in the config."
            // 200: the body itself reported the error (Open-Meteo's {"error": true}).
            let answered = status == 200 ? "reported an error" : "answered HTTP \(status)"
            return "\(service) \(answered)\(what). \(advice)"
        case .rateLimited(let service, let retryAfter):
            let when = retryAfter.flatMap(ServiceText.retryAfter).map { " (retry after " + $0 + ")" } ?? ""
            return "\(service) is rate-limiting requests\(when). Run less often, or try again later."
        case .keyRejected(let service, let status, let howToSet):
            return "\(service) rejected the API key (HTTP \(status)). Check the key (\(howToSet)); a new key can take a couple of hours to activate."
        case .missingKey(let service, let howToSet):
            return "\(service) needs an API key: \(howToSet). Or set \(ConfigKey.weatherProvider) = \"open-meteo\", which needs none."
        case .undecodable(let service, let reason):
            return "\(service) sent a response that is not weather data: \(reason). Check \(Self.baseURL(service)), or try again later."
        case .recordingUnreadable(let path, let reason):
            return "Cannot read the weather recording \(path): \(reason)."
        case .recordingNotWeatherData(let service, let reason):
            let choices = WeatherProviderKind.allCases.map(\.rawValue).joined(separator: ", ")
            return "The --weather-replay file is not weather data from \(service): \(reason). Pass the --provider it was recorded from (\(choices)), and for OpenWeatherMap the --units it was recorded in."
        case .missingContact(let service, let howToSet):
            return "\(service)'s terms require requests to identify you: \(howToSet). Or set \(ConfigKey.weatherProvider) = \"open-meteo\", which needs none."
        case .identificationRefused(let service, let userAgent):
            return "\(service) refused the request (HTTP 403), which it does for a User-Agent it will not accept (\"\(userAgent)\") or for blocked clients. Check \(service == WeatherProviderKind.nws.displayName ? ConfigKey.nwsContact : ConfigKey.metNorwayContact) (an e-mail address or web site where they can reach you)."
        case .insecureBaseURL(let service, let key):
            return TransportSecurity.refusal(service: service, key: key)
        case .forecastEnded(let service, let lastEnd):
            return "\(service) sent a forecast that has ended (its last hour ended \(lastEnd)), so it says nothing about now. The service is not updating this forecast; try again later, or use another provider: --provider open-meteo."
        case .outsideCoverage(let service, let region):
            let others = WeatherProviderKind.allCases.filter { $0 != WeatherProviderKind(displayName: service) }.map(\.rawValue)
            let list = others.dropLast().joined(separator: ", ") + " or " + (others.last ?? "")
            return "\(service) covers only \(region), and this location is outside it. Use another provider here: --provider \(list) (open-meteo needs no key), or set \(ConfigKey.weatherProvider) in the config."
        case .planLacksProduct(let service, let product, let advice):
            return "\(service) refused the key for \(product) (HTTP 401): the key has no subscription to it, or is wrong. \(advice)"
        }
    }

    /// The config table of the provider named `service`.
    static func table(_ service: String) -> String {
        WeatherProviderKind(displayName: service).map { ConfigKey.baseURL(of: $0).table } ?? "weather"
    }

    /// The base URL key of the provider named `service`.
    static func baseURL(_ service: String) -> String {
        WeatherProviderKind(displayName: service).map { ConfigKey.baseURL(of: $0).description } ?? "the provider's base_url"
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .keyRejected, .missingKey, .missingContact, .identificationRefused, .planLacksProduct, .insecureBaseURL,
             .outsideCoverage:
            return .configuration
        case .recordingUnreadable, .recordingNotWeatherData: return .noInput
        default: return .serviceUnavailable
        }
    }
}

/// Turns an HTTP exchange with a weather service into its JSON body or a `WeatherError`,
/// by `ServiceAnswer`'s rule.
enum WeatherServiceResponse {
    /// Sends `request`, following a redirect only on the service's own host
    /// (`SameOriginRedirects`); no response at all, or a redirect elsewhere, is
    /// `WeatherError.unreachable`, a cancelled one `CancellationError`.
    static func get(_ request: HTTPRequest, http: any HTTPClient, service: String) async throws -> HTTPResponse {
        try await ServiceAnswer.sendKeepingHost(request, http: http) { WeatherError.unreachable(service: service, $0) }
    }

    /// Throws unless `TransportSecurity` permits `baseURL` (config key `key`).
    static func requireSecure(_ baseURL: String, allowPlainHTTP: Bool, service: String, key: ConfigKey) throws {
        if TransportSecurity.permits(baseURL, allowPlainHTTP: allowPlainHTTP) { return }
        throw WeatherError.insecureBaseURL(service: service, key: key)
    }

    /// The JSON of a recorded body (`--weather-replay`, a cache entry).
    static func recording(_ data: Data, service: String) throws -> JSONValue {
        try json(from: HTTPResponse(status: 200, body: data), service: service, howToSetKey: nil)
    }

    /// The JSON body of a 2xx response; errors for every other status and for non-JSON bodies.
    ///
    /// `howToSetKey` is given for keyed services: a 401/403 then means the key was rejected.
    /// `secrets` are removed from any text quoted from the service.
    static func json(from response: HTTPResponse, service: String, howToSetKey: String?,
                     secrets: [String] = []) throws -> JSONValue {
        try ServiceAnswer(response, secrets: secrets).json(service: service, howToSetKey: howToSetKey, as: WeatherError.self)
    }
}
