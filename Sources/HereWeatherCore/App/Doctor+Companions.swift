#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Doctor {
    /// The words of the air quality and warnings lines (one table, for translation).
    enum CompanionWords {
        static let airName = "air-quality"
        static func alertsName(_ source: String) -> String { "alerts-" + source }
        static let noLocation = "not asked: no location to ask for"
        static func air(_ place: String, european: Int?, us: Int?) -> String {
            let indexes = [european.map { "European AQI \($0)" }, us.map { "US AQI \($0)" }].compactMap { $0 }
            return "Open-Meteo's Air Quality API answered for \(place)" + (indexes.isEmpty ? "" : ": " + indexes.joined(separator: ", "))
        }
        static func airFailed(_ reason: String) -> String {
            "The air quality request failed: \(reason). Reports leave the air line out until it answers; check "
                + "\(ConfigKey.airQualityBaseURL), or set [air_quality] enabled = false to stop asking"
        }
        static func outside(_ place: String) -> String {
            "not asked: no warnings source here-weather reads covers \(place)"
        }
        static func service(_ source: String) -> String {
            switch source {
            case "metno": return "MET Norway"
            case "dwd": return "DWD"
            case "meteoalarm": return "MeteoAlarm"
            default: return source
            }
        }
        static func answered(_ source: String, place: String, local: Int, elsewhere: Int) -> String {
            let here = local == 0 ? "no warnings in force there" : local == 1 ? "1 warning in force there" : "\(local) warnings in force there"
            let other = elsewhere == 0 ? "" : ", \(elsewhere) elsewhere in the country"
            return "\(service(source)) answered for \(place): \(here)\(other)"
        }
        static func alertsFailed(_ source: String, reason: String) -> String {
            let where_ = source == "metno" ? "[weather.metno] base_url" : "[alerts.\(source)] base_url"
            return "The \(service(source)) warnings request failed: \(reason). Reports leave its warnings out until it answers; "
                + "check \(where_), or set [alerts] \(source) = false to stop asking"
        }
    }

    /// The air quality line: Open-Meteo's Air Quality API asked at the location found, as a
    /// report asks it beside the weather; `nil` when reports ask none (`[air_quality] enabled`).
    /// A failure is a warning: it costs a report only its air line.
    func airQualityCheck(at location: Location?) async -> Check? {
        guard let airQuality else { return nil }
        guard let location else { return Check(name: CompanionWords.airName, status: .skip, detail: CompanionWords.noLocation) }
        let place = Formatting.coordinate(location.coordinate)
        let answer = try? await airQuality.answer(for: location.coordinate, deadline: clock.deadline(after: probeTimeout))
        switch answer {
        case .success(let body)?:
            let air = AirQualityDecoder.decode(try? JSONValue.parse(body))
            return Check(name: CompanionWords.airName, status: .ok,
                         detail: CompanionWords.air(place, european: air?.europeanAQI.map { Int($0.rounded()) },
                                                    us: air?.usAQI.map { Int($0.rounded()) }))
        case .failure(let failure)?:
            return Check(name: CompanionWords.airName, status: .warn, detail: CompanionWords.airFailed(failure.reason))
        case nil:
            return Check(name: CompanionWords.airName, status: .warn, detail: CompanionWords.airFailed("cancelled"))
        }
    }

    /// The warnings line outside the US: the source a report asks for the location's country
    /// (MET Norway, DWD, MeteoAlarm), asked once; `nil` when reports ask none (`[alerts]`) or
    /// the location is in the US (the NWS's line says that).
    func regionalAlertsCheck(at location: Location?) async -> Check? {
        guard !regionalAlerts.isEmpty else { return nil }
        guard let location else { return nil }
        guard !USRegion.contains(location.coordinate) else { return nil }
        let place = Formatting.coordinate(location.coordinate)
        let country = RegionalAlertsWeatherProvider.country(of: location.coordinate)
        guard let country, let source = regionalAlerts.first(where: { $0.covers(country: country) }) else {
            return Check(name: "alerts", status: .skip, detail: CompanionWords.outside(place))
        }
        let name = CompanionWords.alertsName(source.name)
        do {
            let found = try await source.alerts(at: location.coordinate, country: country, language: "en",
                                                deadline: clock.deadline(after: probeTimeout))
            return Check(name: name, status: .ok, detail: CompanionWords.answered(source.name, place: place, local: found.local.count,
                                                                                 elsewhere: found.elsewhere.count))
        } catch let failure as AlertSourceFailure {
            return Check(name: name, status: .fail, detail: CompanionWords.alertsFailed(source.name, reason: failure.reason))
        } catch {
            return Check(name: name, status: .fail, detail: CompanionWords.alertsFailed(source.name, reason: "\(error)"))
        }
    }
}
