import ArgumentParser
import HereWeatherCore
import HereWeatherDBus
import HereWeatherGPSD
import HereWeatherHTTP
import HereWeatherWiFi
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The options that say where "here" is and how to find it, shared by `report` and `where`.
struct LocationOptions: ParsableArguments {
    @Option(name: .customLong("lat"), parsing: .unconditional,
            help: ArgumentHelp("Latitude in decimal degrees (-90 to 90); with --lon, overrides every location source.", valueName: "degrees"))
    var latitude: Double?

    @Option(name: .customLong("lon"), parsing: .unconditional,
            help: ArgumentHelp("Longitude in decimal degrees (-180 to 180); use with --lat.", valueName: "degrees"))
    var longitude: Double?

    @Option(help: ArgumentHelp("Look up this place by name with the weather provider's geocoding service (Open-Meteo's for metno and pirateweather): \"Melbourne\", \"Melbourne, AU\", \"Melbourne, Florida\"; overrides every location source.", valueName: "name"))
    var city: String?

    @Option(help: ArgumentHelp("Desired accuracy: \(DesiredAccuracy.choices) (default 3km: weather needs no more).", valueName: "level"))
    var accuracy: String?

    @Option(help: ArgumentHelp("Seconds the whole location request may take (default 10).", valueName: "seconds"))
    var timeout: Double?

    @Option(name: .customLong("max-age"),
            help: ArgumentHelp("Ignore fixes older than this many seconds, or 'off' (default 300).", valueName: "seconds|off"))
    var maxAge: String?

    @Option(help: ArgumentHelp("Play back an NMEA 0183 log (or read a serial device) as the location source.", valueName: "file"))
    var replay: String?

    @Option(name: .customLong("replay-speed"),
            help: ArgumentHelp("Playback speed: 'max' (default: read as fast as possible) or a factor (1 = recorded pace).", valueName: "N|max"))
    var replaySpeed: String?

    @Option(name: .customLong("source"),
            help: ArgumentHelp("Use only this location source for this run (\(LocationSource.allCases.map(\.rawValue).joined(separator: ", "))); repeatable, in priority order.", valueName: "name"))
    var sources: [String] = []

    @Option(help: ArgumentHelp("Use this config file instead of the default.", valueName: "file"))
    var config: String?

    @Flag(help: "Show each web request exactly as sent (keys redacted), on stderr.")
    var verbose = false

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
        if let accuracy, DesiredAccuracy(accuracy) == nil {
            throw ValidationError("--accuracy must be \(DesiredAccuracy.choices) (got \"\(ServiceText.printable(accuracy))\").")
        }
        let bounds = Configuration.LocationSettings.self
        if let timeout, !bounds.timeoutRange.contains(timeout) {
            throw ValidationError("--timeout must be a number of seconds from \(Self.format(bounds.timeoutRange)).")
        }
        if let maxAge, maxAge != "off", Double(maxAge).map(bounds.maxAgeRange.contains) != true {
            throw ValidationError("--max-age must be a number of seconds from \(Self.format(bounds.maxAgeRange)), "
                                  + "or 'off' (got \"\(ServiceText.printable(maxAge))\").")
        }
        if let replaySpeed, ReplaySpeed(replaySpeed) == nil {
            throw ValidationError("--replay-speed must be 'max' or a positive number (got \"\(ServiceText.printable(replaySpeed))\").")
        }
        for source in sources where !LocationSource.allCases.contains(where: { $0.rawValue == source }) {
            throw ValidationError("--source must be one of " + LocationSource.allCases.map(\.rawValue).joined(separator: ", ") + " (got \"\(ServiceText.printable(source))\").")
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
        "\(Int(range.lowerBound)) to \(Int(range.upperBound))"
    }

    /// The config file's path: --config, else the environment's.
    func configPath(environment: [String: String]) -> String {
        config ?? ConfigurationPaths(environment: environment).configFile
    }

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

    /// The HTTP client for web services: libcurl, trusting the CAs `environment` names
    /// (`CURL_CA_BUNDLE`, `SSL_CERT_DIR`, `SSL_CERT_FILE`), reporting each request with `--verbose`.
    static func httpClient(verbose: Bool, secrets: [String], environment: [String: String]) throws -> any HTTPClient {
        let client = CurlHTTPClient(trust: try CertificateTrust.fromEnvironment(environment))
        guard verbose else { return client }
        return LoggingHTTPClient(base: client, secrets: secrets) { Terminal.standardError($0) }
    }

    /// `httpClient(verbose:secrets:environment:)` with `--verbose` as given.
    func httpClient(secrets: [String], environment: [String: String]) throws -> any HTTPClient {
        try Self.httpClient(verbose: verbose, secrets: secrets, environment: environment)
    }

    /// The location provider and request for `loaded`, with these options applied. Configured
    /// sources go through the permission system (prompting on a terminal); explicit input
    /// (`--lat/--lon`, `--city`, `--replay`) needs no permission. `--city` asks the geocoding
    /// service of `geocodingProvider`, else of `[weather] provider`.
    func locationSetup(_ loaded: ConfigurationLoader.Loaded, environment: [String: String],
                       geocodingProvider: WeatherProviderKind? = nil) throws
        -> (any LocationProvider, LocationRequest) {
        let settings = loaded.configuration
        let only = sources.isEmpty ? nil : sources.compactMap(LocationSource.init(rawValue:))
        var authorizer: any LocationAuthorizer = AllowAllAuthorizer()
        if override == nil {
            let terminal = try TerminalPermissionAuthorizer.make(configuration: settings, configPath: loaded.path,
                                                                 environment: environment)
            Terminal.warn(terminal.warnings)
            authorizer = terminal
        }
        let located = ProviderFactory.locationProvider(
            settings, configPath: loaded.path, override: override, only: only, authorizer: authorizer,
            memory: LastLocationStore(paths: ConfigurationPaths(environment: environment)),
            http: try httpClient(secrets: ProviderFactory.secrets(settings, environment: environment), environment: environment),
            environment: environment, geocodingProvider: geocodingProvider,
            wifiScanner: NetworkManagerScanner(),
            wifiMemory: WiFiNeighbourhoodMemory(paths: ConfigurationPaths(environment: environment)),
            makeGeoClue: { GeoClueLocationProvider() }
        ) {
            GPSDLocationProvider(host: $0.host, port: $0.port)
        }
        let provider = NearbyPlaceLocationProvider.wrapping(located, enabled: settings.privacy.placeNames)
        let age: Double?? = maxAge.map { $0 == "off" ? nil : Double($0) }
        let request = ProviderFactory.locationRequest(settings, accuracy: accuracy.flatMap(DesiredAccuracy.init),
                                                      timeout: timeout, maxAge: age)
        return (provider, request)
    }
}
