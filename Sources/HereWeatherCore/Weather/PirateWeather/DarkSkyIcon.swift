/// Dark Sky's `icon` names as condition codes: the original ten (`clear-day`, `clear-night`,
/// `rain`, `snow`, `sleet`, `wind`, `fog`, `cloudy`, `partly-cloudy-day`,
/// `partly-cloudy-night`) and the extras Pirate Weather sends with `icon=pirate`
/// (`thunderstorm`, `hail`, `drizzle`, `mostly-clear-day`, `mixed`, `smoke`, ...). The
/// original icons say little ("rain" is any rain): the `summary` beside them ("Light Rain",
/// "Overcast", "Breezy") says more, where it is one of Dark Sky's English phrases and names
/// weather of the icon's group.
enum DarkSkyIcon {
    /// The condition, and whether the icon says day (`-day`) or night (`-night`).
    static func describe(_ icon: String?, summary: String? = nil) -> (condition: Condition, isDay: Bool?) {
        guard let icon else { return (.unknown, nil) }
        var name = Substring(icon)
        var isDay: Bool?
        if name.hasSuffix("-day") {
            isDay = true
            name = name.dropLast(4)
        } else if name.hasSuffix("-night") {
            isDay = false
            name = name.dropLast(6)
        }
        let fromIcon = condition(String(name))
        guard let summary, let refined = phrases[summary.lowercased()], refined.group == fromIcon.group else {
            return (fromIcon, isDay)
        }
        return (refined, isDay)
    }

    static func condition(_ name: String) -> Condition {
        switch name {
        case "clear": return .clear
        case "mostly-clear": return .mainlyClear
        case "partly-cloudy": return .partlyCloudy
        case "mostly-cloudy": return .mostlyCloudy
        case "cloudy": return .overcast
        case "fog": return .fog
        case "mist": return .mist
        case "haze": return .haze
        case "smoke": return .smoke
        case "drizzle": return .drizzle
        case "very-light-rain": return .lightDrizzle
        case "light-rain": return .lightRain
        case "rain": return .rain
        case "heavy-rain": return .heavyRain
        case "precipitation": return .precipitation
        case "freezing-drizzle": return .freezingDrizzle
        case "light-freezing-rain": return .lightFreezingRain
        case "freezing-rain": return .freezingRain
        case "heavy-freezing-rain": return .heavyFreezingRain
        case "very-light-sleet", "light-sleet": return .lightSleet
        case "sleet": return .sleet
        case "heavy-sleet": return .heavySleet
        case "mixed": return .mixed
        case "hail": return .hail
        case "ice": return .icePellets
        case "flurries", "very-light-snow": return .flurries
        case "light-snow": return .lightSnow
        case "snow": return .snow
        case "heavy-snow": return .heavySnow
        case "thunderstorm", "thunder": return .thunderstorm
        case "breezy": return .breezy
        case "wind": return .windy
        case "dangerous-wind": return .dangerousWind
        default: return .unknown
        }
    }

    /// Dark Sky's short summaries (lower case) and what they say.
    static let phrases: [String: Condition] = [
        "clear": .clear, "mostly clear": .mainlyClear, "partly cloudy": .partlyCloudy,
        "mostly cloudy": .mostlyCloudy, "overcast": .overcast, "foggy": .fog, "fog": .fog, "mist": .mist,
        "haze": .haze, "smoke": .smoke, "drizzle": .drizzle, "light drizzle": .lightDrizzle,
        "possible drizzle": .lightDrizzle, "light rain": .lightRain, "possible light rain": .lightRain,
        "rain": .rain, "heavy rain": .heavyRain, "light sleet": .lightSleet, "sleet": .sleet,
        "heavy sleet": .heavySleet, "flurries": .flurries, "possible flurries": .flurries, "light snow": .lightSnow,
        "possible light snow": .lightSnow, "snow": .snow, "heavy snow": .heavySnow, "thunderstorms": .thunderstorm,
        "breezy": .breezy, "windy": .windy, "dangerously windy": .dangerousWind,
    ]
}
