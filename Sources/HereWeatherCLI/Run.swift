import HereWeatherCore

/// One command's run, assembled once, in one place, from the `CommandContext`, `--config`
/// and `--verbose`:
/// - the config file loaded, its warnings printed once (`configuration`);
/// - the output settings resolved for this run (`output`: the locale's characters; for the
///   commands people read, the language and its customs too: `speaking`), which every renderer receives;
/// - the run's system (`RunSystem`: the HTTP client, the gpsd, GeoClue and NetworkManager
///   adapters, the clock, the `--verbose` log, the console) and its storage (`RunStorage`).
///
/// From these it offers the location provider and request (`Run+Location.swift`), the weather
/// provider stack with its cache and companions (`Run+Weather.swift`) and the progress line
/// (`progress`). How a failure is shown and which exit status it has is decided in one place,
/// `CommandContext.fail` (`RunFailure.swift`). A command makes one `Run`; a later `--follow`
/// would make its lookups on the same one.
struct Run: Sendable {
    let context: CommandContext
    /// The config file as loaded (its path, whether it exists, its warnings: printed).
    let loaded: ConfigurationLoader.Loaded
    /// The configuration, its output settings resolved for this run (`output`).
    let settings: Configuration
    let storage: RunStorage
    let system: RunSystem
    /// `--verbose`: every web request and every skipped source is reported on stderr.
    let verbose: Bool

    var environment: [String: String] { context.environment }
    var console: Console { system.console }
    var configPath: String { loaded.path }
    /// What the renderers receive: icons, clock, the failure line, in the run's characters.
    var output: Configuration.OutputSettings { settings.output }

    /// Loads the config (`--config`, else the environment's file), prints its warnings on
    /// stderr (unless `warningsOnStderr` is off: `doctor` shows them in its report), and
    /// assembles the run's system from the context: with `verbose`, every web request is
    /// reported on stderr as sent, with the config's secrets redacted. Throws the
    /// user-facing error of a config file that cannot be used (66, 78) or of an environment
    /// that names what cannot be used (a CA bundle that cannot be read: 78).
    static func start(_ context: CommandContext, config: ConfigOption, verbose: Bool,
                      warningsOnStderr: Bool = true) throws -> Run {
        let storage = RunStorage(environment: context.environment)
        let loaded = try config.load(defaultPath: storage.configFile)
        if warningsOnStderr { context.console.warn(loaded.warnings) }
        var settings = loaded.configuration
        settings.output = resolvedOutput(settings.output, environment: context.environment)
        var system = try context.assembly.assemble(context.environment, context.console)
        if verbose {
            let console = context.console
            system = system.logging(secrets: settings.secrets(environment: context.environment)) { console.line($0) }
        }
        return Run(context: context, loaded: loaded, settings: settings, storage: storage, system: system, verbose: verbose)
    }

    /// The config file of `option`, loaded, with its warnings printed on the context's
    /// console: for every command that reads it (`start`, `config show`, `permissions`).
    static func configuration(_ context: CommandContext, _ option: ConfigOption,
                              storage: RunStorage) throws -> ConfigurationLoader.Loaded {
        let loaded = try option.load(defaultPath: storage.configFile)
        context.console.warn(loaded.warnings)
        return loaded
    }

    /// The run in its language: `lang` (`--lang`), else `[output] language`, else the
    /// environment's, with the customs that come with it (the clock and units left at "auto",
    /// the characters), decided in one place (`Configuration.forRun`). With `--verbose`, what
    /// was decided and why goes to stderr. Throws when `lang` or the config names a language
    /// here-weather does not speak (64, 78). For the commands whose output people read.
    func speaking(_ lang: String?) throws -> Run {
        let (decided, notes) = try loaded.configuration.forRun(environment: environment, language: lang)
        if verbose { for note in notes { console.line(note) } }
        return Run(context: context, loaded: loaded, settings: decided, storage: storage, system: system, verbose: verbose)
    }

    /// The output settings a run with `environment` uses: the one place the run's character
    /// set is chosen (`TextCharset`: the locale and icons). A failure before the config is
    /// read shows in `resolvedOutput(.init(), ...)`.
    static func resolvedOutput(_ settings: Configuration.OutputSettings,
                               environment: [String: String]) -> Configuration.OutputSettings {
        settings.forLocale(environment)
    }

    /// The progress line for people watching a terminal (`SpinnerPolicy`: stderr a terminal,
    /// `output` not for programs, no `--verbose`), started with `message`; `nil` otherwise.
    func progress(_ message: String, machineOutput: Bool) -> Spinner? {
        guard SpinnerPolicy.shouldShow(stderrIsTerminal: context.terminals.standardError, machineOutput: machineOutput,
                                       verbose: verbose, environment: environment) else { return nil }
        let spinner = Spinner(message, ascii: output.icons == .ascii, console: console)
        spinner.start()
        return spinner
    }
}
