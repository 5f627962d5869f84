/// The unit system of a report, named as OpenWeatherMap names them.
public enum Units: String, Sendable, CaseIterable {
    /// °C, m/s, mm.
    case metric
    /// °F, mph, in.
    case imperial
    /// K, m/s, mm.
    case standard

    public var temperatureSymbol: String {
        switch self {
        case .metric: return "°C"
        case .imperial: return "°F"
        case .standard: return "K"
        }
    }

    public var speedSymbol: String { self == .imperial ? "mph" : "m/s" }
    public var precipitationSymbol: String { self == .imperial ? "in" : "mm" }

    /// Millimetres converted to this system's precipitation unit.
    public func precipitation(fromMillimetres millimetres: Double) -> Double {
        self == .imperial ? millimetres / 25.4 : millimetres
    }
}
