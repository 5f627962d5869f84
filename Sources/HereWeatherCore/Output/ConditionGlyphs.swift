/// The glyph sets for conditions (`[output] icons`), each with day and night variants.
public typealias GlyphSet = Configuration.OutputSettings.Icons

extension Condition {
    /// The glyph of the condition's group in `set` (`ConditionGroup.glyph`).
    public func glyph(_ set: GlyphSet, isDay: Bool?) -> String {
        group.glyph(set, isDay: isDay)
    }
}

extension ConditionGroup {
    /// The glyph for this group in `set`; the night variant when `isDay` is `false`
    /// (unknown day or night shows the day variant).
    ///
    /// - `emoji`: Unicode emoji (the default).
    /// - `nerd`: Nerd Fonts' weather icons (`nf-weather-*`, private use U+E300–U+E3EB); they
    ///   show only with a Nerd Font.
    /// - `ascii`: wttr.in's plain-text symbols ("o" sun, "m" some cloud, "/" rain, "*" snow),
    ///   plus ")" for a clear night and "~" for wind.
    public func glyph(_ set: GlyphSet, isDay: Bool?) -> String {
        let night = isDay == false
        switch set {
        case .emoji: return emoji(night: night)
        case .nerd: return nerd(night: night)
        case .ascii: return ascii(night: night)
        }
    }

    private func emoji(night: Bool) -> String {
        switch self {
        case .clear: return night ? "🌙" : "☀️"
        case .partlyCloudy: return night ? "☁️" : "⛅"
        case .cloudy: return "☁️"
        case .fog, .haze: return "🌫️"
        case .drizzle, .rain: return "🌧️"
        case .freezingRain, .sleet: return "🌨️"
        case .snow: return "❄️"
        case .thunderstorm: return "⛈️"
        case .wind: return "💨"
        case .unknown: return "?"
        }
    }

    /// Nerd Fonts code points, from its `i_weather.sh` table (Weather Icons moved to U+E300).
    private func nerd(night: Bool) -> String {
        let scalar: UInt32
        switch self {
        case .clear: scalar = night ? 0xE32B : 0xE30D             // night_clear / day_sunny
        case .partlyCloudy: scalar = night ? 0xE379 : 0xE302      // night_alt_partly_cloudy / day_cloudy
        case .cloudy: scalar = 0xE312                             // cloudy
        case .fog: scalar = night ? 0xE346 : 0xE303               // night_fog / day_fog
        case .haze: scalar = night ? 0xE346 : 0xE3AE              // night_fog / day_haze
        case .drizzle: scalar = night ? 0xE328 : 0xE30B           // night_alt_sprinkle / day_sprinkle
        case .rain: scalar = night ? 0xE325 : 0xE308              // night_alt_rain / day_rain
        case .freezingRain: scalar = night ? 0xE323 : 0xE306      // night_alt_rain_mix / day_rain_mix
        case .sleet: scalar = night ? 0xE3AC : 0xE3AA             // night_alt_sleet / day_sleet
        case .snow: scalar = night ? 0xE327 : 0xE30A              // night_alt_snow / day_snow
        case .thunderstorm: scalar = night ? 0xE32A : 0xE30F      // night_alt_thunderstorm / day_thunderstorm
        case .wind: scalar = night ? 0xE31E : 0xE37D              // windy / day_windy
        case .unknown: scalar = 0xE374                            // na
        }
        return Unicode.Scalar(scalar).map { String(Character($0)) } ?? "?"
    }

    private func ascii(night: Bool) -> String {
        switch self {
        case .clear: return night ? ")" : "o"
        case .partlyCloudy: return "m"
        case .cloudy: return "mmm"
        case .fog, .haze: return "="
        case .drizzle: return "."
        case .rain: return "/"
        case .freezingRain: return "x/"
        case .sleet: return "x"
        case .snow: return "*"
        case .thunderstorm: return "!/"
        case .wind: return "~"
        case .unknown: return "?"
        }
    }
}
