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
/// from the network (Wi-Fi, IP) when the loop says so (a resume, a new network); keeps the
/// winning live source open and takes its newest fix as the place when the loop says so
/// (`Follow+Place.swift`); reads the cache and fetches the weather as the loop asks
/// (`Follow+Weather.swift`), prints its lines on stdout, and waits on the run's clock, the
/// run's `followEvents` (the process's signals, the system bus's sleep, resume and network)
/// and the live source's moves at once, blocked, with no polling. It ends when the loop says
/// so, or quietly when stdout's reader has gone (EPIPE): exit 0 both.
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
        var state = FollowState(watch: FollowPlaceWatch(decimals: run.settings.privacy.coordinateDecimals, log: log,
                                                        send: { wake.yield($0) }))
        defer { state.watch.stop() }
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
                case .move:
                    move(&state)
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
        /// The winning live source, kept open while following (nothing for a source that answers once).
        let watch: FollowPlaceWatch
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
}
