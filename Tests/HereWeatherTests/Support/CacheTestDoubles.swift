import Foundation
@testable import HereWeatherCore

/// A provider that answers with the Tampa Open-Meteo recording, or fails as told, and
/// counts how often it was asked.
final class ScriptedWeatherProvider: WeatherProvider, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var failure: WeatherError?
    private var maxAge: Double?
    private let decoder = OpenMeteoWeatherProvider(baseURL: "http://unused", http: UnusedHTTPClient(), clock: ContinuousClock())

    var kind: WeatherProviderKind { .openMeteo }

    var calls: Int {
        lock.lock(); defer { lock.unlock() }
        return count
    }

    /// Fail every following fetch with `error` (`nil`: answer again).
    func fail(with error: WeatherError?) {
        lock.lock(); failure = error; lock.unlock()
    }

    /// Declare `seconds` of freshness as a service's Cache-Control would.
    func declareMaxAge(_ seconds: Double?) {
        lock.lock(); maxAge = seconds; lock.unlock()
    }

    func fetch(_ query: WeatherQuery) async throws -> WeatherFetch {
        let (failure, maxAge) = lock.withLock {
            count += 1
            return (self.failure, self.maxAge)
        }
        if let failure { throw failure }
        let body = Fixtures.data("weather/open-meteo/tampa-metric.json")
        return WeatherFetch(report: try report(fromRecording: body, units: query.units), recording: body, serviceMaxAge: maxAge)
    }

    func report(fromRecording data: Data, units: Units) throws -> WeatherReport {
        try decoder.report(fromRecording: data, units: units)
    }
}
