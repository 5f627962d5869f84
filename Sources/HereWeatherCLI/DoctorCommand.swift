import ArgumentParser
import HereWeatherCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `here-weather doctor`: what works, and what to fix.
struct DoctorCommand: AsyncParsableCommand {
    /// The checks as text at the report's width in the run's characters (`TextCharset`: the
    /// locale's, ASCII with `icons = "ascii"`), or as JSON.
    func show(_ checks: [Doctor.Check], icons: GlyphSet = .emoji) throws {
        let context = CommandContext.current
        let charset = TextCharset.choose(environment: context.environment, icons: icons)
        try Terminal.output(json ? Doctor.json(checks) : Doctor.render(checks, width: context.reportWidth, charset: charset))
    }

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

    func run() async throws {
        let environment = CommandContext.current.environment
        let path = configFile.path(environment: environment)
        let loaded: ConfigurationLoader.Loaded
        let resolver: PermissionResolver
        let system: RunSystem
        do {
            loaded = try configFile.load(environment: environment)
            resolver = try PermissionResolver.load(configuration: loaded.configuration, configPath: path,
                                                   environment: environment, asRoot: CommandContext.current.runsAsRoot)
            system = try verbosity.system(for: loaded.configuration)
        } catch let error as any UserFacingError {
            try show([Doctor.Check(name: "config", status: .fail, detail: error.message)])
            throw ExitCode(error.exitStatus.rawValue)
        }
        let settings = loaded.configuration
        let configStatus = loaded.warnings.isEmpty ? Doctor.Check.Status.ok : .warn
        var checks = [Doctor.Check(name: "config", status: configStatus,
                                   detail: (loaded.fileExists ? path : "\(path) (not found: defaults)")
                                    + loaded.warnings.map { "; " + $0 }.joined())]
        // GeoClue learns here too (and forgets once it answers); doctor itself always asks it.
        let geoClueMemory = GeoClueAgentMemory(paths: ConfigurationPaths(environment: environment))
        let providers = settings.location.sources.map { source -> any LocationSourceProvider in
            let provider = ProviderFactory.sourceProvider(source, settings, configPath: path, system: system)
            guard source == .geoclue else { return provider }
            return ProviderFactory.geoClueGate(provider, memory: geoClueMemory, system: system, environment: environment,
                                               skips: false)
        }
        var doctor = Doctor(
            providers: providers,
            permission: { source in
                switch resolver.decide(source) {
                case .allowed: return nil
                case .ask: return "not probed: permission not decided; run `here-weather permissions allow \(source.rawValue)`"
                case .refused(let error): return "not probed: " + error.message
                }
            },
            weather: ProviderFactory.weatherProvider(settings.weather.provider, config: settings,
                                                     environment: environment, system: system),
            units: settings.weather.units,
            skipsAbsentSources: settings.location.isZeroConfig)
        let clock = system.clock
        doctor.remembered = { source in
            guard source == .geoclue, let remembered = geoClueMemory.load(now: clock.date) else { return nil }
            return geoClueMemory.note(remembered)
        }
        checks += await doctor.run()
        try show(checks, icons: settings.output.icons)
        if checks.contains(where: { $0.status == .fail }) { throw ExitCode(ExitStatus.checkFailed.rawValue) }
    }
}
