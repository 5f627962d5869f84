#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A recorded service answer read from a file (`--weather-replay FILE`).
public enum WeatherRecordingFile {
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
