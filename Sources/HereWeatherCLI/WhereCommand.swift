import ArgumentParser
import HereWeatherCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
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

    @Flag(help: "Print {\"location\":{...}} as JSON (adds meets_accuracy, mode, simulated, nearest_place).")
    var json = false

    func run() async throws {
        let environment = CommandContext.current.environment
        do {
            let loaded = try location.configFile.load(environment: environment)
            Terminal.warn(loaded.warnings)
            let (provider, request) = try location.locationSetup(loaded, environment: environment)
            let fix = try await provider.requestLocation(request)
            try Terminal.output(json ? LocationReport.json(fix) : LocationReport.text(fix))
        } catch let error as any UserFacingError {
            throw Terminal.fail(error, json: json)
        }
    }
}
