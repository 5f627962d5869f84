/// What a report's current conditions are, when the provider can give either (the NWS): a
/// weather station's latest observation, or the forecast for the current hour.
public enum CurrentBasis: Sendable, Equatable {
    /// Observed at the station of this identifier ("KTPA").
    case observation(station: String)
    /// The forecast for the current hour (no observation recent enough).
    case forecast

    /// `observation` or `forecast`, for JSON.
    public var name: String {
        switch self {
        case .observation: return "observation"
        case .forecast: return "forecast"
        }
    }

    /// The station's identifier, for an observation.
    public var station: String? {
        if case .observation(let station) = self { return station }
        return nil
    }
}
