/// The `lang` parameter of the services that write words of their own: OpenWeatherMap's
/// condition descriptions and Pirate Weather's summaries come in the run's language. Both
/// default to English, so none is sent for it (the request is the one English runs always sent).
public enum ServiceLanguage {
    /// OpenWeatherMap's code for a catalogue's (openweathermap.org/current#multi: some are its
    /// own: cz, kr, ua, no, pt_br, zh_cn); `nil` for English.
    public static func openWeatherMap(_ code: String) -> String? {
        let own = ["cs": "cz", "ko": "kr", "uk": "ua", "nb": "no", "pt-BR": "pt_br", "zh-CN": "zh_cn"]
        return code == "en" ? nil : own[code] ?? code
    }

    /// Pirate Weather's (Dark Sky's) code for a catalogue's: ISO 639-1, "zh" for Simplified
    /// Chinese, "pt" for both Portuguese; `nil` for English.
    public static func pirateWeather(_ code: String) -> String? {
        let own = ["pt-BR": "pt", "zh-CN": "zh"]
        return code == "en" ? nil : own[code] ?? code
    }
}
