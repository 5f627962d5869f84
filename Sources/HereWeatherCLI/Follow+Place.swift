import HereWeatherCore
import Synchronization

/// `--follow`'s place: found once by the sources, again where it came from the network (a
/// resume, a new network: `relocate`), and moved to the winning live source's newest fix when
/// the loop says so (`move`). That source (gpsd, GeoClue, an NMEA device, FIFO or log, `--replay`)
/// is kept open from the moment it wins (`FollowPlaceWatch`).
extension Follow {
    /// The sources whose answer depends on the network the machine is on.
    static let networkSources: Set<LocationSource> = [.wifi, .ip]

    /// Forgets a place that came from the network (Wi-Fi, IP), or none found yet: the next
    /// `locate` asks the sources again, past the remembered fix. A place from elsewhere (a GPS,
    /// GeoClue, the command line, a fixed place) stays.
    func relocate(_ state: inout FollowState) {
        if let location = state.location {
            guard let source = location.source, Self.networkSources.contains(source) else { return }
        }
        state.location = nil
        state.asksSourcesAgain = true
    }

    /// The place, found once (and again after `relocate`); the source that found it is then
    /// watched, if it can be.
    func locate(_ state: inout FollowState) async throws -> Location {
        if let location = state.location { return location }
        var (provider, request) = try run.location(options, geocodingProvider: kind)
        request.asksSourcesAgain = state.asksSourcesAgain
        let location = try await provider.requestLocation(request)
        state.asksSourcesAgain = false
        if run.verbose { run.context.verboseLocationTime(location, now: run.system.clock.date) }
        state.location = location
        state.watch.found(location) { liveSource(for: location)?.watch(request) }
        return location
    }

    /// The source to watch for `location`: `--replay`'s log, or the configured source that found
    /// it; none for explicit input (`--lat/--lon`, `--city`) and the sources that answer once.
    func liveSource(for location: Location) -> (any LocationSourceProvider)? {
        switch options.override {
        case .replay(let path, let speed):
            return NMEAReplayLocationProvider(path: path, speed: speed, clock: run.system.clock)
        case .coordinate, .city:
            return nil
        case nil:
            guard let source = location.source, !Self.networkSources.contains(source), source != .fixed else { return nil }
            return run.sourceProvider(source, skipsWithoutAgent: false, wifiMemory: nil)
        }
    }

    /// The watched source's newest fix becomes the place (the loop's `.move`), named as the
    /// sources' answers are (the nearest town, `[privacy] place_names`) and remembered as they are.
    func move(_ state: inout FollowState) {
        guard var fix = state.watch.move() else { return }
        if run.settings.privacy.placeNames { fix = NearbyPlaceLocationProvider.naming(fix) }
        if options.override == nil, let source = fix.source, LastLocationStore.rememberedSources.contains(source) {
            run.storage.lastLocation.save(fix)
        }
        if run.verbose { run.context.verboseLocationTime(fix, now: run.system.clock.date) }
        state.location = fix
    }
}

/// The winning live source while `--follow` runs: its fixes, as they come, are held against
/// the place of the shown report (`FollowMoves`), and the loop hears of a move out of the place's
/// cell (`.moved`) and of a return (`.returned`). The source is started when a place it found
/// is taken, once while it runs; a source that ends leaves the last place (`--verbose` says so,
/// once).
final class FollowPlaceWatch: Sendable {
    private struct State {
        var moves: FollowMoves
        var task: Task<Void, Never>?
        var running = false
    }

    private let state: Mutex<State>
    private let log: @Sendable (String) -> Void
    private let send: @Sendable (FollowLoop.Event) -> Void

    /// `decimals`: of the coordinates sent to services; `send`: to the loop.
    init(decimals: Int, log: @escaping @Sendable (String) -> Void, send: @escaping @Sendable (FollowLoop.Event) -> Void) {
        state = Mutex(State(moves: FollowMoves(decimals: decimals)))
        self.log = log
        self.send = send
    }

    /// The sources found `location`; `watch` makes its source's watch, started unless one runs.
    func found(_ location: Location, watch: () -> LocationWatch?) {
        let starts = state.withLock { state in
            state.moves.placeFound(location)
            return !state.running
        }
        guard starts, let watch = watch() else { return }
        let (log, send) = (self.log, self.send)
        let name = location.source?.displayName ?? "NMEA replay"
        state.withLock { state in
            state.running = true
            state.task = Task { [weak self] in
                let said = Atomic<Bool>(false)
                let stream = watch.start { note in
                    said.store(true, ordering: .relaxed)
                    log(note)
                }
                for await fix in stream {
                    guard let self else { return }
                    if let event = self.state.withLock({ $0.moves.take(fix) }) { send(event) }
                }
                guard !Task.isCancelled else { return }
                if !said.load(ordering: .relaxed) {
                    log("--follow: \(name) stopped sending fixes; following the last place.")
                }
                self?.state.withLock { $0.running = false }
            }
        }
    }

    /// The newest fix, which becomes the place; `nil` when none came since.
    func move() -> Location? {
        state.withLock { $0.moves.move() }
    }

    /// Closes the source.
    func stop() {
        state.withLock { $0.task?.cancel() }
    }
}
