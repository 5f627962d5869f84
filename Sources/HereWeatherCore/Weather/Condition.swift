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
}
