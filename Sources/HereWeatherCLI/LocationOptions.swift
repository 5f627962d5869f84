import ArgumentParser
import HereWeatherCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The options that say where "here" is and how to find it, shared by `report` and `where`.
struct LocationOptions: ParsableArguments {
    @Option(name: .customLong("lat"), parsing: .unconditional,
            help: ArgumentHelp("Latitude in decimal degrees (-90 to 90); with --lon, overrides every location source.", valueName: "degrees"),
            transform: Self.decimal)
    var latitude: Double?

    @Option(name: .customLong("lon"), parsing: .unconditional,
            help: ArgumentHelp("Longitude in decimal degrees (-180 to 180); use with --lat.", valueName: "degrees"),
            transform: Self.decimal)
    var longitude: Double?

    @Option(help: ArgumentHelp("Look up this place by name with the weather provider's geocoding service (Open-Meteo's for metno, pirateweather and nws): \"Melbourne\", \"Melbourne, AU\", \"Melbourne, Florida\"; overrides every location source.", valueName: "name"))
    var city: String?

    @Option(help: ArgumentHelp("Desired accuracy (default 3km: weather needs no more).", valueName: "level"))
    var accuracy: Choice<DesiredAccuracy>?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Seconds the whole location request may take (default 10).", valueName: "seconds"),
            transform: Self.decimal)
    var timeout: Double?

    @Option(name: .customLong("max-age"), parsing: .unconditional,
            help: ArgumentHelp("Ignore fixes older than this many seconds, or 'off' (default 300).", valueName: "seconds|off"))
    var maxAge: String?

    @Option(help: ArgumentHelp("Play back an NMEA 0183 log (or read a serial device) as the location source.", valueName: "file"),
            completion: .file())
    var replay: String?

    @Option(name: .customLong("replay-speed"), parsing: .unconditional,
            help: ArgumentHelp("Playback speed: 'max' (default: read as fast as possible) or a factor (1 = recorded pace).", valueName: "N|max"))
    var replaySpeed: String?

    @Option(name: .customLong("source"),
            help: ArgumentHelp("Use only this location source for this run; repeatable, in priority order.", valueName: "name"))
    var sources: [Choice<LocationSource>] = []

    @OptionGroup var configFile: ConfigOption

    @OptionGroup var verbosity: VerboseOption

    /// A number option's value: decimal only (`-82.46`, `1e1`), never hexadecimal (`0x10`),
    /// `inf` or `nan`, which `Double(String)` would take.
    static func decimal(_ text: String) throws -> Double {
        guard let value = DecimalText.number(text) else { throw ValidationError("'\(text)' is not a decimal number.") }
        return value
    }

    func validate() throws {
        if (latitude == nil) != (longitude == nil) {
            throw ValidationError("--lat and --lon go together: give both, or neither.")
        }
        if let latitude, !(latitude.isFinite && (-90...90).contains(latitude)) {
            throw ValidationError("--lat must be a latitude from -90 to 90 degrees.")
        }
        if let longitude, !(longitude.isFinite && (-180...180).contains(longitude)) {
            throw ValidationError("--lon must be a longitude from -180 to 180 degrees.")
        }
        if latitude != nil && replay != nil {
            throw ValidationError("--lat/--lon and --replay both give the location: use one.")
        }
        if let city {
            guard CityQuery(city) != nil else {
                throw ValidationError("--city needs a place name, e.g. --city \"Melbourne, AU\".")
            }
            if latitude != nil || replay != nil {
                throw ValidationError("--city and \(latitude != nil ? "--lat/--lon" : "--replay") both give the location: use one.")
            }
        }
        _ = try accuracy?.checked("--accuracy")
        let bounds = Configuration.LocationSettings.self
        if let timeout, !bounds.timeoutRange.contains(timeout) {
            throw ValidationError("--timeout must be from \(Self.format(bounds.timeoutRange)) seconds (got \(Self.format(timeout))).")
        }
        if let maxAge, Self.seconds(maxAge: maxAge) == nil {
            throw ValidationError("--max-age must be 'off' or from \(Self.format(bounds.maxAgeRange)) seconds "
                                  + "(got \"\(ServiceText.printable(maxAge))\").")
        }
        if let replaySpeed, ReplaySpeed(replaySpeed) == nil {
            throw ValidationError("--replay-speed must be 'max' or a positive number (got \"\(ServiceText.printable(replaySpeed))\").")
        }
        for source in sources {
            _ = try source.checked("--source")
        }
        if !sources.isEmpty && (replay != nil || latitude != nil || city != nil) {
            throw ValidationError("--source chooses among configured sources; --lat/--lon, --city and --replay replace them all.")
        }
        if replaySpeed != nil && replay == nil {
            throw ValidationError("--replay-speed goes with --replay FILE.")
        }
    }

    /// "1 to 3600".
    static func format(_ range: ClosedRange<Double>) -> String {
        "\(format(range.lowerBound)) to \(format(range.upperBound))"
    }

    /// `3`, `0.5`, `-3`: a number as typed, without a needless ".0".
    static func format(_ value: Double) -> String {
        value.isFinite && value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    /// What `--max-age TEXT` means: `.some(nil)` for `off` (any age), `.some(seconds)` within the
    /// config's bounds, `nil` for anything else.
    static func seconds(maxAge text: String) -> Double?? {
        if text.lowercased() == "off" { return .some(nil) }
        guard let seconds = DecimalText.number(text), Configuration.LocationSettings.maxAgeRange.contains(seconds) else { return nil }
        return .some(seconds)
    }

    /// The sources `--source` names, in the order given.
    var onlySources: [LocationSource] { sources.compactMap(\.value) }

    /// The command line's explicit location, if any.
    var override: LocationOverride? {
        if let latitude, let longitude {
            return .coordinate(FixedPlace(coordinate: Coordinate(latitude: latitude, longitude: longitude)))
        }
        if let replay {
            return .replay(path: replay, speed: replaySpeed.flatMap(ReplaySpeed.init) ?? .max)
        }
        if let query = city.flatMap(CityQuery.init) {
            return .city(query)
        }
        return nil
    }

    /// The location provider and request for `loaded`, with these options applied. Configured
    /// sources go through the permission system (prompting on a terminal); explicit input
    /// (`--lat/--lon`, `--city`, `--replay`) needs no permission. `--city` asks the geocoding
    /// service of `geocodingProvider`, else of `[weather] provider`. Every source is made
    /// from the run's `system`.
    func locationSetup(_ loaded: ConfigurationLoader.Loaded, system: RunSystem, environment: [String: String],
                       geocodingProvider: WeatherProviderKind? = nil) throws
        -> (any LocationProvider, LocationRequest) {
        let settings = loaded.configuration
        let only = sources.isEmpty ? nil : onlySources
        var authorizer: any LocationAuthorizer = AllowAllAuthorizer()
        if override == nil {
            let terminal = try TerminalPermissionAuthorizer.make(configuration: settings, configPath: loaded.path,
                                                                 environment: environment,
                                                                 asRoot: CommandContext.current.runsAsRoot,
                                                                 prompt: CommandContext.current.prompt)
            Terminal.warn(terminal.warnings)
            authorizer = terminal
        }
        let paths = ConfigurationPaths(environment: environment)
        let located = ProviderFactory.locationProvider(
            settings, configPath: loaded.path, override: override, system: system, only: only, authorizer: authorizer,
            memory: LastLocationStore(paths: paths), environment: environment, geocodingProvider: geocodingProvider,
            wifiMemory: WiFiNeighbourhoodMemory(paths: paths), geoClueMemory: GeoClueAgentMemory(paths: paths))
        let provider = NearbyPlaceLocationProvider.wrapping(located, enabled: settings.privacy.placeNames)
        let request = ProviderFactory.locationRequest(settings, accuracy: accuracy?.value, timeout: timeout,
                                                      maxAge: maxAge.flatMap(Self.seconds(maxAge:)))
        return (provider, request.starting(at: system.clock.now))
    }

    /// The location sources this run may wait on, for the spinner's words.
    func waitedSources(_ settings: Configuration) -> [LocationSource] {
        if latitude != nil { return [] }
        if replay != nil { return [.nmea] }
        if !onlySources.isEmpty { return onlySources }
        // The zero-config chain names sources that may not be present: no promise of a GPS fix.
        return settings.location.isZeroConfig ? [] : settings.location.sources
    }
}
