extension ProviderFactory {
    /// `provider` with the NWS's official alerts for US points when it has no alerts of its
    /// own (Open-Meteo, MET Norway, OpenWeatherMap's classic API) and `[alerts] nws` is on;
    /// otherwise `provider` itself. The alerts are asked of `[weather.nws] base_url`, with its
    /// contact in the User-Agent when one is set, with the run's grace after the weather
    /// (`CompanionGrace`).
    public static func withOfficialAlerts(_ provider: any WeatherProvider, config: Configuration,
                                          system: RunSystem) -> any WeatherProvider {
        guard config.alerts.nws, lacksAlerts(provider.kind, config: config),
              TransportSecurity.permits(config.weather.nws.baseURL, allowPlainHTTP: config.weather.nws.allowPlainHTTP)
        else { return provider }
        let fetcher = NWSAlertsFetcher(baseURL: config.weather.nws.baseURL, contact: config.weather.nws.contact, http: system.http,
                                       coordinateDecimals: config.privacy.coordinateDecimals)
        return NWSAlertsWeatherProvider(base: provider, alerts: fetcher, grace: companionGrace(system))
    }

    /// The NWS alerts request a run of provider `kind` makes for a US point, for `doctor` to
    /// check: the NWS provider's own, or those `withOfficialAlerts` adds (`optional`: they can
    /// be turned off with `[alerts] nws`); `nil` when no such request is made.
    public static func officialAlerts(for kind: WeatherProviderKind, config: Configuration,
                                      system: RunSystem) -> Doctor.OfficialAlerts? {
        guard kind == .nws || (config.alerts.nws && lacksAlerts(kind, config: config)),
              TransportSecurity.permits(config.weather.nws.baseURL, allowPlainHTTP: config.weather.nws.allowPlainHTTP)
        else { return nil }
        let fetcher = NWSAlertsFetcher(baseURL: config.weather.nws.baseURL, contact: config.weather.nws.contact, http: system.http,
                                       coordinateDecimals: config.privacy.coordinateDecimals)
        return Doctor.OfficialAlerts(fetcher: fetcher, optional: kind != .nws)
    }

    /// Whether provider `kind`, as configured, reports no alerts of its own.
    static func lacksAlerts(_ kind: WeatherProviderKind, config: Configuration) -> Bool {
        switch kind {
        case .openMeteo, .metNorway: return true
        case .openWeatherMap: return config.weather.openWeatherMap.api == .classic
        case .pirateWeather, .nws: return false
        }
    }
}
