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
        let error = WeatherError.serviceFailed(service: "Open-Meteo", status: 500, detail: "boom\nat line 3")
        #expect(error.message == "Open-Meteo answered HTTP 500: boom at line 3. The service is having trouble; try again in a few minutes.")
    }

    @Test(arguments: [
        ("120", "(retry after 120 s)"),
        (" 30 ", "(retry after 30 s)"),
        ("Wed, 21 Oct 2026 07:28:00 GMT", "(retry after 2026-10-21 07:28 UTC)"),
    ])
    func retryAfterInBothForms(value: String, shown: String) {
        #expect(WeatherError.rateLimited(service: "Open-Meteo", retryAfter: value).message.contains(shown))
        #expect(GeocodingError.rateLimited(service: "Open-Meteo geocoding", retryAfter: value).message.contains(shown))
    }

    /// Only a Retry-After that parses is shown, as a time here-weather writes: never the
    /// service's own text, which may hold anything (a key, a page, escape sequences).
    @Test(arguments: ["placeholder-key-0123456789abcdef", "soon", "-5", "1.5", "99999999999", "\u{1B}[2J120",
                      "Wed, 21 Oct 2026 07:28:00 CET", "tomorrow at 9", String(repeating: "9", count: 400)])
    func aRetryAfterThatDoesNotParseIsNotShown(value: String) {
        for message in [WeatherError.rateLimited(service: "Open-Meteo", retryAfter: value).message,
                        GeocodingError.rateLimited(service: "Open-Meteo geocoding", retryAfter: value).message] {
            #expect(!message.contains("retry after"), "\(message)")
            #expect(!message.contains(value), "\(message)")
        }
        #expect(WeatherError.rateLimited(service: "Open-Meteo", retryAfter: value).message
            == "Open-Meteo is rate-limiting requests. Run less often, or try again later.")
    }

    @Test func aBodyWithoutACurrentTemperatureIsNotWeather() throws {
        let text = String(decoding: Fixtures.data("weather/open-meteo/tampa-metric.json"), as: UTF8.self)
            .replacing(#""temperature_2m":26.8"#, with: #""temperature_2m":"warm""#)
        #expect(text.contains(#""temperature_2m":"warm""#), "the fixture was changed")
        let provider = OpenMeteoWeatherProvider(baseURL: "https://api.open-meteo.com", http: UnusedHTTPClient())
        do {
            _ = try provider.report(fromRecording: Data(text.utf8), units: .metric)
            Issue.record("a report without a temperature was accepted")
        } catch let error as WeatherError {
            #expect(error.message.contains("not weather data: it has no current temperature"))
            #expect(error.exitStatus == .serviceUnavailable && error.allowsStaleFallback)
        }
    }

    /// Issue 35 C17: a name that cannot be looked up is not a matter of waiting longer, so the
    /// line does not advise `[weather] timeout`; a timeout still does.
    @Test func aDNSFailureDoesNotAdviseTheTimeout() {
        let dns = WeatherError.unreachable(service: "Open-Meteo", .cannotResolveHost("api.open-meteo.com")).message
        #expect(dns == "Cannot reach Open-Meteo: could not resolve host api.open-meteo.com. Check the network connection and its name server (DNS), or the host in [weather.open-meteo] base_url.")
        #expect(!dns.contains("timeout"))
        let slow = WeatherError.unreachable(service: "Open-Meteo", .timedOut("api.open-meteo.com")).message
        #expect(slow.contains("[weather] timeout"))
    }
}
