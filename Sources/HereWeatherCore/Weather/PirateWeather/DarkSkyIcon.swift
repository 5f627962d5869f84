/// Dark Sky's `icon` names in the condition vocabulary: the original ten (`clear-day`,
/// `clear-night`, `rain`, `snow`, `sleet`, `wind`, `fog`, `cloudy`, `partly-cloudy-day`,
/// `partly-cloudy-night`) and the extras Pirate Weather sends with `icon=pirate`
/// (`thunderstorm`, `hail`, `drizzle`, `mostly-clear-day`, `mixed`, `smoke`, ...).
enum DarkSkyIcon {
    /// The condition, and whether the icon says day (`-day`) or night (`-night`).
    static func describe(_ icon: String?) -> (condition: Condition, isDay: Bool?) {
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
        return (condition(String(name)), isDay)
    }

    static func condition(_ name: String) -> Condition {
        switch name {
        case "clear", "mostly-clear": return .clear
        case "partly-cloudy": return .partlyCloudy
        case "cloudy", "mostly-cloudy": return .cloudy
        case "fog", "mist": return .fog
        case "haze", "smoke": return .haze
        case "drizzle", "very-light-rain": return .drizzle
        case "rain", "light-rain", "heavy-rain", "precipitation": return .rain
        case "freezing-rain", "freezing-drizzle", "light-freezing-rain", "heavy-freezing-rain": return .freezingRain
        case "sleet", "light-sleet", "heavy-sleet", "very-light-sleet", "mixed", "hail", "ice": return .sleet
        case "snow", "light-snow", "heavy-snow", "flurries", "very-light-snow": return .snow
        case "thunderstorm", "thunder": return .thunderstorm
        case "wind", "breezy", "dangerous-wind": return .wind
        default: return .unknown
        }
    }
}
