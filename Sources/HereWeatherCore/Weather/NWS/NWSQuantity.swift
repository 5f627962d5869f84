/// The values of api.weather.gov in the report's units: `{unitCode, value}` quantities
/// (`wmoUnit:degC`, `wmoUnit:km_h-1`, `wmoUnit:Pa`; `value` possibly null), and the
/// forecast's own spellings (`temperatureUnit` "F", `windSpeed` "5 to 10 mph", `windDirection` "NNW").
enum NWSQuantity {
    /// The number of a quantity and its unit without the `wmoUnit:` prefix.
    static func read(_ quantity: JSONValue?) -> (value: Double, unit: String)? {
        guard let value = quantity?["value"]?.double else { return nil }
        let code = quantity?["unitCode"]?.string ?? ""
        let unit = code.split(separator: ":", maxSplits: 1).last.map(String.init) ?? code
        return (value, unit)
    }

    static func temperature(_ quantity: JSONValue?, to units: Units) -> Double? {
        guard let (value, unit) = read(quantity) else { return nil }
        let name = unit == "degC" ? "celsius" : unit == "degF" ? "fahrenheit" : unit
        return UnitConversion.temperature(value, from: name, to: units)
    }

    static func speed(_ quantity: JSONValue?, to units: Units) -> Double? {
        guard let (value, unit) = read(quantity) else { return nil }
        let names = ["km_h-1": "km/h", "m_s-1": "m/s", "[mi_i]/h": "mph", "mi_h-1": "mph", "kt": "kn", "[kn_i]": "kn"]
        return UnitConversion.speed(value, from: names[unit] ?? unit, to: units)
    }

    /// A pressure in hPa (the report's unit whatever the units).
    static func hectopascals(_ quantity: JSONValue?) -> Double? {
        guard let (value, unit) = read(quantity) else { return nil }
        return unit == "hPa" ? value : value / 100
    }

    /// A length in metres.
    static func metres(_ quantity: JSONValue?) -> Double? {
        guard let (value, unit) = read(quantity) else { return nil }
        return unit == "km" ? value * 1000 : unit == "mm" ? value / 1000 : value
    }

    /// An amount of precipitation in the report's units.
    static func precipitation(_ quantity: JSONValue?, to units: Units) -> Double? {
        guard let (value, unit) = read(quantity) else { return nil }
        let millimetres = unit == "m" ? value * 1000 : unit == "cm" ? value * 10 : value
        return units.precipitation(fromMillimetres: millimetres)
    }

    /// A plain number (a percentage) of a quantity.
    static func number(_ quantity: JSONValue?) -> Double? {
        read(quantity)?.value
    }

    /// A forecast period's temperature: a number in `temperatureUnit`, or a quantity.
    static func periodTemperature(_ period: JSONValue, to units: Units) -> Double? {
        if let object = period["temperature"], object.isObject { return temperature(object, to: units) }
        let unit = period["temperatureUnit"]?.string == "C" ? "celsius" : "fahrenheit"
        return UnitConversion.temperature(period["temperature"]?.double, from: unit, to: units)
    }

    /// "10 mph", "5 to 10 mph", "10 to 15 km/h": the highest speed named, converted; `nil`
    /// without a number. "Calm" is 0.
    static func windSpeed(_ text: String?, to units: Units) -> Double? {
        guard let text else { return nil }
        if text.lowercased() == "calm" { return 0 }
        let tokens = text.split(separator: " ")
        let numbers = tokens.compactMap { Double($0) }.filter(\.isFinite)
        guard let highest = numbers.max(), let unit = tokens.last else { return nil }
        return UnitConversion.speed(highest, from: String(unit), to: units)
    }

    /// A 16-point compass direction ("NNW") in degrees; `nil` for anything else.
    static func degrees(_ compass: String?) -> Double? {
        let points = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
        guard let compass, let index = points.firstIndex(of: compass.uppercased()) else { return nil }
        return Double(index) * 22.5
    }
}
