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

    /// The NWS icon codes (api.weather.gov/icons). "sleet" is American: ice pellets.
    static func condition(iconCode code: String) -> Condition? {
        switch code {
        case "skc": return .clear
        case "few": return .mainlyClear
        case "sct": return .partlyCloudy
        case "bkn": return .mostlyCloudy
        case "ovc": return .overcast
        case "wind_skc", "wind_few": return .clearAndWindy
        case "wind_sct": return .partlyCloudyAndWindy
        case "wind_bkn": return .mostlyCloudyAndWindy
        case "wind_ovc": return .overcastAndWindy
        case "hot": return .hot
        case "cold": return .cold
        case "snow": return .snow
        case "blizzard": return .blizzard
        case "rain_snow": return .sleet
        case "rain_sleet", "snow_sleet", "sleet": return .icePellets
        case "fzra", "rain_fzra", "snow_fzra": return .freezingRain
        case "rain": return .rain
        case "rain_showers", "rain_showers_hi": return .rainShowers
        case "tsra", "tsra_sct", "tsra_hi": return .thunderstorm
        case "tornado": return .tornado
        case "hurricane": return .hurricane
        case "tropical_storm": return .tropicalStorm
        case "dust": return .dust
        case "smoke": return .smoke
        case "haze": return .haze
        case "fog": return .fog
        default: return nil
        }
    }

    /// The condition the words name, strongest first ("Rain And Snow Showers" is sleet).
    static func condition(words text: String) -> Condition {
        let words = text.lowercased()
        func has(_ parts: String...) -> Bool { parts.contains { words.contains($0) } }
        if has("tornado") { return .tornado }
        if has("hurricane") { return .hurricane }
        if has("tropical storm") { return .tropicalStorm }
        if has("thunder", "tstm", "t-storm") { return .thunderstorm }
        if has("freezing drizzle") { return .freezingDrizzle }
        if has("freezing rain") { return .freezingRain }
        if has("ice pellets") { return .icePellets }
        if has("sleet") { return .icePellets }
        if has("wintry mix") { return .mixed }
        if has("rain") && has("snow") { return .sleet }
        if has("blizzard") { return .blizzard }
        if has("flurries") { return .flurries }
        if has("snow") { return has("showers") ? .snowShowers : has("light") ? .lightSnow : has("heavy") ? .heavySnow : .snow }
        if has("drizzle") { return .drizzle }
        if has("rain", "showers") {
            if has("showers") { return .rainShowers }
            return has("light") ? .lightRain : has("heavy") ? .heavyRain : .rain
        }
        if has("fog") { return .fog }
        if has("mist") { return .mist }
        if has("smoke") { return .smoke }
        if has("dust") { return .dust }
        if has("haze") { return .haze }
        if has("overcast") { return .overcast }
        if has("mostly cloudy") || words == "cloudy" { return .mostlyCloudy }
        if has("partly", "mostly sunny", "mostly clear") { return .partlyCloudy }
        if has("sunny", "clear", "fair") { return .clear }
        if has("cloudy") { return .mostlyCloudy }
        if has("breezy") { return .breezy }
        if has("windy", "blustery") { return .windy }
        return .unknown
    }
}
