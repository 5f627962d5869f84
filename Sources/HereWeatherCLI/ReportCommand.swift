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
struct ReportCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Print the weather here (the default command).",
        usage: "here-weather report [<options>]",
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

        --follow keeps running with --waybar, --format or --json and prints a line only \
        when it changes: at once from the cache, again when the report's lifetime ends, \
        when relative texts ("in 25 min") change, and at once on SIGUSR1. A failing service \
        keeps the last report marked stale, retried after 30 s, 1, 2, 5, then every 10 min. \
        Nothing is asked while asleep or offline (logind and NetworkManager on the system \
        bus); a resume or a new network finds a Wi-Fi or IP place again and refreshes once \
        the network is up; --verbose says what it could not subscribe to. \
        SIGTERM and SIGINT end it (exit 0). Status bars: waybar (no "interval" or "signal"), \
        polybar (tail = true), i3blocks (interval=persist); see docs/output.md.

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

    @Flag(help: "Keep running and print a new line whenever what --waybar, --format or --json shows changes (status bars: here-weather report --help).")
    var follow = false

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
        if follow && !(json || waybar || format != nil) {
            throw ValidationError(FollowWords.needsOneLine)
        }
        if follow && weatherReplay != nil {
            throw ValidationError(FollowWords.noReplay)
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

    func run(in context: CommandContext) async throws {
        let output = try reportOutput()
        var shown = Run.resolvedOutput(Configuration.OutputSettings(), environment: context.environment)
        defer { context.console.endProgress() }
        do {
            // The one place the run's language, characters, clock and units are chosen.
            let run = try Run.start(context, config: location.configFile, verbose: location.verbosity.verbose).speaking(lang)
            shown = run.output
            // A cache file names the provider and units it was fetched for (never with --follow).
            let recording = try weatherReplay.map(WeatherRecordingFile.recording)
            let kind = provider?.value ?? recording?.provider ?? run.settings.weather.provider
            if follow {
                return try await Follow(run: run, options: location, output: output, kind: kind,
                                        units: units?.value ?? run.settings.weather.units,
                                        allowsStale: !noStale, asksService: noCache).follow()
            }
            let (locationProvider, request) = try run.location(location, geocodingProvider: kind)
            var weatherProvider = run.weatherStack(kind, cache: weatherReplay == nil
                                                   ? Run.CacheUse(readsFreshEntries: !noCache, allowsStale: !noStale) : nil)
            let message = SpinnerPolicy.locationMessage(sources: location.waitedSources(run.settings))
            if let spinner = run.progress(message, machineOutput: output.isForPrograms) {
                weatherProvider = AnnouncedWeatherProvider(base: weatherProvider, spinner: spinner)
            }
            let lookup = WeatherLookup(
                locationProvider: locationProvider,
                locationRequest: request,
                weatherProvider: weatherProvider,
                units: units?.value ?? recording?.units ?? run.settings.weather.units,
                weatherTimeout: run.settings.weather.timeout,
                recording: recording?.body,
                clock: run.system.clock,
                language: run.output.locale.code)
            let (location, report) = try await lookup.run()
            run.console.endProgress()
            if let warning = ReportFields.refreshWarning(report) { run.console.warn([warning]) }
            if run.verbose { context.verboseLocationTime(location, now: run.system.clock.date) }
            try output.print(location: location, report: report, run: run, now: run.system.clock.date)
        } catch let error as WeatherError {
            throw context.fail(error.chosen(by: provider == nil ? .config : .flag), as: output.failureStyle(shown))
        } catch let error as any UserFacingError {
            throw context.fail(error, as: output.failureStyle(shown))
        }
    }

}
