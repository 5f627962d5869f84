import HereWeatherCore

/// The run's location: the provider and the request the config and the options ask for,
/// every source made from the run's system and storage.
extension Run {
    /// The location provider and request for this run with `options` applied. Configured
    /// sources go through the permission system (prompting on a terminal); explicit input
    /// (`--lat/--lon`, `--city`, `--replay`) needs no permission. `--city` asks the geocoding
    /// service of `geocodingProvider`, else of `[weather] provider`.
    func location(_ options: LocationOptions,
                  geocodingProvider: WeatherProviderKind? = nil) throws -> (any LocationProvider, LocationRequest) {
        let override = options.override
        var authorizer: any LocationAuthorizer = AllowAllAuthorizer()
        if override == nil {
            let terminal = try TerminalPermissionAuthorizer.make(configuration: settings, configPath: configPath,
                                                                 environment: environment, asRoot: context.runsAsRoot,
                                                                 store: storage.permissions,
                                                                 prompt: context.prompt)
            console.warn(terminal.warnings)
            authorizer = terminal
        }
        let located = locationProvider(override: override, only: options.sources.isEmpty ? nil : options.onlySources,
                                       authorizer: authorizer, geocodingProvider: geocodingProvider)
        let provider = NearbyPlaceLocationProvider.wrapping(located, enabled: settings.privacy.placeNames)
        let request = Self.locationRequest(settings, accuracy: options.accuracy?.value, timeout: options.timeout,
                                           maxAge: options.maxAge.flatMap(LocationOptions.seconds(maxAge:)),
                                           start: system.clock.now)
        return (provider, request)
    }

    /// The location source chain in the configured order (or `only`, from `--source`), or the
    /// command line's override. Explicit input needs no permission and is not remembered;
    /// configured sources go through `authorizer` and answer from the last good location
    /// while it is fresh. The zero-config chain skips sources absent from the machine. The
    /// Wi-Fi source remembers its answers against the access points; GeoClue remembers that
    /// it had no agent, which only the zero-config chain acts on (`GeoClueAgentGate`; not with
    /// `--source`, nor with `[location.geoclue] permission` written in the file).
    func locationProvider(override: LocationOverride?, only: [LocationSource]?, authorizer: any LocationAuthorizer,
                          geocodingProvider: WeatherProviderKind?) -> any LocationProvider {
        switch override {
        case .coordinate(let place):
            return FixedLocationProvider(place: place, origin: .commandLine, configPath: configPath, clock: system.clock)
        case .replay(let path, let speed):
            return NMEAReplayLocationProvider(path: path, speed: speed, clock: system.clock)
        case .city(let query):
            return CitySearchLocationProvider(query: query, geocoder: geocoder(geocodingProvider ?? settings.weather.provider),
                                              clock: system.clock)
        case nil:
            break
        }
        let sources = only ?? settings.location.sources
        guard !sources.isEmpty else { return EmptyLocationProvider(configPath: configPath) }
        let zeroConfig = only == nil && settings.location.isZeroConfig
        let providers = sources.map { source -> any LocationSourceProvider in
            sourceProvider(source, skipsWithoutAgent: zeroConfig && settings.location.permissions[.geoclue] == nil,
                           wifiMemory: storage.wifiNeighbourhood)
        }
        let chain = LocationSourceChain(providers, authorizer: authorizer, skipsAbsentSources: zeroConfig,
                                        configPath: configPath, clock: system.clock)
        return RememberingLocationProvider(base: chain, store: storage.lastLocation, sources: Set(sources),
                                           authorizer: authorizer, clock: system.clock)
    }

    /// The provider for one configured source. GeoClue learns what its missing agent looks
    /// like (and, with `skipsWithoutAgent`, acts on it: `GeoClueAgentGate`); the Wi-Fi source
    /// answers from `wifiMemory` when it has one (`doctor` asks the service itself).
    func sourceProvider(_ source: LocationSource, skipsWithoutAgent: Bool,
                        wifiMemory: WiFiNeighbourhoodMemory?) -> any LocationSourceProvider {
        let location = settings.location
        switch source {
        case .gpsd:
            return system.gpsd(location.gpsd)
        case .geoclue:
            let provider = system.geoClue()
            let environment = self.environment
            return GeoClueAgentGate(base: provider, memory: storage.geoClueAgent, watch: provider as? any GeoClueAgentWatch,
                                    situation: { GeoClueAgentSituation.current(date: $0, environment: environment) },
                                    clock: system.clock, skips: skipsWithoutAgent, log: system.log)
        case .wifi:
            return WiFiLocationProvider(settings: location.wifi, scanner: system.wifiScanner, http: system.http,
                                        memory: wifiMemory, configPath: configPath, clock: system.clock)
        case .nmea:
            guard let path = location.nmea.path else { return MissingNMEAPathProvider(configPath: configPath) }
            return NMEAReplayLocationProvider(path: path, speed: location.nmea.speed, clock: system.clock)
        case .ip:
            return IPLocationProvider(settings: location.ip, http: system.http, configPath: configPath, clock: system.clock)
        case .fixed:
            return FixedLocationProvider(place: location.fixed, configPath: configPath, clock: system.clock)
        }
    }

    /// The request `config` asks for, with command-line values taking precedence, its
    /// deadline counted from `start` (the run's clock's now).
    static func locationRequest(_ config: Configuration, accuracy: DesiredAccuracy?, timeout: Double?,
                                maxAge: Double??, start: ContinuousClock.Instant) -> LocationRequest {
        let bounds = Configuration.LocationSettings.self
        let seconds = clamp(timeout ?? config.location.timeout, to: bounds.timeoutRange)
        let age = (maxAge ?? config.location.maxAge).map { clamp($0, to: bounds.maxAgeRange) }
        return LocationRequest(desiredAccuracy: accuracy ?? config.location.accuracy,
                               timeout: .milliseconds(Int64(seconds * 1000)),
                               maxAge: age.map { .milliseconds(Int64($0 * 1000)) }, start: start)
    }

    /// `value` within `range` (NaN as its lower end): the flags and the config file are
    /// checked against the same ranges; this keeps any other caller's value from trapping
    /// when it becomes a `Duration`.
    static func clamp(_ value: Double, to range: ClosedRange<Double>) -> Double {
        value.isNaN ? range.lowerBound : min(max(value, range.lowerBound), range.upperBound)
    }
}
