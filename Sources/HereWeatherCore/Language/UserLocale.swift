/// The language a run speaks and the customs it writes in: the catalogue's words, CLDR's
/// conventions for numbers, dates and times, and the countries that decide the units and the
/// clock when they are "auto". Decided once per run by `LanguageChoice`.
public struct UserLocale: Sendable, Equatable {
    public var catalogue: Catalogue
    public var conventions: LocaleConventions
    /// The country whose measurement system "auto" units follow (`LC_MEASUREMENT`'s).
    public var measurementTerritory: String?
    /// The country whose clock "auto" follows (`LC_TIME`'s).
    public var timeTerritory: String?

    /// here-weather's English in the C locale: the words and conventions it always had.
    public static let english = UserLocale(language: "en")

    /// The locale for a catalogue (`language`, a code of `LanguageData.all`; English when there
    /// is none), with the countries for units and clock. English's conventions follow the
    /// clock's country: CLDR's US English in the US (and its other "en" territories),
    /// international English elsewhere, here-weather's own with no country.
    public init(language: String, measurementTerritory: String? = nil, timeTerritory: String? = nil) {
        let data = LanguageData.named(language) ?? LanguageData.all[0]
        catalogue = Catalogue(data)
        self.measurementTerritory = measurementTerritory
        self.timeTerritory = timeTerritory
        if data.code == "en" {
            switch timeTerritory {
            case nil: conventions = LocaleConventions(LanguageData.englishC)
            case let country? where Self.listed(country, LanguageData.englishTerritories):
                conventions = LocaleConventions(data.conventions)
            default: conventions = LocaleConventions(LanguageData.englishWorld)
            }
        } else {
            conventions = LocaleConventions(data.conventions)
        }
    }

    /// The catalogue's code ("de", "pt-BR"): JSON's `language`.
    public var code: String { catalogue.code }

    /// The units "auto" stands for: imperial in the US, Liberia and Myanmar (CLDR), else metric,
    /// and metric with no country.
    public var units: Units {
        measurementTerritory.map { Self.listed($0, LanguageData.imperialTerritories) } == true ? .imperial : .metric
    }

    /// The clock "auto" stands for: 12-hour where CLDR says the country prefers it (the US,
    /// Canada, India, Australia, Korea ...), else 24-hour, and 24-hour with no country.
    public var clock: Configuration.OutputSettings.ClockFormat {
        timeTerritory.map { Self.listed($0, LanguageData.twelveHourTerritories) } == true ? .twelveHour : .twentyFourHour
    }

    /// Whether `country` (two letters) is one of the two-letter codes run together in `list`.
    static func listed(_ country: String, _ list: String) -> Bool {
        guard country.utf8.count == 2 else { return false }
        var index = list.startIndex
        while index < list.endIndex {
            let end = list.index(index, offsetBy: 2, limitedBy: list.endIndex) ?? list.endIndex
            if list[index..<end] == country { return true }
            index = end
        }
        return false
    }
}

extension UserLocale: CustomStringConvertible, CustomDebugStringConvertible {
    /// "de (measurement DE, time DE)": short, for test failures and logs (not the whole catalogue).
    public var description: String {
        "\(code) (measurement \(measurementTerritory ?? "none"), time \(timeTerritory ?? "none"))"
    }

    public var debugDescription: String { "UserLocale(" + description + ")" }
}
