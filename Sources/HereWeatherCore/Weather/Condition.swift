/// The weather as a code shared by every provider, fine enough to tell "light rain showers"
/// from "heavy rain": JSON's `condition`, never translated. The words for it come from the
/// catalogue when the report is shown (`Condition.message`); the provider's own words go
/// alongside in `description`.
///
/// Every provider maps to it: Open-Meteo's WMO codes, MET Norway's symbol codes,
/// OpenWeatherMap's condition ids, Pirate Weather's icon and summary, the NWS's icon codes.
/// Each code belongs to a `ConditionGroup`, the small vocabulary that glyphs, status-bar
/// classes and `condition_group` use.
public enum Condition: String, Sendable, CaseIterable {
    case clear
    case mainlyClear = "mainly_clear"
    case fewClouds = "few_clouds"
    case partlyCloudy = "partly_cloudy"
    case mostlyCloudy = "mostly_cloudy"
    case overcast
    case clearAndWindy = "clear_and_windy"
    case partlyCloudyAndWindy = "partly_cloudy_and_windy"
    case mostlyCloudyAndWindy = "mostly_cloudy_and_windy"
    case overcastAndWindy = "overcast_and_windy"
    case hot
    case cold
    case fog
    case freezingFog = "freezing_fog"
    case mist
    case haze
    case smoke
    case dust
    case sand
    case volcanicAsh = "volcanic_ash"
    case lightDrizzle = "light_drizzle"
    case drizzle
    case heavyDrizzle = "heavy_drizzle"
    case lightFreezingDrizzle = "light_freezing_drizzle"
    case freezingDrizzle = "freezing_drizzle"
    case heavyFreezingDrizzle = "heavy_freezing_drizzle"
    case lightFreezingRain = "light_freezing_rain"
    case freezingRain = "freezing_rain"
    case heavyFreezingRain = "heavy_freezing_rain"
    case precipitation
    case lightRain = "light_rain"
    case rain
    case heavyRain = "heavy_rain"
    case lightRainShowers = "light_rain_showers"
    case rainShowers = "rain_showers"
    case heavyRainShowers = "heavy_rain_showers"
    case violentRainShowers = "violent_rain_showers"
    case lightSleet = "light_sleet"
    case sleet
    case heavySleet = "heavy_sleet"
    case lightSleetShowers = "light_sleet_showers"
    case sleetShowers = "sleet_showers"
    case heavySleetShowers = "heavy_sleet_showers"
    case mixed
    case hail
    case icePellets = "ice_pellets"
    case lightSnow = "light_snow"
    case snow
    case heavySnow = "heavy_snow"
    case lightSnowShowers = "light_snow_showers"
    case snowShowers = "snow_showers"
    case heavySnowShowers = "heavy_snow_showers"
    case snowGrains = "snow_grains"
    case flurries
    case blizzard
    case lightThunderstorm = "light_thunderstorm"
    case thunderstorm
    case heavyThunderstorm = "heavy_thunderstorm"
    case thunderstormWithHail = "thunderstorm_with_hail"
    case thunderstormWithHeavyHail = "thunderstorm_with_heavy_hail"
    case lightRainAndThunder = "light_rain_and_thunder"
    case rainAndThunder = "rain_and_thunder"
    case heavyRainAndThunder = "heavy_rain_and_thunder"
    case lightRainShowersAndThunder = "light_rain_showers_and_thunder"
    case rainShowersAndThunder = "rain_showers_and_thunder"
    case heavyRainShowersAndThunder = "heavy_rain_showers_and_thunder"
    case lightSleetAndThunder = "light_sleet_and_thunder"
    case sleetAndThunder = "sleet_and_thunder"
    case heavySleetAndThunder = "heavy_sleet_and_thunder"
    case lightSleetShowersAndThunder = "light_sleet_showers_and_thunder"
    case sleetShowersAndThunder = "sleet_showers_and_thunder"
    case heavySleetShowersAndThunder = "heavy_sleet_showers_and_thunder"
    case lightSnowAndThunder = "light_snow_and_thunder"
    case snowAndThunder = "snow_and_thunder"
    case heavySnowAndThunder = "heavy_snow_and_thunder"
    case lightSnowShowersAndThunder = "light_snow_showers_and_thunder"
    case snowShowersAndThunder = "snow_showers_and_thunder"
    case heavySnowShowersAndThunder = "heavy_snow_showers_and_thunder"
    case tornado
    case hurricane
    case tropicalStorm = "tropical_storm"
    case breezy
    case windy
    case dangerousWind = "dangerous_wind"
    case squalls
    case unknown

    /// The group the code belongs to (its glyph, its status-bar class).
    public var group: ConditionGroup {
        switch self {
        case .clear, .mainlyClear, .clearAndWindy, .hot, .cold: return .clear
        case .fewClouds, .partlyCloudy, .partlyCloudyAndWindy: return .partlyCloudy
        case .mostlyCloudy, .overcast, .mostlyCloudyAndWindy, .overcastAndWindy: return .cloudy
        case .fog, .freezingFog, .mist: return .fog
        case .haze, .smoke, .dust, .sand, .volcanicAsh: return .haze
        case .lightDrizzle, .drizzle, .heavyDrizzle: return .drizzle
        case .lightFreezingDrizzle, .freezingDrizzle, .heavyFreezingDrizzle, .lightFreezingRain, .freezingRain,
             .heavyFreezingRain:
            return .freezingRain
        case .precipitation, .lightRain, .rain, .heavyRain, .lightRainShowers, .rainShowers, .heavyRainShowers,
             .violentRainShowers:
            return .rain
        case .lightSleet, .sleet, .heavySleet, .lightSleetShowers, .sleetShowers, .heavySleetShowers, .mixed, .hail,
             .icePellets:
            return .sleet
        case .lightSnow, .snow, .heavySnow, .lightSnowShowers, .snowShowers, .heavySnowShowers, .snowGrains, .flurries,
             .blizzard:
            return .snow
        case .lightThunderstorm, .thunderstorm, .heavyThunderstorm, .thunderstormWithHail, .thunderstormWithHeavyHail,
             .lightRainAndThunder, .rainAndThunder, .heavyRainAndThunder, .lightRainShowersAndThunder,
             .rainShowersAndThunder, .heavyRainShowersAndThunder, .lightSleetAndThunder, .sleetAndThunder,
             .heavySleetAndThunder, .lightSleetShowersAndThunder, .sleetShowersAndThunder, .heavySleetShowersAndThunder,
             .lightSnowAndThunder, .snowAndThunder, .heavySnowAndThunder, .lightSnowShowersAndThunder,
             .snowShowersAndThunder, .heavySnowShowersAndThunder, .tornado, .hurricane, .tropicalStorm:
            return .thunderstorm
        case .breezy, .windy, .dangerousWind, .squalls: return .wind
        case .unknown: return .unknown
        }
    }
}

/// The weather in a small fixed vocabulary: the group of a `Condition`. Glyphs, waybar's
/// `class` and `alt`, and JSON's `condition_group` key on it.
public enum ConditionGroup: String, Sendable, CaseIterable {
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
