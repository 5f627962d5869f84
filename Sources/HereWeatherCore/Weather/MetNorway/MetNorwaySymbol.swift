/// MET Norway's weather symbol codes (`symbol_code`: `clearsky_day`, `lightrainshowers_night`,
/// `heavysnowandthunder`) in the condition vocabulary, with words for people.
///
/// A code is a name and, for symbols that show the sun or moon, a variant: `_day`, `_night`
/// or `_polartwilight`. The names are run-together words; MET's own list spells two of them
/// `lightssleetshowersandthunder` and `lightssnowshowersandthunder`, and both are read.
enum MetNorwaySymbol {
    /// The condition, the words ("Light rain showers and thunder") and whether it is day.
    static func describe(_ code: String?) -> (condition: Condition, words: String, isDay: Bool?) {
        guard let code, !code.isEmpty else { return (.unknown, "", nil) }
        let parts = code.split(separator: "_", maxSplits: 1)
        let name = String(parts[0])
        var isDay: Bool?
        if parts.count == 2 {
            isDay = parts[1] == "day" ? true : (parts[1] == "night" || parts[1] == "polartwilight") ? false : nil
        }
        return (condition(name), words(name), isDay)
    }

    static func condition(_ name: String) -> Condition {
        switch name {
        case "clearsky", "fair": return .clear
        case "partlycloudy": return .partlyCloudy
        case "cloudy": return .cloudy
        case "fog": return .fog
        default: break
        }
        if name.contains("thunder") { return .thunderstorm }
        if name.contains("sleet") { return .sleet }
        if name.contains("snow") { return .snow }
        if name.contains("rain") { return .rain }
        return .unknown
    }

    /// The run-together words of `name`, spaced and capitalised; unknown names as they are.
    static func words(_ name: String) -> String {
        let vocabulary = [("clearsky", "clear sky"), ("partlycloudy", "partly cloudy"), ("lights", "light"),
                          ("light", "light"), ("heavy", "heavy"), ("rain", "rain"), ("sleet", "sleet"),
                          ("snow", "snow"), ("showers", "showers"), ("and", "and"), ("thunder", "thunder"),
                          ("fair", "fair"), ("cloudy", "cloudy"), ("fog", "fog")]
        var rest = Substring(name)
        var found: [String] = []
        while !rest.isEmpty {
            // "lights" only where MET's misspelling puts it: before "sleet" or "snow".
            guard let (token, words) = vocabulary.first(where: { token, _ in
                rest.hasPrefix(token) && (token != "lights" || rest.dropFirst(6).hasPrefix("s"))
            }) else { return name.capitalizedFirst }
            found.append(words)
            rest = rest.dropFirst(token.count)
        }
        return found.joined(separator: " ").capitalizedFirst
    }
}
