/// Several location sources combined: their order is their priority.
///
/// Like the fused provider behind `CLLocationManager.requestLocation()`:
/// - With `skipsAbsentSources` (the zero-config chain), sources not present on this machine
///   (`isPresent()`, a local check) are dropped first: never asked about, never started.
/// - A source that answers at once with a fix that meets the request (a fixed place without
///   a stated accuracy, or within the desired one) is the answer: nothing else is asked about
///   or started, whatever its place in the order.
/// - The permissions of the rest are decided together, so a terminal shows one prompt at
///   most. Refused sources are never started: nothing leaves the machine for them.
/// - The deadline starts when the sources start: time spent at the prompt is not taken
///   from the timeout.
/// - Every permitted source starts at once. The first fix that meets the desired accuracy
///   ends the request, whichever source gave it; when several are in hand together,
///   priority breaks the tie. A source that fails fast (gpsd not running) costs nothing.
/// - When no fix qualifies by the deadline (each source returns its best fix then), the most
///   accurate fix wins, priority breaking ties. `best` accuracy therefore waits for the deadline.
public struct LocationSourceChain: LocationProvider {
    public let providers: [any LocationSourceProvider]
    public let authorizer: any LocationAuthorizer
    /// Whether sources not present on this machine are skipped silently (the zero-config
    /// chain) rather than tried and reported.
    public let skipsAbsentSources: Bool
    /// The config file's path, for the message when no source is present.
    public let configPath: String
    /// The run's clock: the deadline starts on it when the sources start.
    public let clock: any RunClock

    public init(_ providers: [any LocationSourceProvider], authorizer: any LocationAuthorizer = AllowAllAuthorizer(),
                skipsAbsentSources: Bool = false, configPath: String = "", clock: any RunClock) {
        self.clock = clock
        self.providers = providers
        self.authorizer = authorizer
        self.skipsAbsentSources = skipsAbsentSources
        self.configPath = configPath
    }

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        let candidates = skipsAbsentSources ? await present(providers) : providers
        if candidates.isEmpty { throw LocationError.noSourcePresent(configPath: configPath) }
        if let local = candidates.first(where: { $0.answersAtOnce(request) }),
           await authorizer.authorize([local.source]) == [nil] {
            return try await local.requestLocation(request.starting(at: clock.now))
        }
        let verdicts = await authorizer.authorize(candidates.map(\.source))
        var permitted: [any LocationSourceProvider] = []
        var refusals: [PermissionError] = []
        for (provider, refusal) in zip(candidates, verdicts) {
            if let refusal { refusals.append(refusal) } else { permitted.append(provider) }
        }
        if permitted.isEmpty, let refusal = Self.mostUseful(refusals) { throw refusal }
        let outcomes = await race(permitted, request: request.starting(at: clock.now))
        return try Self.finalAnswer(outcomes, refusals: refusals.map(\.message))
    }

    /// The providers present on this machine, in order; the checks run together.
    private func present(_ providers: [any LocationSourceProvider]) async -> [any LocationSourceProvider] {
        let presence = await Concurrently.run(providers.count) { await providers[$0].isPresent() }
        return zip(providers, presence).filter { $0.1 == true }.map(\.0)
    }

    /// The refusal to report when every source is refused: the fixed location's, when the
    /// place the user set is refused (the one answer they expect); else the one that says which
    /// command grants what is needed, if any; else the first.
    static func mostUseful(_ refusals: [PermissionError]) -> PermissionError? {
        refusals.first { $0.source == .fixed }
            ?? refusals.first { if case .needsDecision = $0 { return true } else { return false } } ?? refusals.first
    }

    /// Runs the providers together and returns as soon as the rule decides.
    private func race(_ providers: [any LocationSourceProvider], request: LocationRequest) async -> [Result<Location, Error>?] {
        await Concurrently.run(providers.count, until: { Self.decided($0) }) { index -> Result<Location, Error> in
            do { return .success(try await providers[index].requestLocation(request)) } catch { return .failure(error) }
        }
    }

    /// Whether the outcomes so far settle the request: a fix that meets the desired accuracy
    /// from any source, or every source done.
    static func decided(_ outcomes: [Result<Location, Error>?]) -> Bool {
        var allDone = true
        for outcome in outcomes {
            switch outcome {
            case nil: allDone = false
            case .success(let fix) where fix.meetsDesiredAccuracy: return true
            default: continue
            }
        }
        return allDone
    }

    /// The answer from settled outcomes: the first qualifying fix in priority order, else the
    /// most accurate fix, else an error listing every source's reason.
    static func finalAnswer(_ outcomes: [Result<Location, Error>?], refusals: [String]) throws -> Location {
        var fixes: [Location] = []
        var failures: [any Error] = []
        for outcome in outcomes {
            switch outcome {
            case .success(let fix) where fix.meetsDesiredAccuracy: return fix
            case .success(let fix): fixes.append(fix)
            case .failure(let error): failures.append(error)
            case nil: continue
            }
        }
        if let best = fixes.reduce(nil as Location?, { best, fix in
            guard let best else { return fix }
            return FixSelector.isMoreAccurate(fix, than: best) ? fix : best
        }) {
            return best
        }
        if failures.count == 1, refusals.isEmpty { throw failures[0] }
        let reasons = failures.map { ($0 as? any UserFacingError)?.message ?? "\($0)" } + refusals
        throw LocationError.allSourcesFailed(reasons)
    }
}
