import Foundation
import Testing
@testable import HereWeatherCore

/// Text quoted from services stays on one line; Retry-After reads right in both its forms;
/// a body without a current temperature is not weather data.
@Suite struct ServiceTextTests {
    @Test func quotedTextIsOneBoundedLine() {
        #expect(ServiceText.oneLine("  Internal error\nTraceback:\r\n\tFile \"x\"\u{0}  ") == "Internal error Traceback: File \"x\"")
        #expect(ServiceText.oneLine("Invalid API key.") == "Invalid API key")
        let long = ServiceText.oneLine(String(repeating: "a", count: 500))
        #expect(long.count == ServiceText.maxLength + 1 && long.hasSuffix("…"))
        let error = WeatherError.service(.openMeteo, .serviceFailed(status: 500, detail: "boom\nat line 3"))
        #expect(error.message == "Open-Meteo answered HTTP 500: boom at line 3. The service is having trouble; try again in a few minutes.")
    }

    @Test(arguments: [
        ("120", "(retry after 120 s)"),
        (" 30 ", "(retry after 30 s)"),
        ("Wed, 21 Oct 2026 07:28:00 GMT", "(retry after Wed, 21 Oct 2026 07:28:00 GMT)"),
    ])
    func retryAfterInBothForms(value: String, shown: String) {
        #expect(WeatherError.service(.openMeteo, .rateLimited(retryAfter: value)).message.contains(shown))
        #expect(GeocodingError.service(.openMeteo, .rateLimited(retryAfter: value)).message.contains(shown))
    }

    @Test func aBodyWithoutACurrentTemperatureIsNotWeather() throws {
        let text = String(decoding: Fixtures.data("weather/open-meteo/tampa-metric.json"), as: UTF8.self)
            .replacing(#""temperature_2m":26.8"#, with: #""temperature_2m":"warm""#)
        #expect(text.contains(#""temperature_2m":"warm""#), "the fixture was changed")
        let provider = OpenMeteoWeatherProvider(baseURL: "https://api.open-meteo.com", http: UnusedHTTPClient(), clock: ContinuousClock())
        do {
            _ = try provider.report(fromRecording: Data(text.utf8), units: .metric)
            Issue.record("a report without a temperature was accepted")
        } catch let error as WeatherError {
            #expect(error.message.contains("not weather data: it has no current temperature"))
            #expect(error.exitStatus == .serviceUnavailable && error.allowsStaleFallback)
        }
    }
}
