#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a `--weather-replay` file looks like, in words, and whose body it seems to be: for the
/// error when the file is not the expected provider's ("a JSON object with the keys latitude,
/// longitude, current, ...: Open-Meteo's forecast").
public struct WeatherRecordingShape: Sendable, Equatable {
    /// The file in words, or `nil` when nothing was looked at.
    public var words: String?
    /// The provider whose recording the file seems to be, if one.
    public var provider: WeatherProviderKind?

    public static let unknown = WeatherRecordingShape(words: nil, provider: nil)

    init(words: String?, provider: WeatherProviderKind?) {
        self.words = words
        self.provider = provider
    }

    /// Looks at a recording's bytes.
    public init(_ data: Data) {
        let start = data.first { !" \t\r\n".utf8.contains($0) }
        guard let start else {
            self.init(words: "an empty file", provider: nil)
            return
        }
        guard let value = try? JSONValue.parse(data) else {
            self.init(words: start == UInt8(ascii: "<") ? "HTML or XML, not JSON" : "text that is not JSON", provider: nil)
            return
        }
        guard case .object(let members) = value else {
            self.init(words: "JSON that is not an object", provider: nil)
            return
        }
        let keys = Self.keyList(members)
        guard let (provider, body) = Self.provider(of: value) else {
            self.init(words: "a JSON object with the keys \(keys), which is no provider's recording", provider: nil)
            return
        }
        self.init(words: "\(provider.displayName)'s \(body) (a JSON object with the keys \(keys))", provider: provider)
    }

    /// "latitude, longitude, current, hourly and 3 more".
    static func keyList(_ members: [String: JSONValue]) -> String {
        let keys = members.keys.sorted().map { ServiceText.printable($0) }
        let shown = keys.prefix(5).joined(separator: ", ")
        return keys.count > 5 ? shown + " and \(keys.count - 5) more" : shown
    }

    /// Whose recording an object seems to be, by the keys only that service sends. A recording
    /// a companion wrapped (the cache's: `CompanionRecording`) is its provider's, unwrapped
    /// layer by layer, with what the companions added ("with official warnings and the air quality").
    static func provider(of value: JSONValue) -> (WeatherProviderKind, String)? {
        var value = value
        var added: [String] = []
        while let marker = value["here_weather"]?.string, let companion = CompanionRecording.all.first(where: { $0.marker == marker }),
              let report = value["report"]?.string, let inner = try? JSONValue.parse(Data(report.utf8)), added.count < 8 {
            added.insert(companion.words, at: 0)
            value = inner
        }
        guard let (kind, body) = bareProvider(of: value) else { return nil }
        return (kind, added.isEmpty ? body : body + " with " + added.joined(separator: " and "))
    }

    /// Whose unwrapped recording an object seems to be.
    private static func bareProvider(of value: JSONValue) -> (WeatherProviderKind, String)? {
        if value["forecast_hourly"] != nil || value["points"] != nil { return (.nws, "recording") }
        if value["locationforecast"] != nil || value["properties"]?["timeseries"] != nil { return (.metNorway, "Locationforecast") }
        if value["currently"] != nil || value["flags"] != nil { return (.pirateWeather, "forecast") }
        if value["latitude"] != nil, value["hourly"] != nil || value["current"] != nil || value["daily"] != nil
            || value["utc_offset_seconds"] != nil { return (.openMeteo, "forecast") }
        if value["lat"] != nil, value["timezone_offset"] != nil || value["current"] != nil { return (.openWeatherMap, "One Call answer") }
        if value["weather"] != nil || value["cod"] != nil || value["list"] != nil { return (.openWeatherMap, "answer") }
        return nil
    }
}
