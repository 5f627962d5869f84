import ArgumentParser
import HereWeatherCore
import HereWeatherHTTP
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The default command: locate, fetch, print.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Print the weather here (the default command)."
    )

    @OptionGroup var location: LocationOptions

    @Option(help: ArgumentHelp("metric (°C, m/s, mm), imperial (°F, mph, in) or standard (K, m/s, mm).", valueName: "system"))
    var units: String?

    @Option(help: ArgumentHelp("open-meteo or openweathermap (default from the config: open-meteo).", valueName: "name"))
    var provider: String?

    @Flag(help: "Print one JSON object (schema in the README); errors as {\"error\":{...}}.")
    var json = false

    @Flag(help: "Add the next 12 hours.")
    var hourly = false

    @Flag(help: "Add the next days (up to 7).")
    var daily = false

    @Option(name: .customLong("weather-replay"),
            help: ArgumentHelp("Read a recorded provider response from FILE instead of the network.", valueName: "file"))
    var weatherReplay: String?

    @Flag(name: .customLong("no-stale"),
          help: "Fail (exit 69) when the weather service cannot be reached, rather than show an older cached report.")
    var noStale = false

    @Flag(name: .customLong("no-cache"), help: "Ask the weather service even when a fresh cached report exists (the answer is still cached).")
    var noCache = false

    func validate() throws {
        if let units, Units(rawValue: units) == nil {
            throw ValidationError("--units must be metric, imperial or standard (got \"\(units)\").")
        }
        if let provider, WeatherProviderKind(rawValue: provider) == nil {
            throw ValidationError("--provider must be open-meteo or openweathermap (got \"\(provider)\").")
        }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        do {
            let loaded = try ConfigurationLoader.load(path: location.configPath(environment: environment))
            Terminal.warn(loaded.warnings)
            let settings = loaded.configuration
            let (locationProvider, request) = try location.locationSetup(loaded, environment: environment)
            let kind = provider.flatMap(WeatherProviderKind.init(rawValue:)) ?? settings.weather.provider
            var weatherProvider = ProviderFactory.weatherProvider(kind, config: settings, environment: environment,
                                                                  http: location.httpClient(secrets: ProviderFactory.secrets(settings, environment: environment)))
            if weatherReplay == nil {
                weatherProvider = CachingWeatherProvider(base: weatherProvider, config: settings,
                                                         paths: ConfigurationPaths(environment: environment),
                                                         readsFreshEntries: !noCache, allowsStale: !noStale)
            }
            let lookup = WeatherLookup(
                locationProvider: locationProvider,
                locationRequest: request,
                weatherProvider: weatherProvider,
                units: units.flatMap(Units.init(rawValue:)) ?? settings.weather.units,
                weatherTimeout: settings.weather.timeout,
                recording: try weatherReplay.map(Self.readRecording))
            let (location, report) = try await lookup.run()
            if json {
                print(JSONReport.render(location: location, report: report))
            } else {
                let style = TerminalStyle.forOutput(isTerminal: isatty(STDOUT_FILENO) == 1, environment: environment)
                print(TextReport(location: location, report: report, style: style).render(hourly: hourly, daily: daily))
            }
        } catch let error as any UserFacingError {
            throw Terminal.fail(error, json: json)
        }
    }

    static func readRecording(_ path: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "no such file"
            throw WeatherError.recordingUnreadable(path: path, reason: reason)
        }
    }
}
