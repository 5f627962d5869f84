/// WMO weather interpretation codes (WW), as Open-Meteo documents them.
enum WMOWeatherCode {
    /// The condition and the documented words for `code`.
    static func describe(_ code: Int?) -> (Condition, String) {
        guard let code else { return (.unknown, "Unknown") }
        switch code {
        case 0: return (.clear, "Clear sky")
        case 1: return (.mainlyClear, "Mainly clear")
        case 2: return (.partlyCloudy, "Partly cloudy")
        case 3: return (.overcast, "Overcast")
        case 45: return (.fog, "Fog")
        case 48: return (.freezingFog, "Depositing rime fog")
        case 51: return (.lightDrizzle, "Light drizzle")
        case 53: return (.drizzle, "Moderate drizzle")
        case 55: return (.heavyDrizzle, "Dense drizzle")
        case 56: return (.lightFreezingDrizzle, "Light freezing drizzle")
        case 57: return (.heavyFreezingDrizzle, "Dense freezing drizzle")
        case 61: return (.lightRain, "Slight rain")
        case 63: return (.rain, "Moderate rain")
        case 65: return (.heavyRain, "Heavy rain")
        case 66: return (.lightFreezingRain, "Light freezing rain")
        case 67: return (.heavyFreezingRain, "Heavy freezing rain")
        case 71: return (.lightSnow, "Slight snow fall")
        case 73: return (.snow, "Moderate snow fall")
        case 75: return (.heavySnow, "Heavy snow fall")
        case 77: return (.snowGrains, "Snow grains")
        case 80: return (.lightRainShowers, "Slight rain showers")
        case 81: return (.rainShowers, "Moderate rain showers")
        case 82: return (.violentRainShowers, "Violent rain showers")
        case 85: return (.lightSnowShowers, "Slight snow showers")
        case 86: return (.heavySnowShowers, "Heavy snow showers")
        case 95: return (.thunderstorm, "Thunderstorm")
        case 96: return (.thunderstormWithHail, "Thunderstorm with slight hail")
        case 99: return (.thunderstormWithHeavyHail, "Thunderstorm with heavy hail")
        default: return (.unknown, "Weather code \(code)")
        }
    }
}
