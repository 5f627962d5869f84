/// Explicit input on the command line, which replaces every configured source.
public enum LocationOverride: Sendable {
    /// `--lat/--lon`.
    case coordinate(FixedPlace)
    /// `--replay FILE [--replay-speed N|max]`.
    case replay(path: String, speed: ReplaySpeed)
    /// `--city NAME`: looked up with the weather provider's geocoding service.
    case city(CityQuery)
}

/// Builds the location and weather providers a configuration names, each from the run's
/// system (`RunSystem`: the HTTP client, the gpsd, GeoClue and NetworkManager adapters, the clock).
public enum ProviderFactory {
    /// The location source chain in the configured order (or `only`, from `--source`), or the
    /// command line's override. Explicit input needs no permission and is not remembered;
    /// configured sources go through `authorizer` and, with `memory`, answer from the last
    /// good location while it is fresh. The zero-config chain skips sources absent from the
    /// machine. `wifiMemory` remembers the Wi-Fi source's answers against the access points;
    /// `geoClueMemory` remembers that GeoClue had no agent, which only the zero-config chain
    /// acts on (`GeoClueAgentGate`; not with `--source`, nor with `[location.geoclue]
    /// permission` written in the file).
    /// `--city` asks the geocoding service of `geocodingProvider` (default: `[weather]
    /// provider`); `environment` supplies the OpenWeatherMap key.
    public static func locationProvider(
        _ config: Configuration, configPath: String, override: LocationOverride?, system: RunSystem,
        only: [LocationSource]? = nil, authorizer: any LocationAuthorizer = AllowAllAuthorizer(),
        memory: LastLocationStore? = nil, environment: [String: String] = [:],
        geocodingProvider: WeatherProviderKind? = nil, wifiMemory: WiFiNeighbourhoodMemory? = nil,
        geoClueMemory: GeoClueAgentMemory? = nil
    ) -> any LocationProvider {
        switch override {
        case .coordinate(let place):
            return FixedLocationProvider(place: place, origin: .commandLine, configPath: configPath)
        case .replay(let path, let speed):
            return NMEAReplayLocationProvider(path: path, speed: speed, clock: system.clock)
        case .city(let query):
            let geocoder = Self.geocoder(geocodingProvider ?? config.weather.provider, config: config,
                                         environment: environment, http: system.http)
            return CitySearchLocationProvider(query: query, geocoder: geocoder)
        case nil:
            break
        }
        let sources = only ?? config.location.sources
        guard !sources.isEmpty else { return EmptyLocationProvider(configPath: configPath) }
        let zeroConfig = only == nil && config.location.isZeroConfig
        let providers = sources.map { source -> any LocationSourceProvider in
            let provider = sourceProvider(source, config, configPath: configPath, system: system, wifiMemory: wifiMemory)
            guard source == .geoclue, let geoClueMemory else { return provider }
            return geoClueGate(provider, memory: geoClueMemory, system: system, environment: environment,
                               skips: zeroConfig && config.location.permissions[.geoclue] == nil)
        }
        let chain = LocationSourceChain(providers, authorizer: authorizer,
                                        skipsAbsentSources: zeroConfig,
                                        configPath: configPath, clock: system.clock)
        guard let memory else { return chain }
        return RememberingLocationProvider(base: chain, store: memory, sources: Set(sources), authorizer: authorizer,
                                           clock: system.clock)
    }

    /// The provider for one configured source.
    public static func sourceProvider(
        _ source: LocationSource, _ config: Configuration, configPath: String, system: RunSystem,
        wifiMemory: WiFiNeighbourhoodMemory? = nil
    ) -> any LocationSourceProvider {
        switch source {
        case .gpsd:
            return system.gpsd(config.location.gpsd)
        case .geoclue:
            return system.geoClue()
        case .wifi:
            return WiFiLocationProvider(settings: config.location.wifi, scanner: system.wifiScanner,
                                        http: system.http, memory: wifiMemory, configPath: configPath, clock: system.clock)
        case .nmea:
            guard let path = config.location.nmea.path else { return MissingNMEAPathProvider(configPath: configPath) }
            return NMEAReplayLocationProvider(path: path, speed: config.location.nmea.speed, clock: system.clock)
        case .ip:
            return IPLocationProvider(settings: config.location.ip, http: system.http, configPath: configPath,
                                      clock: system.clock)
        case .fixed:
            return FixedLocationProvider(place: config.location.fixed, configPath: configPath)
        }
    }

    /// `provider` (GeoClue) learning from, and with `skips` acting on, what `memory` remembers
    /// about a missing agent: this machine's boot and login session, the bus check of the
    /// provider when it has one, the run's clock and `--verbose` notes.
    public static func geoClueGate(_ provider: any LocationSourceProvider, memory: GeoClueAgentMemory, system: RunSystem,
                                   environment: [String: String], skips: Bool) -> GeoClueAgentGate {
        GeoClueAgentGate(base: provider, memory: memory, watch: provider as? any GeoClueAgentWatch,
                         situation: { GeoClueAgentSituation.current(date: $0, environment: environment) },
                         clock: system.clock, skips: skips, log: system.log)
    }

    /// Every secret the configuration holds (API keys, tokens), for redaction.
    public static func secrets(_ config: Configuration, environment: [String: String]) -> [String] {
        let fromEnvironment = [config.openWeatherMapKey(environment: environment), config.pirateWeatherKey(environment: environment)]
        return fromEnvironment.compactMap { $0 }.filter { !$0.isEmpty } + config.secretsInFile
    }

    /// The request the configuration asks for, with command-line values taking precedence.
    public static func locationRequest(_ config: Configuration, accuracy: DesiredAccuracy?, timeout: Double?,
                                       maxAge: Double??) -> LocationRequest {
        let bounds = Configuration.LocationSettings.self
        let seconds = clamp(timeout ?? config.location.timeout, to: bounds.timeoutRange)
        let age = (maxAge ?? config.location.maxAge).map { clamp($0, to: bounds.maxAgeRange) }
        return LocationRequest(desiredAccuracy: accuracy ?? config.location.accuracy,
                               timeout: .milliseconds(Int64(seconds * 1000)),
                               maxAge: age.map { .milliseconds(Int64($0 * 1000)) })
    }

    /// `value` within `range` (NaN as its lower end): the flags and the config file are
    /// checked against the same ranges; this keeps any other caller's value from trapping
    /// when it becomes a `Duration`.
    static func clamp(_ value: Double, to range: ClosedRange<Double>) -> Double {
        value.isNaN ? range.lowerBound : min(max(value, range.lowerBound), range.upperBound)
    }

    /// The geocoding service of weather provider `kind`, for `--city`. MET Norway and Pirate
    /// Weather have none: Open-Meteo's (keyless) looks names up for them.
    public static func geocoder(_ kind: WeatherProviderKind, config: Configuration,
                                environment: [String: String], http: any HTTPClient) -> any Geocoder {
        switch kind {
        case .openMeteo, .metNorway, .pirateWeather, .nws:
            return OpenMeteoGeocoder(baseURL: config.weather.openMeteo.geocodingURL, http: http,
                                     allowPlainHTTP: config.weather.openMeteo.allowPlainHTTP)
        case .openWeatherMap:
            return OpenWeatherMapGeocoder(baseURL: config.weather.openWeatherMap.baseURL,
                                          apiKey: config.openWeatherMapKey(environment: environment), http: http,
                                          allowPlainHTTP: config.weather.openWeatherMap.allowPlainHTTP)
        }
    }

    /// The weather provider `kind`, configured from `config` and the environment, on the run's
    /// system: its HTTP client, its clock (an NWS observation's age, the companions' grace) and
    /// its `--verbose` notes.
    public static func weatherProvider(_ kind: WeatherProviderKind, config: Configuration,
                                       environment: [String: String], system: RunSystem) -> any WeatherProvider {
        let http = system.http
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
                                            allowPlainHTTP: config.weather.metNorway.allowPlainHTTP,
                                            grace: companionGrace(system))
        case .pirateWeather:
            return PirateWeatherWeatherProvider(baseURL: config.weather.pirateWeather.baseURL,
                                                apiKey: config.pirateWeatherKey(environment: environment), http: http,
                                                coordinateDecimals: config.privacy.coordinateDecimals,
                                                allowPlainHTTP: config.weather.pirateWeather.allowPlainHTTP)
        case .nws:
            return NWSWeatherProvider(baseURL: config.weather.nws.baseURL, contact: config.weather.nws.contact, http: http,
                                      coordinateDecimals: config.privacy.coordinateDecimals,
                                      allowPlainHTTP: config.weather.nws.allowPlainHTTP,
                                      memory: NWSPointsMemory(paths: ConfigurationPaths(environment: environment)),
                                      clock: system.clock, grace: companionGrace(system))
        }
    }

    /// The grace a report's companions (alerts, nowcast) get after the weather, on the run's
    /// clock, noted in `--verbose`.
    static func companionGrace(_ system: RunSystem) -> CompanionGrace {
        CompanionGrace(clock: system.clock, log: system.log)
    }
}

/// The provider for `sources = ["nmea"]` without `[location.nmea] path`.
struct MissingNMEAPathProvider: LocationSourceProvider {
    let configPath: String
    var source: LocationSource { .nmea }
    func requestLocation(_ request: LocationRequest) async throws -> Location {
        throw LocationError.nmeaUnreadable(path: "(none)", reason: "\(ConfigKey.nmeaPath) is not set in \(configPath); set it to a log file or a serial device, or pass --replay FILE")
    }
}

/// The provider for `sources = []`: fails with a message saying how to add one.
struct EmptyLocationProvider: LocationProvider {
    let configPath: String
    func requestLocation(_ request: LocationRequest) async throws -> Location {
        throw LocationError.noSources(configPath: configPath)
    }
}
