extension WeatherReport {
    /// The report, when it holds weather: every service sends the current temperature, so a
    /// body without one (numbers sent as words, a block of the wrong type, an empty object)
    /// is not weather data, however well formed. Refusing it keeps a useless report off the
    /// screen and out of the cache, where it would replace a good one.
    func requiringCurrentTemperature() throws -> WeatherReport {
        guard current.temperature != nil else {
            throw WeatherError.service(provider, .undecodable(reason: "it has no current temperature"))
        }
        return self
    }
}
