/// The kind of weather a warning is about, for services whose event names are not in the
/// output language (DWD's German): its English title is a catalogue message
/// (`hazard.*`), which `UserLocale.alertTitle` shows in the output language.
enum Hazard: String, CaseIterable {
    case thunderstorm, wind, rain, snow, fog, frost, ice, thaw, heat, uv

    /// The English title, as the catalogue's `hazard.*` message has it.
    var englishTitle: String {
        switch self {
        case .thunderstorm: return "Thunderstorms"
        case .wind: return "Wind"
        case .rain: return "Rain"
        case .snow: return "Snow"
        case .fog: return "Fog"
        case .frost: return "Frost"
        case .ice: return "Ice"
        case .thaw: return "Thaw"
        case .heat: return "Heat"
        case .uv: return "UV radiation"
        }
    }

    /// The first of DWD's `EC_GROUP` words ("THUNDERSTORM;WIND;RAIN") that names one.
    init?(dwdGroup: String?) {
        guard let dwdGroup else { return nil }
        for word in dwdGroup.split(whereSeparator: { $0 == ";" || $0 == "," || $0 == " " }) {
            switch word.uppercased() {
            case "THUNDERSTORM", "HAIL": self = .thunderstorm
            case "WIND", "TORNADO": self = .wind
            case "RAIN": self = .rain
            case "SNOWFALL", "SNOWDRIFT": self = .snow
            case "FOG": self = .fog
            case "FROST": self = .frost
            case "GLAZE", "GLACE", "ICE": self = .ice
            case "THAW": self = .thaw
            case "HEAT": self = .heat
            case "UV": self = .uv
            default: continue
            }
            return
        }
        return nil
    }
}
