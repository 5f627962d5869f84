import ArgumentParser
import HereWeatherCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `here-weather doctor`: what works, and what to fix.
struct DoctorCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the config, each location source and the weather service, and say what to fix.",
        discussion: """
        Sources are probed only when permitted (nothing is sent to a third party without \
        permission), each with a 5 s deadline. Exit status: 0 when every check passed, 1 \
        when any failed, 78 when the config file itself is wrong. The text fits COLUMNS (else \
        the terminal, else 80 columns); --json prints {"ok":...,"checks":[{"name","status","detail"}]}.
        """
    )

    @OptionGroup var configFile: ConfigOption

    @Flag(help: "Print the checks as one JSON object on one line.")
    var json = false

    @OptionGroup var verbosity: VerboseOption

    func run(in context: CommandContext) async throws {
        let run: Run
        let resolver: PermissionResolver
        do {
            run = try Run.start(context, config: configFile, verbose: verbosity.verbose, warningsOnStderr: false)
            resolver = try PermissionResolver.load(configuration: run.settings, configPath: run.configPath,
                                                   environment: run.environment, asRoot: context.runsAsRoot,
                                                   store: run.storage.permissions)
        } catch let error as any UserFacingError {
            throw context.fail(error, as: .doctorCheck(json: json))
        }
        // The config's warnings are its check's detail.
        let loaded = run.loaded
        let path = run.configPath
        var checks = [Doctor.Check(name: "config", status: loaded.warnings.isEmpty ? .ok : .warn,
                                   detail: (loaded.fileExists ? path : "\(path) (not found: defaults)")
                                    + loaded.warnings.map { "; " + $0 }.joined())]
        // The same sources a report would ask, made by the same Run; GeoClue learns here too
        // (and forgets once it answers), but doctor always asks it, and asks the Wi-Fi
        // service itself rather than its remembered answers.
        let providers = run.settings.location.sources.map {
            run.sourceProvider($0, skipsWithoutAgent: false, wifiMemory: nil)
        }
        // With a fixed location that answers, a source not yet decided is not needed: the
        // row says so rather than push the user to allow it.
        let fixedAnswers = run.settings.location.fixed != nil && run.settings.location.sources.contains(.fixed)
            && resolver.decide(.fixed) == .allowed
        var doctor = Doctor(
            providers: providers,
            permission: { source in
                switch resolver.decide(source) {
                case .allowed: return nil
                case .ask where fixedAnswers:
                    return "not probed: permission not decided, and not needed: the fixed location answers"
                case .ask: return "not probed: permission not decided; run `here-weather permissions allow \(source.rawValue)`"
                case .refused(let error): return "not probed: " + error.message
                }
            },
            weather: run.weatherProvider(run.settings.weather.provider),
            units: run.settings.weather.units,
            skipsAbsentSources: run.settings.location.isZeroConfig,
            clock: run.system.clock)
        doctor.officialAlerts = run.officialAlerts(for: run.settings.weather.provider)
        doctor.regionalAlerts = run.regionalAlertSources
        doctor.airQuality = run.airQualityFetcher
        let clock = run.system.clock
        let geoClueMemory = run.storage.geoClueAgent
        doctor.remembered = { source in
            guard source == .geoclue, let remembered = geoClueMemory.load(now: clock.date) else { return nil }
            return geoClueMemory.note(remembered)
        }
        checks += await doctor.run()
        // The checks at the report's width, in the run's characters (`TextCharset`: the
        // locale's, ASCII with `icons = "ascii"`), or as JSON.
        let charset = TextCharset.choose(environment: context.environment, icons: run.settings.output.icons)
        try context.output(json ? Doctor.json(checks) : Doctor.render(checks, width: context.reportWidth, charset: charset))
        if checks.contains(where: { $0.status == .fail }) { throw ExitCode(ExitStatus.checkFailed.rawValue) }
    }
}
