import HereWeatherCore

/// The run's weather: the provider stack (the service, its companions, the cache) and the
/// geocoder for `--city`, each from the run's settings, environment (API keys), system and
/// storage.
extension Run {
    /// How a report's weather is asked for: the cache's rules, or none (`--weather-replay`).
    struct CacheUse {
        /// `false` (`--no-cache`): ask the service even when a fresh entry exists.
        var readsFreshEntries: Bool
        /// `false` (`--no-stale`): fail rather than show an old report.
        var allowsStale: Bool
    }

    /// The weather provider stack for service `kind`: the service, with the NWS's official
    /// alerts where it has none of its own (`withOfficialAlerts`) and the air quality
    /// (`withAirQuality`), in the cache when `cache` is given.
    func weatherStack(_ kind: WeatherProviderKind, cache: CacheUse?) -> any WeatherProvider {
        let provider = withAirQuality(withOfficialAlerts(weatherProvider(kind)))
        guard let cache else { return provider }
        return CachingWeatherProvider(base: provider, config: settings, storage: storage,
                                      readsFreshEntries: cache.readsFreshEntries, allowsStale: cache.allowsStale,
                                      clock: system.clock)
    }

    /// The weather service `kind` alone, configured from the settings and the environment,
    /// on the run's system: its HTTP client, its clock (an NWS observation's age, the
    /// companions' grace) and its `--verbose` notes.
    func weatherProvider(_ kind: WeatherProviderKind) -> any WeatherProvider {
        let http = system.http
        let weather = settings.weather
        let decimals = settings.privacy.coordinateDecimals
        switch kind {
        case .openMeteo:
            return OpenMeteoWeatherProvider(baseURL: weather.openMeteo.baseURL, http: http, coordinateDecimals: decimals,
                                            allowPlainHTTP: weather.openMeteo.allowPlainHTTP, clock: system.clock)
        case .openWeatherMap where weather.openWeatherMap.api == .onecall:
            return OneCallWeatherProvider(baseURL: weather.openWeatherMap.baseURL,
                                          apiKey: settings.openWeatherMapKey(environment: environment), http: http,
                                          coordinateDecimals: decimals, allowPlainHTTP: weather.openWeatherMap.allowPlainHTTP,
                                          clock: system.clock)
        case .openWeatherMap:
            return OpenWeatherMapWeatherProvider(baseURL: weather.openWeatherMap.baseURL,
                                                 apiKey: settings.openWeatherMapKey(environment: environment), http: http,
                                                 coordinateDecimals: decimals,
                                                 allowPlainHTTP: weather.openWeatherMap.allowPlainHTTP, clock: system.clock)
        case .metNorway:
            return MetNorwayWeatherProvider(baseURL: weather.metNorway.baseURL, contact: weather.metNorway.contact, http: http,
                                            coordinateDecimals: decimals, allowPlainHTTP: weather.metNorway.allowPlainHTTP,
                                            clock: system.clock, grace: companionGrace)
        case .pirateWeather:
            return PirateWeatherWeatherProvider(baseURL: weather.pirateWeather.baseURL,
                                                apiKey: settings.pirateWeatherKey(environment: environment), http: http,
                                                coordinateDecimals: decimals, allowPlainHTTP: weather.pirateWeather.allowPlainHTTP,
                                                clock: system.clock)
        case .nws:
            return NWSWeatherProvider(baseURL: weather.nws.baseURL, contact: weather.nws.contact, http: http,
                                      coordinateDecimals: decimals, allowPlainHTTP: weather.nws.allowPlainHTTP,
                                      memory: storage.nwsPoints, clock: system.clock, grace: companionGrace)
        }
    }

    /// `provider` with the NWS's official alerts for US points when it has no alerts of its
    /// own (Open-Meteo, MET Norway, OpenWeatherMap's classic API) and `[alerts] nws` is on;
    /// otherwise `provider` itself. The alerts are asked of `[weather.nws] base_url`, with its
    /// contact in the User-Agent when one is set, with the run's grace after the weather.
    func withOfficialAlerts(_ provider: any WeatherProvider) -> any WeatherProvider {
        guard lacksAlerts(provider.kind) else { return provider }
        var provider = provider
        let nws = settings.weather.nws
        if settings.alerts.nws, TransportSecurity.permits(nws.baseURL, allowPlainHTTP: nws.allowPlainHTTP) {
            let fetcher = NWSAlertsFetcher(baseURL: nws.baseURL, contact: nws.contact, http: system.http,
                                           coordinateDecimals: settings.privacy.coordinateDecimals, clock: system.clock)
            provider = NWSAlertsWeatherProvider(base: provider, alerts: fetcher, grace: companionGrace)
        }
        let sources = regionalAlertSources
        guard !sources.isEmpty else { return provider }
        return RegionalAlertsWeatherProvider(base: provider, sources: sources, grace: companionGrace)
    }

    /// The official warnings services outside the US that `[alerts]` turns on, national
    /// services first (a country's own service is asked rather than MeteoAlarm), each only
    /// where its base URL may be used.
    var regionalAlertSources: [any AlertSource] {
        let alerts = settings.alerts
        let decimals = settings.privacy.coordinateDecimals
        let metno = settings.weather.metNorway
        var sources: [any AlertSource] = []
        if alerts.metno, TransportSecurity.permits(metno.baseURL, allowPlainHTTP: metno.allowPlainHTTP) {
            sources.append(MetAlertsSource(baseURL: metno.baseURL, contact: metno.contact, http: system.http,
                                           coordinateDecimals: decimals))
        }
        if alerts.dwd, TransportSecurity.permits(alerts.dwdBaseURL, allowPlainHTTP: false) {
            sources.append(DWDSource(baseURL: alerts.dwdBaseURL, http: system.http, coordinateDecimals: decimals))
        }
        if alerts.meteoalarm, TransportSecurity.permits(alerts.meteoalarmBaseURL, allowPlainHTTP: false) {
            sources.append(MeteoAlarmSource(baseURL: alerts.meteoalarmBaseURL, http: system.http))
        }
        return sources
    }

    /// `provider` with the air quality at the place (Open-Meteo's Air Quality API, for every
    /// provider) when `[air_quality] enabled` is on, with the run's grace after the weather;
    /// otherwise `provider` itself. A base URL that may not be used (plain http to another
    /// machine) sends nothing.
    func withAirQuality(_ provider: any WeatherProvider) -> any WeatherProvider {
        guard let fetcher = airQualityFetcher else { return provider }
        return AirQualityWeatherProvider(base: provider, air: fetcher, grace: companionGrace)
    }

    /// The air quality request reports make (`[air_quality]`), for `withAirQuality` and
    /// `doctor`; `nil` when it is off or its base URL may not be used.
    var airQualityFetcher: AirQualityFetcher? {
        let air = settings.airQuality
        guard air.enabled, TransportSecurity.permits(air.baseURL, allowPlainHTTP: air.allowPlainHTTP) else { return nil }
        return AirQualityFetcher(baseURL: air.baseURL, http: system.http,
                                 coordinateDecimals: settings.privacy.coordinateDecimals, log: system.log)
    }

    /// The NWS alerts request a report of provider `kind` makes for a US point, for `doctor`
    /// to check: the NWS provider's own, or those `withOfficialAlerts` adds (`optional`: they
    /// can be turned off with `[alerts] nws`); `nil` when no such request is made.
    func officialAlerts(for kind: WeatherProviderKind) -> Doctor.OfficialAlerts? {
        let nws = settings.weather.nws
        guard kind == .nws || (settings.alerts.nws && lacksAlerts(kind)),
              TransportSecurity.permits(nws.baseURL, allowPlainHTTP: nws.allowPlainHTTP)
        else { return nil }
        let fetcher = NWSAlertsFetcher(baseURL: nws.baseURL, contact: nws.contact, http: system.http,
                                       coordinateDecimals: settings.privacy.coordinateDecimals, clock: system.clock)
        return Doctor.OfficialAlerts(fetcher: fetcher, optional: kind != .nws)
    }

    /// Whether provider `kind`, as configured, reports no alerts of its own.
    func lacksAlerts(_ kind: WeatherProviderKind) -> Bool {
        switch kind {
        case .openMeteo, .metNorway: return true
        case .openWeatherMap: return settings.weather.openWeatherMap.api == .classic
        case .pirateWeather, .nws: return false
        }
    }

    /// The grace a report's companions (alerts, nowcast, air quality) get after the weather, on the run's
    /// clock, noted in `--verbose`.
    var companionGrace: CompanionGrace {
        CompanionGrace(clock: system.clock, log: system.log)
    }

    /// The geocoding service of weather provider `kind`, for `--city`. MET Norway, Pirate
    /// Weather and the NWS have none: Open-Meteo's (keyless) looks names up for them.
    func geocoder(_ kind: WeatherProviderKind) -> any Geocoder {
        let weather = settings.weather
        switch kind {
        case .openMeteo, .metNorway, .pirateWeather, .nws:
            return OpenMeteoGeocoder(baseURL: weather.openMeteo.geocodingURL, http: system.http,
                                     allowPlainHTTP: weather.openMeteo.allowPlainHTTP)
        case .openWeatherMap:
            return OpenWeatherMapGeocoder(baseURL: weather.openWeatherMap.baseURL,
                                          apiKey: settings.openWeatherMapKey(environment: environment), http: system.http,
                                          allowPlainHTTP: weather.openWeatherMap.allowPlainHTTP)
        }
    }
}
