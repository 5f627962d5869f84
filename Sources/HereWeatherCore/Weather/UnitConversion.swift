/// Converts values a service reported in its own unit (named by its unit string) into the
/// units the user asked for. Unknown unit strings are taken to already match.
enum UnitConversion {
    /// A temperature in `unit` ("°C", "°F", "K", "celsius", ...) converted to `units`.
    static func temperature(_ value: Double?, from unit: String?, to units: Units) -> Double? {
        guard let value else { return nil }
        let celsius: Double
        switch unit?.lowercased() {
        case "°f", "fahrenheit", "f": celsius = (value - 32) * 5 / 9
        case "k", "kelvin": celsius = value - 273.15
        case "°c", "celsius", "c": celsius = value
        default: return value
        }
        switch units {
        case .metric: return celsius
        case .imperial: return celsius * 9 / 5 + 32
        case .standard: return celsius + 273.15
        }
    }

    /// A speed in `unit` ("m/s", "km/h", "mp/h", "mph", "kn") converted to `units`.
    static func speed(_ value: Double?, from unit: String?, to units: Units) -> Double? {
        guard let value else { return nil }
        let metresPerSecond: Double
        switch unit?.lowercased() {
        case "km/h", "kmh": metresPerSecond = value / 3.6
        case "mp/h", "mph": metresPerSecond = value * 0.44704
        case "kn", "kt", "knots": metresPerSecond = value * 0.514444
        case "m/s", "ms": metresPerSecond = value
        default: return value
        }
        return units == .imperial ? metresPerSecond / 0.44704 : metresPerSecond
    }

    /// A precipitation amount in `unit` ("mm", "inch", "cm") converted to `units`.
    static func precipitation(_ value: Double?, from unit: String?, to units: Units) -> Double? {
        guard let value else { return nil }
        let millimetres: Double
        switch unit?.lowercased() {
        case "inch", "in", "\"": millimetres = value * 25.4
        case "cm": millimetres = value * 10
        case "mm": millimetres = value
        default: return value
        }
        return units.precipitation(fromMillimetres: millimetres)
    }

    /// A distance in `unit` ("m", "ft", "km") converted to metres.
    static func metres(_ value: Double?, from unit: String?) -> Double? {
        guard let value else { return nil }
        switch unit?.lowercased() {
        case "ft", "feet": return value * 0.3048
        case "km": return value * 1000
        default: return value
        }
    }
}
