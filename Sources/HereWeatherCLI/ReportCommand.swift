import ArgumentParser
import HereWeatherCore
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
        abstract: "Print the weather here (the default command).",
        discussion: """
        One-line formats (--format, for i3blocks, polybar, tmux and prompts) use wttr.in's \
        %-codes where the meaning is the same; 1 to 4 are wttr.in's presets ("3" is "%l: %c %t"):
        \(FormatString.codeList)

        Example: here-weather --format '%c %t %w'  →  ☀️ 26.8°C ↙4.9m/s

        A stale report (an old one shown because the service could not be reached) ends in \
        "(offline 3 h)" unless %O places it. On failure --format prints one line \
        ("⚠️ no location"; [output] format_error sets it) and exits with the error's status.

        --waybar prints {"text","tooltip","class","alt"} for a waybar custom module with \
        "return-type": "json"; text is --format (default "\(WaybarReport.defaultText)"). \
        On failure it still prints a line (class "error") and exits 0, so the bar shows \
        what is wrong.

        [output] icons = "emoji" | "nerd" | "ascii" and clock = "auto" | "24h" | "12h" in the \
        config file choose the glyphs and the clock for text, --format and --waybar.

        Reports speak the language of --lang, [output] language or the environment (LANGUAGE, \
        LC_ALL, LC_MESSAGES, LANG, as gettext reads them): \(LanguageChoice.available). \
        Errors, --help and doctor stay English; JSON's codes and keys never change.
        """
    )

    @OptionGroup var location: LocationOptions

    @Option(name: .customLong("lang"), help: LanguageOption.help)
    var lang: String?

    @Option(help: ArgumentHelp("metric (°C, m/s, mm), imperial (°F, mph, in) or standard (K, m/s, mm).", valueName: "system"))
    var units: Choice<Units>?

    @Option(help: ArgumentHelp("The weather service (default from the config: open-meteo).", valueName: "name"))
    var provider: Choice<WeatherProviderKind>?

    @Flag(help: "Print the report as one JSON object on one line; errors as {\"error\":{...}}.")
    var json = false

    @Option(help: ArgumentHelp("Print one line filled in from %-codes, e.g. '%c %t %w' (%-codes: here-weather report --help; %% is a percent sign).", valueName: "string"),
            completion: .list(FormatString.presets.keys.sorted()))
    var format: String?

    @Flag(help: "Print one JSON line for waybar's custom module (text, tooltip, class, alt); exits 0 even on failure.")
    var waybar = false

    @Flag(help: "Add the next 12 hours (with a chart on a terminal).")
    var hourly = false

    @Flag(help: "Add the next days (up to 7).")
    var daily = false

    @Option(name: .customLong("weather-replay"),
            help: ArgumentHelp("Read a recorded provider response from FILE instead of the network.", valueName: "file"),
            completion: .file())
    var weatherReplay: String?

    @Flag(name: .customLong("no-stale"),
          help: "Fail (exit 69) when the weather service cannot be reached, rather than show an older cached report.")
    var noStale = false

    @Flag(name: .customLong("no-cache"), help: "Ask the weather service even when a fresh cached report exists (the answer is still cached).")
    var noCache = false

    func validate() throws {
        try LanguageOption.validate(lang)
        _ = try units?.checked("--units")
        _ = try provider?.checked("--provider")
        if json && (format != nil || waybar) {
            throw ValidationError("--json prints the whole report: use it without --format and --waybar.")
        }
        if (format != nil || waybar) && (hourly || daily) {
            throw ValidationError("--hourly and --daily add tables to the text report: use them without --format and --waybar.")
        }
        _ = try reportOutput()
    }

    /// The output the options ask for; the format string is parsed here, before any work.
    func reportOutput() throws -> ReportOutput {
        do {
            if waybar { return .waybar(text: try FormatString(format ?? WaybarReport.defaultText)) }
            if let format { return .format(try FormatString(format)) }
        } catch {
            throw ValidationError(error.message)
        }
        return json ? .json : .text(hourly: hourly, daily: daily)
    }

    func run() async throws {
        let environment = CommandContext.current.environment
        let output = try reportOutput()
        var shown = Configuration.OutputSettings().forLocale(environment)
        var spinner: Spinner?
        defer { spinner?.stop() }
        do {
            let loaded = try location.configFile.load(environment: environment)
            Terminal.warn(loaded.warnings)
            // The one place the run's language, characters, clock and units are chosen.
            let settings = try LanguageOption.settings(loaded.configuration, lang: lang, environment: environment,
                                                       verbose: location.verbosity.verbose)
            shown = settings.output
            let kind = provider?.value ?? settings.weather.provider
            let system = try location.verbosity.system(for: settings)
            let (locationProvider, request) = try location.locationSetup(loaded, system: system, environment: environment,
                                                                         geocodingProvider: kind)
            var weatherProvider = ProviderFactory.weatherProvider(kind, config: settings, environment: environment,
                                                                  system: system)
            weatherProvider = ProviderFactory.withOfficialAlerts(weatherProvider, config: settings, system: system)
            if weatherReplay == nil {
                weatherProvider = CachingWeatherProvider(base: weatherProvider, config: settings,
                                                         paths: ConfigurationPaths(environment: environment),
                                                         readsFreshEntries: !noCache, allowsStale: !noStale,
                                                         clock: system.clock)
            }
            if SpinnerPolicy.shouldShow(stderrIsTerminal: CommandContext.current.standardErrorIsTerminal, machineOutput: output.isForPrograms,
                                        verbose: location.verbosity.verbose, environment: environment) {
                let started = Spinner(SpinnerPolicy.locationMessage(sources: location.waitedSources(settings)),
                                      ascii: shown.icons == .ascii, output: Terminal.spinnerOutput())
                weatherProvider = AnnouncedWeatherProvider(base: weatherProvider, spinner: started)
                started.start()
                spinner = started
            }
            let lookup = WeatherLookup(
                locationProvider: locationProvider,
                locationRequest: request,
                weatherProvider: weatherProvider,
                units: units?.value ?? settings.weather.units,
                weatherTimeout: settings.weather.timeout,
                recording: try weatherReplay.map(Self.readRecording),
                clock: system.clock,
                language: settings.output.locale.code)
            let (location, report) = try await lookup.run()
            spinner?.stop()
            if let warning = ReportFields.refreshWarning(report) { Terminal.warn([warning]) }
            if self.location.verbosity.verbose { Terminal.verboseLocationTime(location, now: system.clock.date) }
            try output.print(location: location, report: report, output: settings.output, environment: environment,
                             now: system.clock.date)
        } catch let error as any UserFacingError {
            spinner?.stop()
            throw output.fail(error, output: shown)
        }
    }

    static func readRecording(_ path: String) throws -> Data {
        try WeatherRecordingFile.read(path)
    }
}
