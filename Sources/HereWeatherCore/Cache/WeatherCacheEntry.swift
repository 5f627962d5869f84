#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a cached report is filed under: the provider, the coordinates as the request sends
/// them (rounded to `[privacy] coordinate_decimals`), the units, and for the services that
/// write words in the language asked (OpenWeatherMap, Pirate Weather) that language when it
/// is not English.
public struct WeatherCacheKey: Sendable, Hashable {
    public var provider: WeatherProviderKind
    /// Already rounded.
    public var coordinate: Coordinate
    public var units: Units
    /// The language the body's words are in, when it is not English; `nil` for English and for
    /// services whose bodies have no words.
    public var language: String?

    /// The key for a request for `coordinate`, rounded as the provider rounds it, in `language`.
    public init(provider: WeatherProviderKind, coordinate: Coordinate, units: Units, coordinateDecimals: Int,
                language: String = "en") {
        self.provider = provider
        self.coordinate = coordinate.rounded(toDecimals: coordinateDecimals)
        self.units = units
        self.language = provider.writesInLanguage && language != "en" ? language : nil
    }

    /// The key a cache file is named after (`<name>.weather`); `nil` for any other file.
    public init?(fileName: String) {
        guard fileName.hasSuffix(".weather") else { return nil }
        let parts = fileName.dropLast(".weather".count).split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 4 || parts.count == 5, let provider = WeatherProviderKind(rawValue: String(parts[0])),
              let latitude = Double(parts[1]), let longitude = Double(parts[2]),
              let units = Units(rawValue: String(parts[3])) else { return nil }
        self.provider = provider
        self.coordinate = Coordinate(latitude: latitude, longitude: longitude)
        self.units = units
        if parts.count == 5 {
            guard provider.writesInLanguage, LanguageData.named(String(parts[4])) != nil, parts[4] != "en" else { return nil }
            self.language = String(parts[4])
        }
    }

    /// The file name stem: `open-meteo_27.95_-82.46_metric`, `pirateweather_27.95_-82.46_si_de`.
    public var name: String {
        ([provider.rawValue, JSONOutput.format(coordinate.latitude), JSONOutput.format(coordinate.longitude),
          units.rawValue] + (language.map { [$0] } ?? [])).joined(separator: "_")
    }
}

/// One stored answer: the service's body (or bodies) as `report(fromRecording:units:)` reads
/// them, and when and for how long it was fresh.
public struct WeatherCacheEntry: Sendable {
    public var key: WeatherCacheKey
    /// When the service sent it (wall clock, so ages carry over between runs).
    public var fetchedAt: Date
    /// Seconds of freshness the service declared, if any (`WeatherFetch.serviceMaxAge`).
    public var serviceMaxAge: Double?
    public var recording: Data
    /// The service's `Last-Modified` for it, if it sent one (for `If-Modified-Since`).
    public var lastModified: String?

    public init(key: WeatherCacheKey, fetchedAt: Date, serviceMaxAge: Double?, recording: Data,
                lastModified: String? = nil) {
        self.key = key
        self.fetchedAt = fetchedAt
        self.serviceMaxAge = serviceMaxAge
        self.recording = recording
        self.lastModified = lastModified
    }

    /// Seconds since the service sent it; negative when the clock went back since.
    public func age(at now: Date) -> Double {
        now.timeIntervalSince(fetchedAt)
    }

    /// Fresh: younger than the configured TTL, or than the service's own lifetime when longer.
    public func isFresh(ttl: Double, at now: Date) -> Bool {
        let age = age(at: now)
        return age >= 0 && age < max(ttl, serviceMaxAge ?? 0)
    }

    /// The largest recording kept or replayed: far above what any service sends in one answer
    /// (`HTTPRequest.maxBodyBytes` bounds each body).
    public static let maximumRecordingBytes = 32 << 20
    /// The largest cache file read: a recording and its line of metadata. A larger file is
    /// junk, read as no entry (and replaced) without reading it.
    static let maximumFileBytes = maximumRecordingBytes + (64 << 10)

    /// The first line of a cache file identifies it; this is its `format` value.
    static let format = "here-weather weather cache"

    /// The file's bytes: one line of JSON metadata, then the recording as received.
    public func fileBytes() -> [UInt8] {
        let header = JSONOutput.object([
            ("format", .string(Self.format)),
            ("version", .number(1)),
            ("key", .string(key.name)),
            ("provider", .string(key.provider.rawValue)),
            ("latitude", .number(key.coordinate.latitude)),
            ("longitude", .number(key.coordinate.longitude)),
            ("units", .string(key.units.rawValue)),
            ("fetched_at", .number(fetchedAt.timeIntervalSince1970)),
            ("max_age_s", .number(serviceMaxAge)),
            ("last_modified", .string(lastModified)),
            ("body_bytes", .number(Double(recording.count))),
        ])
        return Array((header.serialized() + "\n").utf8) + Array(recording)
    }

    /// Reads a cache file's bytes, checking it is a cache file, for `key`, and complete.
    /// Public for the fuzz target (FuzzCacheEntry).
    public static func parse(_ data: Data, expecting key: WeatherCacheKey) throws(WeatherCacheError) -> WeatherCacheEntry {
        guard let newline = data.firstIndex(of: 0x0A),
              let header = try? JSONValue.parse(Data(data[data.startIndex..<newline])) else {
            throw .corrupt(reason: "the first line is not JSON metadata")
        }
        guard header["format"]?.string == format, header["version"]?.int == 1 else {
            throw .foreign(reason: "it is not a version 1 here-weather cache file")
        }
        guard header["key"]?.string == key.name else {
            throw .foreign(reason: "it holds \(header["key"]?.string ?? "another key"), not \(key.name)")
        }
        let body = Data(data[data.index(after: newline)...])
        guard let seconds = header["fetched_at"]?.double, header["body_bytes"]?.int == body.count else {
            throw .corrupt(reason: "the metadata is incomplete or the body is truncated")
        }
        let maxAge = header["max_age_s"]?.double.flatMap { $0 > 0 ? $0 : nil }
        let lastModified = header["last_modified"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        return WeatherCacheEntry(key: key, fetchedAt: Date(timeIntervalSince1970: seconds), serviceMaxAge: maxAge,
                                 recording: body, lastModified: lastModified)
    }
}
