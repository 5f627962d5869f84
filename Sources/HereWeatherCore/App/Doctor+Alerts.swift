#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Doctor {
    /// The NWS alerts request that reports make for a US point: a failure there costs only
    /// the alerts in a report, silently, so `doctor` asks it once itself (issue 35 D27).
    public struct OfficialAlerts: Sendable {
        public var fetcher: NWSAlertsFetcher
        /// Whether `[alerts] nws` can turn them off (they come beside another provider's
        /// report); the NWS provider's own alerts cannot be.
        public var optional: Bool

        public init(fetcher: NWSAlertsFetcher, optional: Bool) {
            self.fetcher = fetcher
            self.optional = optional
        }
    }

    /// The words of the alerts line (one table, for translation).
    enum AlertsWords {
        static let name = "nws-alerts"
        static func answered(_ place: String, count: Int) -> String {
            "the NWS answered for \(place): " + (count == 0 ? "no alerts in force" : count == 1 ? "1 alert in force" : "\(count) alerts in force")
        }
        static let noLocation = "not asked: no location to ask for"
        static func outside(_ place: String) -> String {
            "not asked: \(place) is outside the US (the NWS has alerts for US points only)"
        }
        static func failed(_ reason: String, optional: Bool) -> String {
            "The NWS alerts request failed: \(reason). Reports leave the alerts out until it answers; check "
                + "\(ConfigKey.baseURL(of: .nws))" + (optional ? ", or set \(ConfigKey.alertsNWS) = false to stop asking" : "")
        }
    }

    /// The alerts line: asked at the location found when it is in the US; `nil` when reports
    /// ask no alerts.
    func alertsCheck(at location: Location?) async -> Check? {
        guard let officialAlerts else { return nil }
        guard let location else { return Check(name: AlertsWords.name, status: .skip, detail: AlertsWords.noLocation) }
        let place = Formatting.coordinate(location.coordinate)
        guard USRegion.contains(location.coordinate) else {
            return Check(name: AlertsWords.name, status: .skip, detail: AlertsWords.outside(place))
        }
        let answer: NWSAlertsFetcher.Answer
        do {
            answer = try await officialAlerts.fetcher.answer(for: location.coordinate, deadline: clock.deadline(after: probeTimeout))
        } catch {
            answer = .failed("\(error)")
        }
        switch answer {
        case .answered(let body):
            let count = NWSAlertsDecoder.alerts(try? JSONValue.parse(body)).count
            return Check(name: AlertsWords.name, status: .ok, detail: AlertsWords.answered(place, count: count))
        case .failed(let reason):
            return Check(name: AlertsWords.name, status: .fail, detail: AlertsWords.failed(reason, optional: officialAlerts.optional))
        }
    }
}
