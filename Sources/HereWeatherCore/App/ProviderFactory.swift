/// Builds the location and weather providers a configuration names.
public enum ProviderFactory {
    /// The location source chain: `override` (from `--lat/--lon`) replaces every source.
    public static func locationProvider(_ config: Configuration, configPath: String,
                                        override: FixedPlace?) -> any LocationProvider {
        if let override {
            return FixedLocationProvider(place: override, source: .commandLine, configPath: configPath)
        }
        guard !config.location.sources.isEmpty else { return EmptyLocationProvider(configPath: configPath) }
        return LocationSourceChain(config.location.sources.map { source in
            switch source {
            case .fixed, .commandLine, .gpsd, .nmea, .ip:
                // Only "fixed" passes config validation in this version.
                return FixedLocationProvider(place: config.location.fixed, source: .fixed, configPath: configPath)
            }
        })
    }

    /// The weather provider `kind`, configured from `config` and the environment.
    public static func weatherProvider(_ kind: WeatherProviderKind, config: Configuration,
                                       environment: [String: String], http: any HTTPClient) -> any WeatherProvider {
        switch kind {
        case .openMeteo:
            return OpenMeteoWeatherProvider(baseURL: config.weather.openMeteo.baseURL, http: http)
        case .openWeatherMap:
            return OpenWeatherMapWeatherProvider(baseURL: config.weather.openWeatherMap.baseURL,
                                                 apiKey: config.openWeatherMapKey(environment: environment), http: http)
        }
    }
}

/// The provider for `sources = []`: fails with a message saying how to add one.
struct EmptyLocationProvider: LocationProvider {
    let configPath: String
    var source: LocationSource { .fixed }
    func requestLocation(_ request: LocationRequest) async throws -> Location {
        throw LocationError.noSources(configPath: configPath)
    }
}
