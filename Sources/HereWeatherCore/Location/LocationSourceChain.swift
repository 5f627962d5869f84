/// Several location providers combined: their order is their priority.
///
/// The first provider is asked first; a provider that fails hands the request to the next,
/// and the first fix wins. When every provider fails, the error lists each one's reason in
/// order (a single failure is passed on as it is). Running permitted sources concurrently,
/// and preferring a late high-priority fix, comes with the permission system.
public struct LocationSourceChain: LocationProvider {
    public let providers: [any LocationProvider]

    public init(_ providers: [any LocationProvider]) {
        self.providers = providers
    }

    /// The first provider's source, or `.fixed` for an empty chain.
    public var source: LocationSource { providers.first?.source ?? .fixed }

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        var failures: [LocationError] = []
        for provider in providers {
            do {
                return try await provider.requestLocation(request)
            } catch let error as LocationError {
                failures.append(error)
            }
        }
        if failures.count == 1 { throw failures[0] }
        throw LocationError.allSourcesFailed(failures.flatMap { failure -> [String] in
            if case .allSourcesFailed(let inner) = failure { return inner }
            return [failure.message]
        })
    }
}
