import ArgumentParser
import HereWeatherCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The options that say where "here" is and how to find it, shared by `report` and `where`:
/// plain values, which the command's `Run` applies (`Run.location`).
struct LocationOptions: ParsableArguments {
    @Option(name: .customLong("lat"), parsing: .unconditional,
            help: ArgumentHelp("Latitude in decimal degrees (-90 to 90); with --lon, overrides every location source.", valueName: "degrees"),
            transform: { try Self.decimal($0, Self.latitudeRule) })
    var latitude: Double?

    @Option(name: .customLong("lon"), parsing: .unconditional,
            help: ArgumentHelp("Longitude in decimal degrees (-180 to 180); use with --lat.", valueName: "degrees"),
            transform: { try Self.decimal($0, Self.longitudeRule) })
    var longitude: Double?

    @Option(help: ArgumentHelp("Look up this place by name with the weather provider's geocoding service (Open-Meteo's for metno, pirateweather and nws): \"Melbourne\", \"Melbourne, AU\", \"Melbourne, Florida\"; overrides every location source.", valueName: "name"))
    var city: String?

    @Option(help: ArgumentHelp("Desired accuracy (default 3km: weather needs no more).", valueName: "level"))
    var accuracy: Choice<DesiredAccuracy>?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Seconds the whole location request may take (default 10).", valueName: "seconds"),
            transform: { try Self.decimal($0, Self.timeoutRule) })
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
    /// `inf` or `nan`, which `Double(String)` would take. `rule` says what the option takes,
    /// after "use" (`UsageWording` names the option and the value).
    static func decimal(_ text: String, _ rule: String) throws -> Double {
        guard let value = DecimalText.number(text) else { throw ValidationError("use \(rule).") }
        return value
    }

    static let latitudeRule = "a number from -90 to 90 (degrees)"
    static let longitudeRule = "a number from -180 to 180 (degrees)"
    static var timeoutRule: String {
        "a number of seconds from \(format(Configuration.LocationSettings.timeoutRange))"
    }

    /// `Invalid value '91' for --lat: use a number from -90 to 90 (degrees).`
    static func invalid(_ option: String, _ value: String, _ rule: String) -> ValidationError {
        ValidationError("Invalid value '\(ServiceText.printable(value))' for \(option): use \(rule).")
    }

    func validate() throws {
        if (latitude == nil) != (longitude == nil) {
            throw ValidationError("--lat and --lon go together: give both, or neither.")
        }
        if let latitude, !(latitude.isFinite && (-90...90).contains(latitude)) {
            throw Self.invalid("--lat", Self.format(latitude), Self.latitudeRule)
        }
        if let longitude, !(longitude.isFinite && (-180...180).contains(longitude)) {
            throw Self.invalid("--lon", Self.format(longitude), Self.longitudeRule)
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
            throw Self.invalid("--timeout", Self.format(timeout), Self.timeoutRule)
        }
        if let maxAge, Self.seconds(maxAge: maxAge) == nil {
            throw Self.invalid("--max-age", maxAge, "'off' or a number of seconds from \(Self.format(bounds.maxAgeRange))")
        }
        if let replaySpeed, ReplaySpeed(replaySpeed) == nil {
            throw Self.invalid("--replay-speed", replaySpeed, "'max' or a positive number")
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

    /// The location sources this run may wait on, for the spinner's words.
    func waitedSources(_ settings: Configuration) -> [LocationSource] {
        if latitude != nil { return [] }
        if replay != nil { return [.nmea] }
        if !onlySources.isEmpty { return onlySources }
        // The zero-config chain names sources that may not be present: no promise of a GPS fix.
        return settings.location.isZeroConfig ? [] : settings.location.sources
    }
}
