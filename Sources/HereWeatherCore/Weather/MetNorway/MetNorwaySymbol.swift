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

    /// The code for a symbol name: its intensity ("light", "heavy", or none), its kind (rain,
    /// sleet, snow), showers or not, thunder or not; the sky and fog by name.
    static func condition(_ name: String) -> Condition {
        switch name {
        case "clearsky": return .clear
        case "fair": return .mainlyClear
        case "partlycloudy": return .partlyCloudy
        case "cloudy": return .overcast
        case "fog": return .fog
        default: break
        }
        var rest = Substring(name)
        var intensity = ""
        for prefix in ["lights", "light", "heavy"] where rest.hasPrefix(prefix) && (prefix != "lights" || rest.dropFirst(6).hasPrefix("s")) {
            intensity = prefix == "heavy" ? "heavy_" : "light_"
            rest = rest.dropFirst(prefix.count)
            break
        }
        guard let kind = ["rain", "sleet", "snow"].first(where: { rest.hasPrefix($0) }) else { return unlisted(name) }
        rest = rest.dropFirst(kind.count)
        var code = intensity + kind
        if rest.hasPrefix("showers") {
            code += "_showers"
            rest = rest.dropFirst("showers".count)
        }
        if rest == "andthunder" {
            code += "_and_thunder"
            rest = ""
        }
        return rest.isEmpty ? Condition(rawValue: code) ?? unlisted(name) : unlisted(name)
    }

    /// A name not in MET's list, by what it mentions, strongest first.
    static func unlisted(_ name: String) -> Condition {
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
