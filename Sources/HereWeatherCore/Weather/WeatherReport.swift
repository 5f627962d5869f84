#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The weather at one place from one provider, in one unit system.
///
/// Every provider decodes into this model; output formats read only this.
public struct WeatherReport: Sendable {
    public var provider: WeatherProviderKind
    public var units: Units
    /// The place name the provider gives, if any.
    public var placeName: String?
    /// The country code the provider gives, if any.
    public var country: String?
    /// The location's offset from UTC, in seconds; report times are shown at this offset.
    public var utcOffset: Int
    public var current: CurrentConditions
    /// The next hours at the provider's step.
    public var hourly: [HourlyForecast]
    /// Seconds between hourly entries (10800 for OpenWeatherMap's classic API, 3600 for the rest).
    public var hourlyStep: Int
    /// Up to 7 days, starting today.
    public var daily: [DailyForecast]
    /// Warnings in force or coming, when the service gives them (Pirate Weather, One Call).
    public var alerts: [WeatherAlert]
    /// Warnings a country's feed holds for areas the point could not be matched to
    /// (MeteoAlarm): never shown as local, only counted (`elsewhereCountry` names the country).
    public var alertsElsewhere: [WeatherAlert] = []
    /// The ISO 3166-1 code of the country `alertsElsewhere` are in.
    public var elsewhereCountry: String?
    /// The next two hours' precipitation in short steps, when the provider has it (`Nowcast`).
    public var nowcast: Nowcast?
    /// What the current conditions are (NWS: an observation or this hour's forecast); `nil`
    /// when the provider gives one kind only.
    public var currentBasis: CurrentBasis?
    /// Whether the report came from the cache, how old it is, and whether it is stale.
    public var freshness = Freshness()
    /// When the service gave the data, when the recording says (the NWS: the fetch's time);
    /// `nil` when only the current conditions' time says it (`issued`).
    public var recordedAt: Date?
    /// The air quality at the place, from its companion request (`AirQuality`); `nil` when
    /// none was asked, or it failed or came too late.
    public var airQuality: AirQuality?

    /// The service's "now" for the data: `recordedAt`, else the current conditions' time.
    public var issued: Date { recordedAt ?? current.time }

    public init(provider: WeatherProviderKind, units: Units, placeName: String? = nil, country: String? = nil,
                utcOffset: Int, current: CurrentConditions, hourly: [HourlyForecast] = [],
                hourlyStep: Int = 3600, daily: [DailyForecast] = [], alerts: [WeatherAlert] = []) {
        self.provider = provider
        self.units = units
        self.placeName = placeName
        self.country = country
        self.utcOffset = utcOffset
        self.current = current
        self.hourly = hourly
        self.hourlyStep = hourlyStep
        self.daily = daily
        self.alerts = alerts
    }
}

/// Where a report came from: the service just now, the cache, or a recording.
public struct Freshness: Sendable, Equatable {
    /// Served from the cache rather than the service.
    public var cached = false
    /// Seconds since the service sent it.
    public var ageSeconds: Double = 0
    /// Older than the cache's TTL, shown because the service could not be reached.
    public var stale = false
    /// Decoded from a recorded response (`--weather-replay`), not asked of the service.
    public var replayed = false
    /// Why the service could not refresh a report shown from the cache instead (the error's
    /// message); `nil` unless the report stands in for a failed fetch.
    public var refreshFailure: String?

    public init(cached: Bool = false, ageSeconds: Double = 0, stale: Bool = false, replayed: Bool = false,
                refreshFailure: String? = nil) {
        self.cached = cached
        self.ageSeconds = ageSeconds
        self.stale = stale
        self.replayed = replayed
        self.refreshFailure = refreshFailure
    }
}

/// Conditions now. Temperatures and speeds are in the report's units; `nil` is absent.
public struct CurrentConditions: Sendable {
    /// When the provider observed or modelled these values.
    public var time: Date
    public var temperature: Double?
    public var feelsLike: Double?
    public var temperatureMin: Double?
    public var temperatureMax: Double?
    /// Relative humidity, percent.
    public var humidity: Double?
    /// Sea-level pressure in hPa, whatever the units.
    public var pressure: Double?
    /// Cloud cover, percent.
    public var cloudCover: Double?
    public var windSpeed: Double?
    /// Degrees the wind blows from; `nil` when calm or not given.
    public var windDirection: Double?
    public var windGust: Double?
    /// Precipitation over `precipitationPeriod`, in mm or in; `nil` when not given.
    public var precipitation: Precipitation?
    /// Metres, whatever the units.
    public var visibility: Double?
    public var condition: Condition
    /// The provider's own words for the condition.
    public var description: String
    public var isDay: Bool?
    public var sunrise: Date?
    public var sunset: Date?
    /// The UV index now (WHO's scale, 0 and up); `nil` when the provider gives none (the NWS,
    /// OpenWeatherMap's classic API). MET Norway's is the clear-sky index.
    public var uvIndex: Double?

    public init(time: Date, temperature: Double? = nil, feelsLike: Double? = nil, temperatureMin: Double? = nil,
                temperatureMax: Double? = nil, humidity: Double? = nil, pressure: Double? = nil,
                cloudCover: Double? = nil, windSpeed: Double? = nil, windDirection: Double? = nil,
                windGust: Double? = nil, precipitation: Precipitation? = nil, visibility: Double? = nil,
                condition: Condition = .unknown, description: String = "", isDay: Bool? = nil,
                sunrise: Date? = nil, sunset: Date? = nil) {
        self.time = time
        self.temperature = temperature
        self.feelsLike = feelsLike
        self.temperatureMin = temperatureMin
        self.temperatureMax = temperatureMax
        self.humidity = humidity
        self.pressure = pressure
        self.cloudCover = cloudCover
        self.windSpeed = windSpeed
        self.windDirection = windDirection
        self.windGust = windGust
        self.precipitation = precipitation
        self.visibility = visibility
        self.condition = condition
        self.description = description
        self.isDay = isDay
        self.sunrise = sunrise
        self.sunset = sunset
    }
}

/// Liquid-equivalent precipitation over a period, in mm or in.
public struct Precipitation: Sendable, Equatable {
    public var total: Double
    public var rain: Double?
    public var snow: Double?
    /// The period the amounts cover, in seconds (Open-Meteo: 900; OpenWeatherMap: 3600 or 10800;
    /// MET Norway: the next 3600).
    public var periodSeconds: Int

    public init(total: Double, rain: Double? = nil, snow: Double? = nil, periodSeconds: Int) {
        self.total = total
        self.rain = rain
        self.snow = snow
        self.periodSeconds = periodSeconds
    }
}

/// One step of the hourly forecast.
public struct HourlyForecast: Sendable {
    public var time: Date
    public var temperature: Double?
    public var feelsLike: Double?
    /// Chance of precipitation, percent.
    public var precipitationProbability: Double?
    /// Amount over the step, in mm or in.
    public var precipitation: Double?
    public var windSpeed: Double?
    public var windDirection: Double?
    public var condition: Condition
    public var description: String
    public var isDay: Bool?
    /// Relative humidity, percent, when the provider gives it per step (the NWS: for the
    /// current conditions of a forecast hour); not shown in the tables.
    public var humidity: Double?
    /// The UV index of the step, when the provider gives it; not shown in the tables.
    public var uvIndex: Double?

    public init(time: Date, temperature: Double? = nil, feelsLike: Double? = nil,
                precipitationProbability: Double? = nil, precipitation: Double? = nil,
                windSpeed: Double? = nil, windDirection: Double? = nil,
                condition: Condition = .unknown, description: String = "", isDay: Bool? = nil,
                humidity: Double? = nil) {
        self.humidity = humidity
        self.time = time
        self.temperature = temperature
        self.feelsLike = feelsLike
        self.precipitationProbability = precipitationProbability
        self.precipitation = precipitation
        self.windSpeed = windSpeed
        self.windDirection = windDirection
        self.condition = condition
        self.description = description
        self.isDay = isDay
    }
}

/// One day of the daily forecast, by the location's calendar.
public struct DailyForecast: Sendable {
    /// The local date, `YYYY-MM-DD`.
    public var date: String
    public var temperatureMin: Double?
    public var temperatureMax: Double?
    /// Total for the day, in mm or in.
    public var precipitation: Double?
    /// Highest chance of precipitation in the day, percent.
    public var precipitationProbability: Double?
    public var windSpeedMax: Double?
    public var condition: Condition
    public var description: String
    public var sunrise: Date?
    public var sunset: Date?
    /// The day's highest UV index, when the provider gives it.
    public var uvIndexMax: Double?

    public init(date: String, temperatureMin: Double? = nil, temperatureMax: Double? = nil,
                precipitation: Double? = nil, precipitationProbability: Double? = nil,
                windSpeedMax: Double? = nil, condition: Condition = .unknown, description: String = "",
                sunrise: Date? = nil, sunset: Date? = nil) {
        self.date = date
        self.temperatureMin = temperatureMin
        self.temperatureMax = temperatureMax
        self.precipitation = precipitation
        self.precipitationProbability = precipitationProbability
        self.windSpeedMax = windSpeedMax
        self.condition = condition
        self.description = description
        self.sunrise = sunrise
        self.sunset = sunset
    }
}
