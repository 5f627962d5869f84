/// Explicit input on the command line, which replaces every configured source.
public enum LocationOverride: Sendable {
    /// `--lat/--lon`.
    case coordinate(FixedPlace)
    /// `--replay FILE [--replay-speed N|max]`.
    case replay(path: String, speed: ReplaySpeed)
    /// `--city NAME`: looked up with the weather provider's geocoding service.
    case city(CityQuery)
}

/// Builds the location and weather providers a configuration names.
public enum ProviderFactory {
    /// The location source chain in the configured order (or `only`, from `--source`), or the
    /// command line's override. Explicit input needs no permission and is not remembered;
    /// configured sources go through `authorizer` and, with `memory`, answer from the last
    /// good location while it is fresh. The zero-config chain skips sources absent from the
    /// machine. `makeGPSD` builds the gpsd provider (it lives beside libgps, outside the
    /// core). `--city` asks the geocoding service of `geocodingProvider` (default:
    /// `[weather] provider`); `environment` supplies the OpenWeatherMap key.
    public static func locationProvider(
        _ config: Configuration, configPath: String, override: LocationOverride?,
        only: [LocationSource]? = nil, authorizer: any LocationAuthorizer = AllowAllAuthorizer(),
        memory: LastLocationStore? = nil, http: (any HTTPClient)? = nil,
        environment: [String: String] = [:], geocodingProvider: WeatherProviderKind? = nil,
        makeGPSD: (Configuration.GPSDSettings) -> any LocationSourceProvider
    ) -> any LocationProvider {
        switch override {
        case .coordinate(let place):
            return FixedLocationProvider(place: place, origin: .commandLine, configPath: configPath)
        case .replay(let path, let speed):
            return NMEAReplayLocationProvider(path: path, speed: speed)
        case .city(let query):
            let geocoder = Self.geocoder(geocodingProvider ?? config.weather.provider, config: config,
                                         environment: environment, http: http ?? UnconfiguredHTTPClient())
            return CitySearchLocationProvider(query: query, geocoder: geocoder)
        case nil:
            break
        }
        let sources = only ?? config.location.sources
        guard !sources.isEmpty else { return EmptyLocationProvider(configPath: configPath) }
        let providers = sources.compactMap {
            sourceProvider($0, config, configPath: configPath, http: http, makeGPSD: makeGPSD)
        }
        let chain = LocationSourceChain(providers, authorizer: authorizer,
                                        skipsAbsentSources: only == nil && config.location.isZeroConfig,
                                        configPath: configPath)
        guard let memory else { return chain }
        return RememberingLocationProvider(base: chain, store: memory, sources: Set(sources), authorizer: authorizer)
    }

    /// The provider for one configured source; `nil` when this build has none (the chain
    /// then treats the source as not present).
    public static func sourceProvider(
        _ source: LocationSource, _ config: Configuration, configPath: String, http: (any HTTPClient)?,
        makeGPSD: (Configuration.GPSDSettings) -> any LocationSourceProvider
    ) -> (any LocationSourceProvider)? {
        switch source {
        case .gpsd:
            return makeGPSD(config.location.gpsd)
        case .geoclue, .wifi:
            return nil  // provider wired at merge (branches wifi, geoclue)
        case .nmea:
            guard let path = config.location.nmea.path else { return MissingNMEAPathProvider(configPath: configPath) }
            return NMEAReplayLocationProvider(path: path, speed: config.location.nmea.speed)
        case .ip:
            return IPLocationProvider(settings: config.location.ip, http: http ?? UnconfiguredHTTPClient(),
                                      configPath: configPath)
        case .fixed:
            return FixedLocationProvider(place: config.location.fixed, configPath: configPath)
        }
    }

    /// Every secret the configuration holds (API keys, tokens), for redaction.
    public static func secrets(_ config: Configuration, environment: [String: String]) -> [String] {
        var values = [config.openWeatherMapKey(environment: environment), config.pirateWeatherKey(environment: environment)]
        values += config.location.ip.settings.values.map(\.token)
        return values.compactMap { $0 }.filter { !$0.isEmpty }
    }

    /// The request the configuration asks for, with command-line values taking precedence.
    public static func locationRequest(_ config: Configuration, accuracy: DesiredAccuracy?, timeout: Double?,
                                       maxAge: Double??) -> LocationRequest {
        let seconds = timeout ?? config.location.timeout
        let age = maxAge ?? config.location.maxAge
        return LocationRequest(desiredAccuracy: accuracy ?? config.location.accuracy,
                               timeout: .milliseconds(Int64(seconds * 1000)),
                               maxAge: age.map { .milliseconds(Int64($0 * 1000)) })
    }

    /// The geocoding service of weather provider `kind`, for `--city`. MET Norway and Pirate
    /// Weather have none: Open-Meteo's (keyless) looks names up for them.
    public static func geocoder(_ kind: WeatherProviderKind, config: Configuration,
                                environment: [String: String], http: any HTTPClient) -> any Geocoder {
        switch kind {
        case .openMeteo, .metNorway, .pirateWeather:
            return OpenMeteoGeocoder(baseURL: config.weather.openMeteo.geocodingURL, http: http,
                                     allowPlainHTTP: config.weather.openMeteo.allowPlainHTTP)
        case .openWeatherMap:
            return OpenWeatherMapGeocoder(baseURL: config.weather.openWeatherMap.baseURL,
                                          apiKey: config.openWeatherMapKey(environment: environment), http: http,
                                          allowPlainHTTP: config.weather.openWeatherMap.allowPlainHTTP)
        }
    }

    /// The weather provider `kind`, configured from `config` and the environment.
    public static func weatherProvider(_ kind: WeatherProviderKind, config: Configuration,
                                       environment: [String: String], http: any HTTPClient) -> any WeatherProvider {
        switch kind {
        case .openMeteo:
            return OpenMeteoWeatherProvider(baseURL: config.weather.openMeteo.baseURL, http: http,
                                            coordinateDecimals: config.privacy.coordinateDecimals,
                                            allowPlainHTTP: config.weather.openMeteo.allowPlainHTTP)
        case .openWeatherMap where config.weather.openWeatherMap.api == .onecall:
            return OneCallWeatherProvider(baseURL: config.weather.openWeatherMap.baseURL,
                                          apiKey: config.openWeatherMapKey(environment: environment), http: http,
                                          coordinateDecimals: config.privacy.coordinateDecimals,
                                          allowPlainHTTP: config.weather.openWeatherMap.allowPlainHTTP)
        case .openWeatherMap:
            return OpenWeatherMapWeatherProvider(baseURL: config.weather.openWeatherMap.baseURL,
                                                 apiKey: config.openWeatherMapKey(environment: environment), http: http,
                                                 coordinateDecimals: config.privacy.coordinateDecimals,
                                                 allowPlainHTTP: config.weather.openWeatherMap.allowPlainHTTP)
        case .metNorway:
            return MetNorwayWeatherProvider(baseURL: config.weather.metNorway.baseURL,
                                            contact: config.weather.metNorway.contact, http: http,
                                            coordinateDecimals: config.privacy.coordinateDecimals,
                                            allowPlainHTTP: config.weather.metNorway.allowPlainHTTP)
        case .pirateWeather:
            return PirateWeatherWeatherProvider(baseURL: config.weather.pirateWeather.baseURL,
                                                apiKey: config.pirateWeatherKey(environment: environment), http: http,
                                                coordinateDecimals: config.privacy.coordinateDecimals,
                                                allowPlainHTTP: config.weather.pirateWeather.allowPlainHTTP)
        }
    }
}

/// The provider for `sources = ["nmea"]` without `[location.nmea] path`.
struct MissingNMEAPathProvider: LocationSourceProvider {
    let configPath: String
    var source: LocationSource { .nmea }
    func requestLocation(_ request: LocationRequest) async throws -> Location {
        throw LocationError.nmeaUnreadable(path: "(none)", reason: "[location.nmea] path is not set in \(configPath); set it to a log file or a serial device, or pass --replay FILE")
    }
}

/// The HTTP client when the caller gave none: every request fails (no network by accident).
struct UnconfiguredHTTPClient: HTTPClient {
    func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        throw HTTPError.transferFailed("no HTTP client configured")
    }
}

/// The provider for `sources = []`: fails with a message saying how to add one.
struct EmptyLocationProvider: LocationProvider {
    let configPath: String
    func requestLocation(_ request: LocationRequest) async throws -> Location {
        throw LocationError.noSources(configPath: configPath)
    }
}
