/// The weather in a small fixed vocabulary shared by every provider.
///
/// Providers' own words go alongside in `description`; this is what glyphs, status-bar
/// classes and scripts key on.
public enum Condition: String, Sendable, CaseIterable {
    case clear
    case partlyCloudy = "partly_cloudy"
    case cloudy
    case fog
    case haze
    case drizzle
    case rain
    case freezingRain = "freezing_rain"
    case sleet
    case snow
    case thunderstorm
    case wind
    case unknown

    /// A glyph for a terminal, with day and night variants where the sky shows.
    public func glyph(isDay: Bool?) -> String {
        let night = isDay == false
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
}
