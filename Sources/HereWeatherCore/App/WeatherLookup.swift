#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The whole path from a location to a weather report: what the command runs.
///
/// The location request and the weather fetch each get their own deadline; a recorded
/// response (`--weather-replay`) stands in for the network when given. Without one, the
/// weather host's connection starts with the location request (`WeatherProvider.preconnect`).
public struct WeatherLookup: Sendable {
    public var locationProvider: any LocationProvider
    public var locationRequest: LocationRequest
    public var weatherProvider: any WeatherProvider
    public var units: Units
    /// Seconds for the whole weather fetch.
    public var weatherTimeout: Double
    /// A recorded provider response to use instead of the network.
    public var recording: Data?
    /// The run's clock: the weather fetch's deadline starts on it.
    public var clock: any RunClock
    /// The run's language, for the services that write words of their own (`WeatherQuery.language`).
    public var language: String

    public init(locationProvider: any LocationProvider, locationRequest: LocationRequest,
                weatherProvider: any WeatherProvider, units: Units, weatherTimeout: Double, recording: Data? = nil,
                clock: any RunClock, language: String = "en") {
        self.clock = clock
        self.language = language
        self.locationProvider = locationProvider
        self.locationRequest = locationRequest
        self.weatherProvider = weatherProvider
        self.units = units
        self.weatherTimeout = weatherTimeout
        self.recording = recording
    }

    /// The location and the weather there.
    public func run() async throws -> (Location, WeatherReport) {
        // Settings that forbid any request fail the run before the location is even asked for.
        if recording == nil {
            try weatherProvider.checkConfigured()
            // The weather host is known before the place: its connection is made while the
            // location is asked for, and kept for the weather request (nothing is sent early).
            let locationEnd = max(locationRequest.deadline, clock.now + locationRequest.timeout)
            weatherProvider.preconnect(units: units, until: locationEnd + .milliseconds(Int64(weatherTimeout * 1000)))
        }
        let location = try await locationProvider.requestLocation(locationRequest)
        if let recording {
            var report: WeatherReport
            do {
                report = try weatherProvider.report(fromRecording: recording, units: units)
            } catch WeatherError.service(let service, .undecodable(let reason)) {
                throw WeatherError.recordingNotWeatherData(service, reason: reason)
            }
            report.freshness.replayed = true
            return (location, report)
        }
        let deadline = clock.now + .milliseconds(Int64(weatherTimeout * 1000))
        let query = WeatherQuery(coordinate: location.coordinate, units: units, deadline: deadline, language: language)
        return (location, try await weatherProvider.report(for: query))
    }
}
