#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HereWeatherPlaces

/// The `--json` output: one object. Absent values are `null`; times are ISO 8601 with the
/// location's offset; numbers are in the report's units. docs/here-weather.schema.json
/// describes every key: change it with the writer (the schema tests fail otherwise).
public enum JSONReport {
    /// The object for `report`; its nowcast is read at `now`. `language` is the catalogue's
    /// code; codes, keys and numbers are the same in every language, the words of
    /// `description` and the nearest place's `text` are in it.
    public static func render(location: Location, report: WeatherReport, now: Date,
                              locale: UserLocale = .english) -> String {
        JSONOutput.object([
            ("language", .string(locale.code)),
            ("location", locationObject(location, utcOffset: report.utcOffset, locale: locale)),
            ("weather", weatherObject(report, now: now, locale: locale)),
        ]).serialized()
    }

    /// `{"error":{"code","message","exit_status"}}` for a failed run.
    public static func error(_ error: any UserFacingError) -> String {
        JSONOutput.object([("error", .object([
            ("code", .string(error.exitStatus.code)),
            ("message", .string(ServiceText.printable(error.message))),
            ("exit_status", .number(Double(error.exitStatus.rawValue))),
        ]))]).serialized()
    }

    static func locationObject(_ location: Location, utcOffset: Int, locale: UserLocale = .english) -> JSONOutput {
        .object([
            ("latitude", .number(location.coordinate.latitude)),
            ("longitude", .number(location.coordinate.longitude)),
            ("accuracy_m", .number(location.horizontalAccuracy)),
            ("source", .string(location.origin.name)),
            ("service", .string(location.service)),
            ("timestamp", .string(LocalTime.iso8601(location.timestamp, utcOffset: utcOffset))),
            ("receiver_time", .string(location.receiverTime.map { LocalTime.iso8601($0, utcOffset: utcOffset) })),
            ("name", .string(location.name)),
            ("altitude_m", .number(location.altitude)),
            ("accuracy_estimated", .bool(location.accuracyIsEstimate)),
            ("meets_accuracy", .bool(location.meetsDesiredAccuracy)),
            ("mode", .number(location.mode.map(Double.init))),
            ("simulated", .bool(location.simulated)),
            ("access_points", .number(location.accessPoints.map(Double.init))),
            ("remembered", .bool(location.memory != nil)),
            ("nearest_place", location.nearbyPlace.map { nearbyPlaceObject($0, locale: locale) } ?? .null),
        ])
    }

    /// The nearest populated place (GeoNames, offline): distance and bearing from it to the fix.
    static func nearbyPlaceObject(_ place: NearbyPlace, locale: UserLocale = .english) -> JSONOutput {
        .object([
            ("name", .string(place.name)),
            ("region", .string(place.region)),
            ("country", .string(place.countryCode)),
            ("latitude", .number(place.latitude)),
            ("longitude", .number(place.longitude)),
            ("distance_m", .number(place.distance.rounded())),
            ("bearing_deg", .number(Double(place.wholeDegreesBearing))),
            ("bearing", .string(place.compassPoint)),
            ("text", .string(locale.nearby(place))),
        ])
    }

    static func weatherObject(_ report: WeatherReport, now: Date, locale: UserLocale = .english) -> JSONOutput {
        .object([
            ("provider", .string(report.provider.rawValue)),
            ("units", .string(report.units.rawValue)),
            ("cached", .bool(report.freshness.cached)),
            ("age_s", .number(report.freshness.ageSeconds.rounded())),
            ("stale", .bool(report.freshness.stale)),
            ("replayed", .bool(report.freshness.replayed)),
            ("place", .string(report.placeName)),
            ("country", .string(report.country)),
            ("utc_offset_s", .number(Double(report.utcOffset))),
            ("current", currentObject(report.current, basis: report.currentBasis, offset: report.utcOffset, locale: locale)),
            ("hourly_step_s", .number(Double(report.hourlyStep))),
            ("hourly", .array(report.hourly.map { hourObject($0, offset: report.utcOffset, locale: locale) })),
            ("daily", .array(report.daily.map { dayObject($0, offset: report.utcOffset, locale: locale) })),
            ("alerts", .array(report.alerts.map { alertObject($0, offset: report.utcOffset) })),
            ("alerts_elsewhere", elsewhereObject(report)),
            ("nowcast", NowcastJSON.object(report, now: now)),
            ("air_quality", airQualityObject(report.airQuality, offset: report.utcOffset)),
        ])
    }

    /// The air quality now (`AirQuality`), `null` without it: both indexes, the particles in
    /// µg/m³, and `pollen` (grains/m³ by species) or `null` where the service has none.
    static func airQualityObject(_ air: AirQuality?, offset: Int) -> JSONOutput {
        guard let air else { return .null }
        let pollen: JSONOutput = air.pollen.map { species in .object(species.map { ($0.species.rawValue, value($0.grains)) }) } ?? .null
        return .object([
            ("time", air.time.map { time($0, offset) } ?? .null),
            ("european_aqi", value(air.europeanAQI)),
            ("us_aqi", value(air.usAQI)),
            ("pm2_5", value(air.pm2_5)),
            ("pm10", value(air.pm10)),
            ("pollen", pollen),
        ])
    }

    static func alertObject(_ alert: WeatherAlert, offset: Int) -> JSONOutput {
        .object([
            ("title", .string(alert.title)),
            ("severity", .string(alert.severity)),
            ("start", alert.start.map { time($0, offset) } ?? .null),
            ("end", alert.end.map { time($0, offset) } ?? .null),
            ("source", .string(alert.source)),
            ("description", .string(alert.description)),
            ("uri", .string(alert.uri)),
            ("headline", .string(alert.headline)),
            ("instruction", .string(alert.instruction)),
            ("urgency", .string(alert.urgency)),
            ("certainty", .string(alert.certainty)),
            ("area", .string(alert.area)),
            ("level", .string(alert.level?.name)),
        ])
    }

    /// The warnings of the point's country that are not local (MeteoAlarm's, unmatched):
    /// `null` when there are none.
    static func elsewhereObject(_ report: WeatherReport) -> JSONOutput {
        guard !report.alertsElsewhere.isEmpty, let country = report.elsewhereCountry else { return .null }
        return .object([
            ("country", .string(country)),
            ("count", .number(Double(report.alertsElsewhere.count))),
            ("highest_level", .string(report.alertsElsewhere.compactMap(\.level).max()?.name)),
            ("alerts", .array(report.alertsElsewhere.map { alertObject($0, offset: report.utcOffset) })),
        ])
    }

    static func currentObject(_ current: CurrentConditions, basis: CurrentBasis?, offset: Int,
                              locale: UserLocale = .english) -> JSONOutput {
        let precipitation = current.precipitation
        return .object([
            ("time", time(current.time, offset)),
            ("temperature", value(current.temperature)),
            ("feels_like", value(current.feelsLike)),
            ("temperature_min", value(current.temperatureMin)),
            ("temperature_max", value(current.temperatureMax)),
            ("humidity", value(current.humidity)),
            ("pressure_hpa", value(current.pressure)),
            ("cloud_cover", value(current.cloudCover)),
            ("wind_speed", value(current.windSpeed)),
            ("wind_direction_deg", value(current.windDirection)),
            ("wind_direction", .string(Formatting.compass(current.windDirection))),
            ("wind_gust", value(current.windGust)),
            ("precipitation", value(precipitation?.total)),
            ("rain", value(precipitation?.rain)),
            ("snow", value(precipitation?.snow)),
            ("precipitation_period_h", .number(precipitation.map { Double($0.periodSeconds) / 3600 })),
            ("visibility_m", value(current.visibility)),
            ("condition", .string(current.condition.rawValue)),
            ("condition_group", .string(current.condition.group.rawValue)),
            ("description", .string(locale.conditionWords(current.condition, current.description))),
            ("is_day", .bool(current.isDay)),
            ("sunrise", current.sunrise.map { time($0, offset) } ?? .null),
            ("sunset", current.sunset.map { time($0, offset) } ?? .null),
            ("uv_index", value(current.uvIndex)),
            ("basis", .string(basis?.name)),
            ("station", .string(basis?.station)),
        ])
    }

    static func hourObject(_ hour: HourlyForecast, offset: Int, locale: UserLocale = .english) -> JSONOutput {
        .object([
            ("time", time(hour.time, offset)),
            ("temperature", value(hour.temperature)),
            ("feels_like", value(hour.feelsLike)),
            ("precipitation", value(hour.precipitation)),
            ("precipitation_probability", value(hour.precipitationProbability)),
            ("wind_speed", value(hour.windSpeed)),
            ("wind_direction_deg", value(hour.windDirection)),
            ("condition", .string(hour.condition.rawValue)),
            ("condition_group", .string(hour.condition.group.rawValue)),
            ("description", .string(locale.conditionWords(hour.condition, hour.description))),
            ("is_day", .bool(hour.isDay)),
            ("uv_index", value(hour.uvIndex)),
        ])
    }

    static func dayObject(_ day: DailyForecast, offset: Int, locale: UserLocale = .english) -> JSONOutput {
        .object([
            ("date", .string(day.date)),
            ("temperature_min", value(day.temperatureMin)),
            ("temperature_max", value(day.temperatureMax)),
            ("precipitation", value(day.precipitation)),
            ("precipitation_probability", value(day.precipitationProbability)),
            ("wind_speed_max", value(day.windSpeedMax)),
            ("condition", .string(day.condition.rawValue)),
            ("condition_group", .string(day.condition.group.rawValue)),
            ("description", .string(locale.conditionWords(day.condition, day.description))),
            ("sunrise", day.sunrise.map { time($0, offset) } ?? .null),
            ("sunset", day.sunset.map { time($0, offset) } ?? .null),
            ("uv_index_max", value(day.uvIndexMax)),
        ])
    }

    private static func value(_ number: Double?) -> JSONOutput { .number(Formatting.twoDecimals(number)) }
    private static func time(_ date: Date, _ offset: Int) -> JSONOutput { .string(LocalTime.iso8601(date, utcOffset: offset)) }
}
