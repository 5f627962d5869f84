#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Sunrise and sunset worked out here, for services that give none (the NWS), with NOAA's
/// solar calculator: the equations of its spreadsheet and web calculator (after Meeus,
/// "Astronomical Algorithms"), the sun's upper limb on a horizon lowered by refraction
/// (zenith 90.833°), each time computed at noon and then again at the time found. NOAA puts
/// it within a minute of the observed times between the polar circles; nearer the poles
/// refraction varies more.
public enum SolarTimes {
    /// Sunrise and sunset on the local date `date` (`YYYY-MM-DD`, at `utcOffset` seconds east
    /// of UTC) at `latitude`/`longitude` (degrees, east positive). Each is `nil` when the sun
    /// does not rise or set that day (polar day or night), and both for a date that does not parse.
    public static func times(on date: String, utcOffset: Int, latitude: Double, longitude: Double) -> (sunrise: Date?, sunset: Date?) {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, LocalTime.years.contains(parts[0]), (1...12).contains(parts[1]), (1...31).contains(parts[2]),
              latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return (nil, nil) }
        let midnight = LocalTime.days(fromCivilYear: parts[0], month: parts[1], day: parts[2])
        func event(_ rise: Bool) -> Date? {
            // The UTC day of the local date first; an event that falls on another local date
            // (far from the offset's meridian) is taken from the UTC day beside it, when that
            // one falls on this date.
            guard let first = time(rise, utcDay: midnight, latitude: latitude, longitude: longitude) else { return nil }
            let found = LocalTime(first, utcOffset: utcOffset).dateString
            guard found != date else { return first }
            let other = time(rise, utcDay: midnight + (found < date ? 1 : -1), latitude: latitude, longitude: longitude)
            return other.flatMap { LocalTime($0, utcOffset: utcOffset).dateString == date ? $0 : nil } ?? first
        }
        return (event(true), event(false))
    }

    /// Sunrise (`rise`) or sunset on the UTC day `utcDay` (days since 1970).
    static func time(_ rise: Bool, utcDay: Int, latitude: Double, longitude: Double) -> Date? {
        let julianDay = 2_440_587.5 + Double(utcDay)
        guard let estimate = minutes(rise, julianDay: julianDay, latitude: latitude, longitude: longitude),
              let refined = minutes(rise, julianDay: julianDay + estimate / 1440, latitude: latitude, longitude: longitude)
        else { return nil }
        return Date(timeIntervalSince1970: (Double(utcDay) * 1440 + refined) * 60)
    }

    /// Minutes after 0h UTC of the event, with the sun's place at `julianDay`.
    static func minutes(_ rise: Bool, julianDay: Double, latitude: Double, longitude: Double) -> Double? {
        let century = (julianDay - 2_451_545) / 36_525
        let (declination, equationOfTime) = sun(century)
        let cosine = cos(radians(90.833)) / (cos(radians(latitude)) * cos(radians(declination)))
            - tan(radians(latitude)) * tan(radians(declination))
        guard (-1...1).contains(cosine) else { return nil }
        let hourAngle = degrees(acos(cosine))
        return 720 - 4 * (longitude + (rise ? hourAngle : -hourAngle)) - equationOfTime
    }

    /// The sun's declination (degrees) and the equation of time (minutes) at `century`
    /// (Julian centuries since J2000.0).
    static func sun(_ century: Double) -> (declination: Double, equationOfTime: Double) {
        let t = century
        let meanLongitude = (280.46646 + t * (36_000.76983 + t * 0.0003032)).truncatingRemainder(dividingBy: 360)
        let meanAnomaly = 357.52911 + t * (35_999.05029 - 0.0001537 * t)
        let eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
        let center = sin(radians(meanAnomaly)) * (1.914602 - t * (0.004817 + 0.000014 * t))
            + sin(radians(2 * meanAnomaly)) * (0.019993 - 0.000101 * t) + sin(radians(3 * meanAnomaly)) * 0.000289
        let omega = 125.04 - 1934.136 * t
        let apparentLongitude = meanLongitude + center - 0.00569 - 0.00478 * sin(radians(omega))
        let meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
        let obliquity = meanObliquity + 0.00256 * cos(radians(omega))
        let declination = degrees(asin(sin(radians(obliquity)) * sin(radians(apparentLongitude))))
        let y = pow(tan(radians(obliquity / 2)), 2)
        let l0 = radians(meanLongitude), m = radians(meanAnomaly)
        let equation = y * sin(2 * l0) - 2 * eccentricity * sin(m) + 4 * eccentricity * y * sin(m) * cos(2 * l0)
            - 0.5 * y * y * sin(4 * l0) - 1.25 * eccentricity * eccentricity * sin(2 * m)
        return (declination, 4 * degrees(equation))
    }

    static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
}
