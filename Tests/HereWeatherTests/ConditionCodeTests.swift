import Testing
@testable import HereWeatherCore

/// Condition codes: every provider's conditions map to a code fine enough to keep what the
/// service said ("light rain showers" is not "heavy rain"), and its group is what each input
/// gave before codes (so glyphs and waybar classes are unchanged), but for the few inputs named
/// below, whose old group was wrong. Every code has words in every catalogue.
@Suite struct ConditionCodeTests {
    /// The groups before codes, copied from the decoders of that time: the reference.
    enum Before {
        static func wmo(_ code: Int) -> ConditionGroup {
            switch code {
            case 0, 1: return .clear
            case 2: return .partlyCloudy
            case 3: return .cloudy
            case 45, 48: return .fog
            case 51, 53, 55: return .drizzle
            case 56, 57, 66, 67: return .freezingRain
            case 61, 63, 65, 80, 81, 82: return .rain
            case 71, 73, 75, 77, 85, 86: return .snow
            case 95, 96, 99: return .thunderstorm
            default: return .unknown
            }
        }

        static func openWeatherMap(_ id: Int) -> ConditionGroup {
            switch id {
            case 200..<300: return .thunderstorm
            case 300..<400: return .drizzle
            case 511: return .freezingRain
            case 500..<600: return .rain
            case 611..<620: return .sleet
            case 600..<700: return .snow
            case 701, 741: return .fog
            case 771, 781: return .wind
            case 700..<800: return .haze
            case 800: return .clear
            case 801, 802: return .partlyCloudy
            case 803, 804: return .cloudy
            default: return .unknown
            }
        }

        static func metNorway(_ name: String) -> ConditionGroup {
            switch name {
            case "clearsky", "fair": return .clear
            case "partlycloudy": return .partlyCloudy
            case "cloudy": return .cloudy
            case "fog": return .fog
            default: break
            }
            if name.contains("thunder") { return .thunderstorm }
            if name.contains("sleet") { return .sleet }
            if name.contains("snow") { return .snow }
            if name.contains("rain") { return .rain }
            return .unknown
        }

        static func darkSky(_ name: String) -> ConditionGroup {
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

        static func nws(_ code: String) -> ConditionGroup {
            switch code {
            case "skc", "few", "hot", "cold": return .clear
            case "sct", "wind_skc", "wind_few", "wind_sct": return .partlyCloudy
            case "bkn", "ovc", "wind_bkn", "wind_ovc": return .cloudy
            case "snow", "blizzard": return .snow
            case "rain_snow", "rain_sleet", "snow_sleet", "sleet": return .sleet
            case "fzra", "rain_fzra", "snow_fzra": return .freezingRain
            case "rain", "rain_showers", "rain_showers_hi": return .rain
            case "tsra", "tsra_sct", "tsra_hi", "tornado", "hurricane", "tropical_storm": return .thunderstorm
            case "dust", "smoke", "haze": return .haze
            case "fog": return .fog
            default: return .unknown
            }
        }
    }

    static let metNorwayNames = ["clearsky", "fair", "partlycloudy", "cloudy", "fog"]
        + ["", "light", "heavy"].flatMap { intensity in
            ["rain", "sleet", "snow"].flatMap { kind in
                ["", "showers"].flatMap { showers in
                    ["", "andthunder"].map { thunder in
                        // MET's own list spells two "lights": before "sleet" and "snow" with showers and thunder.
                        let light = intensity == "light" && showers == "showers" && thunder == "andthunder" && kind != "rain" ? "lights" : intensity
                        return light + kind + showers + thunder
                    }
                }
            }
        } + ["somethingnew", "heavyrainandsnow"]

    static let darkSkyIcons = ["clear", "mostly-clear", "partly-cloudy", "cloudy", "mostly-cloudy", "fog", "mist", "haze", "smoke",
                               "drizzle", "very-light-rain", "rain", "light-rain", "heavy-rain", "precipitation", "freezing-rain",
                               "freezing-drizzle", "light-freezing-rain", "heavy-freezing-rain", "sleet", "light-sleet",
                               "heavy-sleet", "very-light-sleet", "mixed", "hail", "ice", "snow", "light-snow", "heavy-snow",
                               "flurries", "very-light-snow", "thunderstorm", "thunder", "wind", "breezy", "dangerous-wind",
                               "tornado"]

    static let nwsIcons = ["skc", "few", "sct", "bkn", "ovc", "wind_skc", "wind_few", "wind_sct", "wind_bkn", "wind_ovc", "snow",
                           "rain_snow", "rain_sleet", "snow_sleet", "fzra", "rain_fzra", "snow_fzra", "sleet", "rain",
                           "rain_showers", "rain_showers_hi", "tsra", "tsra_sct", "tsra_hi", "tornado", "hurricane",
                           "tropical_storm", "dust", "smoke", "haze", "hot", "cold", "blizzard", "fog"]

    @Test func groupsAreWhatEachInputGaveBefore() {
        for code in 0...100 {
            #expect(WMOWeatherCode.describe(code).0.group == Before.wmo(code), "WMO \(code)")
        }
        // OpenWeatherMap's tornado (781) is a thunderstorm now, as the NWS's always was, not wind.
        for id in 100...900 where id != 781 {
            #expect(OpenWeatherMapDecoder.condition(id: id).group == Before.openWeatherMap(id), "OpenWeatherMap \(id)")
        }
        #expect(OpenWeatherMapDecoder.condition(id: 781) == .tornado)
        for name in Self.metNorwayNames {
            #expect(MetNorwaySymbol.condition(name).group == Before.metNorway(name), "MET \(name)")
        }
        for icon in Self.darkSkyIcons {
            #expect(DarkSkyIcon.condition(icon).group == Before.darkSky(icon), "Dark Sky \(icon)")
        }
        // The NWS's "fair and windy" and "a few clouds and windy" were partly cloudy; they are clear.
        for icon in Self.nwsIcons where icon != "wind_skc" && icon != "wind_few" {
            #expect((NWSCondition.condition(iconCode: icon)?.group ?? .unknown) == Before.nws(icon), "NWS \(icon)")
        }
        #expect(NWSCondition.condition(iconCode: "wind_skc") == .clearAndWindy)
    }

    /// Codes keep what the service said; a summary names weather of the icon's group only.
    @Test func codesKeepTheServicesDistinctions() {
        #expect(WMOWeatherCode.describe(80).0 == .lightRainShowers && WMOWeatherCode.describe(65).0 == .heavyRain)
        #expect(WMOWeatherCode.describe(82).0 == .violentRainShowers && WMOWeatherCode.describe(96).0 == .thunderstormWithHail)
        #expect(MetNorwaySymbol.condition("lightssleetshowersandthunder") == .lightSleetShowersAndThunder)
        #expect(MetNorwaySymbol.condition("heavysnowshowers") == .heavySnowShowers)
        #expect(MetNorwaySymbol.condition("heavyrainandsnow") == .snow, "a name not in MET's list: by what it mentions, snow before rain")
        #expect(OpenWeatherMapDecoder.condition(id: 520) == .lightRainShowers && OpenWeatherMapDecoder.condition(id: 504) == .heavyRain)
        #expect(OpenWeatherMapDecoder.condition(id: 599) == .rain, "an id OpenWeatherMap may add: by its group")
        #expect(DarkSkyIcon.describe("rain", summary: "Light Rain").condition == .lightRain)
        #expect(DarkSkyIcon.describe("cloudy", summary: "Mostly Cloudy").condition == .mostlyCloudy)
        #expect(DarkSkyIcon.describe("rain", summary: "Drizzle").condition == .rain, "drizzle is another group: the icon wins")
        #expect(DarkSkyIcon.describe("rain", summary: "Leichter Regen").condition == .rain, "a translated summary says nothing")
        #expect(DarkSkyIcon.describe("wind", summary: "Breezy").condition == .breezy)
        #expect(NWSCondition.describe(icon: nil, words: "Chance Light Snow").condition == .lightSnow)
        #expect(NWSCondition.describe(icon: nil, words: "Scattered Rain Showers").condition == .rainShowers)
        #expect(NWSCondition.describe(icon: "https://api.weather.gov/icons/land/night/rain_sleet,30?size=small", words: "x").condition
                    == .icePellets)
    }

    /// Every code has its words in every catalogue, distinct from every other code's in English.
    @Test func everyCodeHasWords() {
        let english = Condition.allCases.map { UserLocale.english.text($0.message) }
        #expect(Set(english).count == Condition.allCases.count)
        for code in LanguageData.all.map(\.code) {
            let locale = UserLocale(language: code)
            for condition in Condition.allCases {
                #expect(!locale.text(condition.message).isEmpty, "\(code) \(condition)")
            }
        }
        // English keeps the service's words; other languages take the catalogue's.
        #expect(UserLocale.english.conditionWords(.lightRainShowers, "Slight rain showers") == "Slight rain showers")
        #expect(UserLocale(language: "de").conditionWords(.lightRainShowers, "Slight rain showers") == "Leichte Regenschauer")
        #expect(UserLocale.english.conditionWords(.partlyCloudy, "") == "Partly cloudy")
    }
}
