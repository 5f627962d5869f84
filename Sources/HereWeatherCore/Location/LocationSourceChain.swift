/// Several location providers combined: their order is their priority.
///
/// The first provider is asked first; a provider that fails hands the request to the next,
/// and the first fix wins. When every provider fails, the error lists each one's reason in
/// order. (Running permitted sources concurrently, and preferring a late high-priority fix,
/// comes with the gpsd and IP sources.)
public struct LocationSourceChain: LocationProvider {
    public let providers: [any LocationProvider]

    public init(_ providers: [any LocationProvider]) {
        self.providers = providers
    }

    /// The first provider's source, or `.fixed` for an empty chain.
    public var source: LocationSource { providers.first?.source ?? .fixed }

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        var reasons: [String] = []
        for provider in providers {
            do {
                return try await provider.requestLocation(request)
            } catch let error as LocationError {
                if case .allSourcesFailed(let inner) = error { reasons += inner } else { reasons.append(error.message) }
            } catch let error as UserFacingError {
                throw error
            } catch {
                reasons.append("\(provider.source.displayName): \(error)")
            }
        }
        throw LocationError.allSourcesFailed(reasons.isEmpty ? ["No location: no location source is configured."] : reasons)
    }
}
