import HereWeatherCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--follow`'s weather: the cache's report for the place, a fetch, and the answers the loop
/// takes (fresh until its lifetime ends, stale, or the failure's line).
extension Follow {
    func cachingProvider(readsFreshEntries: Bool) -> CachingWeatherProvider {
        CachingWeatherProvider(base: run.withAirQuality(run.withOfficialAlerts(run.weatherProvider(kind))), config: run.settings,
                               storage: run.storage, readsFreshEntries: readsFreshEntries, allowsStale: allowsStale,
                               clock: run.system.clock)
    }

    func query(_ location: Location) -> WeatherQuery {
        WeatherQuery(coordinate: location.coordinate, units: units,
                     deadline: run.system.clock.deadline(after: .milliseconds(Int64(run.settings.weather.timeout * 1000))))
    }


    /// The cache's report for the place, fresh or marked stale; `nil` when it has none; a
    /// failure when there is no place.
    func readCache(_ state: inout FollowState) async -> FollowAnswer? {
        let location: Location
        do {
            location = try await locate(&state)
        } catch let error as any UserFacingError {
            return failure(error, state: &state)
        } catch {
            return nil
        }
        let provider = cachingProvider(readsFreshEntries: true)
        return provider.storedAnswer(for: query(location)).map { answer(for: $0, location: location, provider: provider,
                                                                          state: &state) }
    }

    func fetch(_ state: inout FollowState, asksService: Bool) async -> FollowAnswer {
        let provider = cachingProvider(readsFreshEntries: !asksService)
        do {
            let location = try await locate(&state)
            try provider.checkConfigured()
            let fetched = try await provider.fetch(query(location))
            return answer(for: fetched, location: location, provider: provider, state: &state)
        } catch let error as any UserFacingError {
            return failure(error, state: &state)
        } catch {
            return failure(WeatherError.service(kind, .unreachable(.cancelled)), state: &state)
        }
    }

    func answer(for fetched: WeatherFetch, location: Location, provider: CachingWeatherProvider,
                        state: inout FollowState) -> FollowAnswer {
        let report = fetched.report
        let picture = ReportPicture(output: output, location: location, report: report, settings: run.output,
                                    sentAt: run.system.clock.date.addingTimeInterval(-report.freshness.ageSeconds))
        if report.freshness.stale {
            if let warning = ReportFields.refreshWarning(report), let failure = report.freshness.refreshFailure,
               failure != state.lastFailure {
                state.lastFailure = failure
                run.console.warn([warning])
            }
            return FollowAnswer(.stale, picture: picture)
        }
        state.lastReport = report
        state.lastFailure = nil
        let lifetime = provider.lifetime(of: fetched)
        let left = max(0, lifetime - report.freshness.ageSeconds)
        return FollowAnswer(.fresh(until: run.system.clock.deadline(after: .milliseconds(Int64(left * 1000))),
                                   lifetime: .milliseconds(Int64(lifetime * 1000))),
                            picture: picture)
    }

    /// A failure's answer: the last report marked stale when the failure allows it (a service
    /// that cannot be reached), else the failure's line. The message goes to stderr once.
    func failure(_ error: any UserFacingError, state: inout FollowState) -> FollowAnswer {
        if error.message != state.lastFailure {
            state.lastFailure = error.message
            run.console.line("here-weather: " + error.message)
        }
        if allowsStale, var report = state.lastReport, let location = state.location,
           (error as? WeatherError)?.allowsStaleFallback == true {
            report.freshness.stale = true
            report.freshness.refreshFailure = error.message
            let picture = ReportPicture(output: output, location: location, report: report, settings: run.output,
                                        sentAt: run.system.clock.date.addingTimeInterval(-report.freshness.ageSeconds))
            return FollowAnswer(.stale, picture: picture)
        }
        return FollowAnswer(.failed, picture: FixedPicture(line: output.failureLine(error, output: run.output) ?? ""))
    }
}
