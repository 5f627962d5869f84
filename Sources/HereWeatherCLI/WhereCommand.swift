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
struct WhereCommand: ContextCommand {
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

    func run(in context: CommandContext) async throws {
        defer { context.console.endProgress() }
        do {
            let run = try Run.start(context, config: location.configFile, verbose: location.verbosity.verbose).speaking(lang)
            let (provider, request) = try run.location(location)
            // The report's progress line, on the same terms: a terminal, output for people.
            _ = run.progress(SpinnerPolicy.locationMessage(sources: location.waitedSources(run.settings)), machineOutput: json)
            let fix = try await provider.requestLocation(request)
            run.console.endProgress()
            // Ages on the run's clock, as the fix's own.
            if run.verbose { context.verboseLocationTime(fix, now: run.system.clock.date) }
            let locale = run.output.locale
            try context.output(json ? LocationReport.json(fix, locale: locale)
                                    : LocationReport.text(fix, now: run.system.clock.date, charset: run.output.charset, locale: locale,
                                                          width: context.reportWidth))
        } catch let error as any UserFacingError {
            throw context.fail(error, as: json ? .json : .line)
        }
    }
}
