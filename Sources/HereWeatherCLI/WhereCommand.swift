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

/// `here-weather where`: print only the location.
struct WhereCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "where",
        abstract: "Print only the location: coordinates, accuracy, age, source, altitude, nearest town.",
        discussion: """
        Examples:
          here-weather where                              # from the sources
          here-weather where --replay drive.nmea --accuracy 10m   # an NMEA log
          here-weather where --city "Melbourne, Florida"  # a place by name
          here-weather where --json | jq .location.accuracy_m
        """
    )

    @OptionGroup var location: LocationOptions

    @Option(name: .customLong("lang"), help: LanguageOption.help)
    var lang: String?

    func validate() throws {
        try LanguageOption.validate(lang)
    }

    @Flag(help: "Print {\"location\":{...}} as JSON (adds meets_accuracy, mode, simulated, nearest_place).")
    var json = false

    func run() async throws {
        let environment = CommandContext.current.environment
        var spinner: Spinner?
        defer { spinner?.stop() }
        do {
            let loaded = try location.configFile.load(environment: environment)
            Terminal.warn(loaded.warnings)
            let system = try location.verbosity.system(for: loaded.configuration)
            let settings = try LanguageOption.settings(loaded.configuration, lang: lang, environment: environment,
                                                       verbose: location.verbosity.verbose)
            let charset = settings.output.charset
            let (provider, request) = try location.locationSetup(loaded, system: system, environment: environment)
            // The report's progress line, on the same terms: a terminal, output for people.
            if SpinnerPolicy.shouldShow(stderrIsTerminal: CommandContext.current.standardErrorIsTerminal, machineOutput: json,
                                        verbose: location.verbosity.verbose, environment: environment) {
                let started = Spinner(SpinnerPolicy.locationMessage(sources: location.waitedSources(loaded.configuration)),
                                      ascii: charset == .ascii,
                                      output: Terminal.spinnerOutput())
                started.start()
                spinner = started
            }
            let fix = try await provider.requestLocation(request)
            spinner?.stop()
            // Ages on the run's clock, as the fix's own.
            if location.verbosity.verbose { Terminal.verboseLocationTime(fix, now: system.clock.date) }
            let locale = settings.output.locale
            try Terminal.output(json ? LocationReport.json(fix, locale: locale)
                                : LocationReport.text(fix, now: system.clock.date, charset: charset, locale: locale))
        } catch let error as any UserFacingError {
            spinner?.stop()
            throw Terminal.fail(error, json: json)
        }
    }
}
