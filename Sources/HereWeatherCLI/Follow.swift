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

/// `--follow`: the I/O around `FollowLoop`. It finds the place once, and again where it came
/// from the network (Wi-Fi, IP) when the loop says so (a resume, a new network); reads the
/// cache and fetches the weather as the loop asks, prints its lines on stdout, and waits on
/// the run's clock and on the run's `followEvents` (the process's signals, the system bus's
/// sleep, resume and network) at once, blocked, with no polling. It ends when the loop says so, or quietly
/// when stdout's reader has gone (EPIPE): exit 0 both.
struct Follow {
    let run: Run
    let options: LocationOptions
    let output: ReportOutput
    let kind: WeatherProviderKind
    let units: Units
    /// `false` (`--no-stale`): a failed fetch shows the failure, not an old report.
    let allowsStale: Bool
    /// `true` (`--no-cache`): no first line from the cache, and every fetch asks the service.
    let asksService: Bool

    /// Runs until the loop ends or stdout is gone; throws the exit of a stdout that cannot
    /// be written for another reason (74).
    func follow() async throws {
        let clock = run.system.clock
        let (events, wake) = AsyncStream.makeStream(of: FollowLoop.Event.self)
        let (source, log) = (run.system.followEvents, run.system.log)
        let external = Task {
            for await event in source.start(log) { wake.yield(event) }
        }
        defer { external.cancel() }
        var state = FollowState()
        var loop = FollowLoop(defaultLifetime: .seconds(run.settings.cache.ttl))
        var iterator = events.makeAsyncIterator()
        let timer = FollowWakeTimer(clock: clock) { wake.yield(.woke) }
        defer { timer.stop() }
        var actions = loop.handle(.started, at: moment())
        while true {
            var next: FollowLoop.Event?
            for action in actions {
                switch action {
                case .print(let line):
                    guard try print(line) else { return }
                case .readCache:
                    next = .cacheRead(asksService ? nil : await readCache(&state))
                case .fetch(let past):
                    next = .fetched(await fetch(&state, asksService: past || asksService))
                case .relocate:
                    relocate(&state)
                case .wait(let until):
                    timer.arm(until: until)
                    next = await iterator.next()
                case .exit:
                    return
                }
            }
            guard let next else { return }  // The events ended: nothing more can happen.
            actions = loop.handle(next, at: moment())
        }
    }

    /// What the driver keeps between the loop's actions: the place, the last fresh report,
    /// the last failure said on stderr (the same failure is said once, however often retried).
    struct FollowState {
        var location: Location?
        /// The next `locate` asks the sources past a remembered fix (after `.relocate`).
        var asksSourcesAgain = false
        var lastReport: WeatherReport?
        var lastFailure: String?
    }

    private func moment() -> FollowLoop.Moment {
        FollowLoop.Moment(instant: run.system.clock.now, date: run.system.clock.date)
    }

    /// Writes `line`; `false` when stdout's reader has gone (EPIPE: end quietly).
    private func print(_ line: String) throws -> Bool {
        guard let reason = run.context.standardOutput.write(line + "\n") else { return true }
        if reason == String(cString: strerror(EPIPE)) { return false }
        throw run.context.fail(OutputWriteError(reason: reason))
    }

    private func cachingProvider(readsFreshEntries: Bool) -> CachingWeatherProvider {
        CachingWeatherProvider(base: run.withOfficialAlerts(run.weatherProvider(kind)), config: run.settings,
                               storage: run.storage, readsFreshEntries: readsFreshEntries, allowsStale: allowsStale,
                               clock: run.system.clock)
    }

    private func query(_ location: Location) -> WeatherQuery {
        WeatherQuery(coordinate: location.coordinate, units: units,
                     deadline: run.system.clock.deadline(after: .milliseconds(Int64(run.settings.weather.timeout * 1000))))
    }

    /// The sources whose answer depends on the network the machine is on.
    static let networkSources: Set<LocationSource> = [.wifi, .ip]

    /// Forgets a place that came from the network (Wi-Fi, IP), or none found yet: the next
    /// `locate` asks the sources again, past the remembered fix. A place from elsewhere (a GPS,
    /// GeoClue, the command line, a fixed place) stays.
    private func relocate(_ state: inout FollowState) {
        if let location = state.location {
            guard let source = location.source, Self.networkSources.contains(source) else { return }
        }
        state.location = nil
        state.asksSourcesAgain = true
    }

    /// The place, found once (and again after `relocate`).
    private func locate(_ state: inout FollowState) async throws -> Location {
        if let location = state.location { return location }
        var (provider, request) = try run.location(options, geocodingProvider: kind)
        request.asksSourcesAgain = state.asksSourcesAgain
        let location = try await provider.requestLocation(request)
        state.asksSourcesAgain = false
        if run.verbose { run.context.verboseLocationTime(location, now: run.system.clock.date) }
        state.location = location
        return location
    }

    /// The cache's report for the place, fresh or marked stale; `nil` when it has none; a
    /// failure when there is no place.
    private func readCache(_ state: inout FollowState) async -> FollowAnswer? {
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

    private func fetch(_ state: inout FollowState, asksService: Bool) async -> FollowAnswer {
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

    private func answer(for fetched: WeatherFetch, location: Location, provider: CachingWeatherProvider,
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
    private func failure(_ error: any UserFacingError, state: inout FollowState) -> FollowAnswer {
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

/// A report as `--follow` shows it: its line at any time, the report's age counted from when
/// the service sent it (`sentAt`) in the texts ("5 min old", "offline 2 h"). `--json` keeps
/// the age the report had when it came (`age_s`), since a number of seconds would change
/// every second: its line changes with what it says, not with its age.
struct ReportPicture: FollowPicture {
    let output: ReportOutput
    let location: Location
    let report: WeatherReport
    let settings: Configuration.OutputSettings
    let sentAt: Date

    func line(at date: Date) -> String {
        var report = report
        if case .json = output {} else { report.freshness.ageSeconds = max(0, date.timeIntervalSince(sentAt)) }
        return output.line(location: location, report: report, output: settings, now: date) ?? ""
    }
}

/// A line that does not change with time (a failure's).
struct FixedPicture: FollowPicture {
    let line: String

    func line(at date: Date) -> String { line }
}
