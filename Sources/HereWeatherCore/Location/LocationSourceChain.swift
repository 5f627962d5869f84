/// Several location providers combined: their order is their priority.
///
/// Like the fused provider behind `CLLocationManager`: every permitted source starts at
/// once; the request ends as soon as the highest-priority source still able to answer has
/// given a fix that meets the desired accuracy, or when every higher-priority source has
/// failed. A source that fails fast (gpsd not running) hands over at once instead of
/// costing the whole timeout. When every source has answered without meeting the accuracy
/// (each source returns its best fix at the shared deadline), the most accurate fix wins,
/// priority breaking ties. Sources the authorizer refuses are never started, so nothing
/// leaves the machine for a source that is not permitted.
public struct LocationSourceChain: LocationProvider {
    public let providers: [any LocationProvider]
    public let authorizer: any LocationAuthorizer

    public init(_ providers: [any LocationProvider], authorizer: any LocationAuthorizer = AllowAllAuthorizer()) {
        self.providers = providers
        self.authorizer = authorizer
    }

    /// The first provider's source, or `.fixed` for an empty chain.
    public var source: LocationSource { providers.first?.source ?? .fixed }

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        // Ask in priority order, one at a time: a permission prompt must not race another.
        var permitted: [any LocationProvider] = []
        var refusals: [any UserFacingError] = []
        for provider in providers {
            do {
                try await authorizer.authorize(provider.source)
                permitted.append(provider)
            } catch let refusal as any UserFacingError {
                refusals.append(refusal)
            }
        }
        if permitted.isEmpty, let first = refusals.first { throw first }
        let outcomes = await race(permitted, request: request)
        return try Self.finalAnswer(outcomes, refusals: refusals.map(\.message))
    }

    /// Runs the providers together and returns as soon as the priority rule decides.
    private func race(_ providers: [any LocationProvider], request: LocationRequest) async -> [Result<Location, Error>?] {
        let outcomes = await Concurrently.run(providers.count, until: { Self.decided($0) }) { index -> Result<Location, Error> in
            do { return .success(try await providers[index].requestLocation(request)) } catch { return .failure(error) }
        }
        return outcomes
    }

    /// Whether the outcomes so far settle the request: a qualifying fix with every
    /// higher-priority source failed or done, or every source done.
    static func decided(_ outcomes: [Result<Location, Error>?]) -> Bool {
        for outcome in outcomes {
            switch outcome {
            case nil: return false
            case .success(let fix) where fix.meetsDesiredAccuracy: return true
            default: continue
            }
        }
        return true
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
