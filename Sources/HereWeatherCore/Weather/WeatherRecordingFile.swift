#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A recorded service answer read from a file (`--weather-replay FILE`): a body as a
/// service sent it, or a cache file (`WeatherCacheEntry`), whose first line names the
/// provider and units it was fetched for.
public enum WeatherRecordingFile {
    /// What a file holds: the body, and from a cache file the provider and units it names.
    public struct Recording: Sendable {
        public var body: Data
        public var provider: WeatherProviderKind?
        public var units: Units?
    }

    /// The recording in the file at `path`: a cache file's body without its line of
    /// metadata, with the provider and units that line names.
    public static func recording(_ path: String) throws(WeatherError) -> Recording {
        let data = try read(path)
        guard let newline = data.firstIndex(of: 0x0A),
              let header = try? JSONValue.parse(Data(data[data.startIndex..<newline])),
              header["format"]?.string == WeatherCacheEntry.format else {
            return Recording(body: data)
        }
        return Recording(body: Data(data[data.index(after: newline)...]),
                         provider: header["provider"]?.string.flatMap(WeatherProviderKind.init(rawValue:)),
                         units: header["units"]?.string.flatMap(Units.init(rawValue:)))
    }

    /// The file's bytes, at most `WeatherCacheEntry.maximumRecordingBytes`; throws
    /// `WeatherError.recordingUnreadable` (exit 66) when it is missing, not a file or too large.
    public static func read(_ path: String) throws(WeatherError) -> Data {
        let bytes: [UInt8]?
        do {
            bytes = try TextFile.bytes(path, limit: WeatherCacheEntry.maximumRecordingBytes)
        } catch {
            throw .recordingUnreadable(path: path, reason: error.reason)
        }
        guard let bytes else { throw .recordingUnreadable(path: path, reason: "no such file") }
        return Data(bytes)
    }
}
