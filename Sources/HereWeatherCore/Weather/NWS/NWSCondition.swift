/// The NWS's forecast words and icons in the condition vocabulary.
///
/// An icon URL (`https://api.weather.gov/icons/land/night/tsra_sct,40/rain,20?size=medium`)
/// names day or night and one or two codes (`skc`, `bkn`, `tsra_sct`, `rain_snow`, ...),
/// each with an optional chance; the first code is the one shown. Where there is no icon, or
/// its code is unknown, the words (`shortForecast`, an observation's `textDescription`:
/// "Chance Showers And Thunderstorms", "Mostly Sunny") decide.
enum NWSCondition {
    /// The condition and whether it is day (`nil` when the icon does not say).
    static func describe(icon: String?, words: String?) -> (condition: Condition, isDay: Bool?) {
        let parsed = icon.map(parseIcon)
        let fromIcon = parsed?.code.flatMap(condition(iconCode:)) ?? .unknown
        let condition = fromIcon != .unknown ? fromIcon : condition(words: words ?? "")
        return (condition, parsed?.isDay)
    }

    /// Day or night and the first code of an icon URL.
    static func parseIcon(_ url: String) -> (isDay: Bool?, code: String?) {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        let parts = path.split(separator: "/").map(String.init)
        guard let index = parts.firstIndex(where: { $0 == "day" || $0 == "night" }) else { return (nil, nil) }
        let code = index + 1 < parts.count ? parts[index + 1].split(separator: ",").first.map(String.init) : nil
        return (parts[index] == "day", code)
    }

    /// The NWS icon codes (api.weather.gov/icons).
    static func condition(iconCode code: String) -> Condition? {
        switch code {
        case "skc", "few", "hot", "cold": return .clear
        case "sct", "wind_skc", "wind_few", "wind_sct": return .partlyCloudy
        case "bkn", "ovc", "wind_bkn", "wind_ovc": return .cloudy
        case "snow", "blizzard": return .snow
        case "rain_snow", "rain_sleet", "snow_sleet", "sleet": return .sleet
        case "fzra", "rain_fzra", "snow_fzra": return .freezingRain
        case "rain", "rain_showers", "rain_showers_hi": return .rain
        case "tsra", "tsra_sct", "tsra_hi", "tornado", "hurricane", "tropical_storm": return .thunderstorm
        case "dust", "smoke", "haze": return .haze
        case "fog": return .fog
        default: return nil
        }
    }

    /// The condition the words name, strongest first ("Rain And Snow Showers" is sleet).
    static func condition(words text: String) -> Condition {
        let words = text.lowercased()
        func has(_ parts: String...) -> Bool { parts.contains { words.contains($0) } }
        if has("thunder", "tstm", "t-storm", "tornado", "hurricane", "tropical storm") { return .thunderstorm }
        if has("freezing rain", "freezing drizzle", "ice pellets") { return .freezingRain }
        if has("sleet", "wintry mix") || (has("rain") && has("snow")) { return .sleet }
        if has("snow", "flurries", "blizzard") { return .snow }
        if has("drizzle") { return .drizzle }
        if has("rain", "showers") { return .rain }
        if has("fog", "mist") { return .fog }
        if has("haze", "smoke", "dust") { return .haze }
        if has("mostly cloudy", "overcast") || words == "cloudy" { return .cloudy }
        if has("partly", "mostly sunny", "mostly clear") { return .partlyCloudy }
        if has("sunny", "clear", "fair") { return .clear }
        if has("cloudy") { return .cloudy }
        if has("windy", "breezy", "blustery") { return .wind }
        return .unknown
    }
}
