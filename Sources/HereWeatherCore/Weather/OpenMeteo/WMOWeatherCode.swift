/// WMO weather interpretation codes (WW), as Open-Meteo documents them.
enum WMOWeatherCode {
    /// The condition and the documented words for `code`.
    static func describe(_ code: Int?) -> (Condition, String) {
        guard let code else { return (.unknown, "Unknown") }
        switch code {
        case 0: return (.clear, "Clear sky")
        case 1: return (.clear, "Mainly clear")
        case 2: return (.partlyCloudy, "Partly cloudy")
        case 3: return (.cloudy, "Overcast")
        case 45: return (.fog, "Fog")
        case 48: return (.fog, "Depositing rime fog")
        case 51: return (.drizzle, "Light drizzle")
        case 53: return (.drizzle, "Moderate drizzle")
        case 55: return (.drizzle, "Dense drizzle")
        case 56: return (.freezingRain, "Light freezing drizzle")
        case 57: return (.freezingRain, "Dense freezing drizzle")
        case 61: return (.rain, "Slight rain")
        case 63: return (.rain, "Moderate rain")
        case 65: return (.rain, "Heavy rain")
        case 66: return (.freezingRain, "Light freezing rain")
        case 67: return (.freezingRain, "Heavy freezing rain")
        case 71: return (.snow, "Slight snow fall")
        case 73: return (.snow, "Moderate snow fall")
        case 75: return (.snow, "Heavy snow fall")
        case 77: return (.snow, "Snow grains")
        case 80: return (.rain, "Slight rain showers")
        case 81: return (.rain, "Moderate rain showers")
        case 82: return (.rain, "Violent rain showers")
        case 85: return (.snow, "Slight snow showers")
        case 86: return (.snow, "Heavy snow showers")
        case 95: return (.thunderstorm, "Thunderstorm")
        case 96: return (.thunderstorm, "Thunderstorm with slight hail")
        case 99: return (.thunderstorm, "Thunderstorm with heavy hail")
        default: return (.unknown, "Weather code \(code)")
        }
    }
}
