/// Why the weather cache could not answer or keep an answer.
///
/// None of these ends a run: the cache is an optimisation, so `CachingWeatherProvider` falls
/// back to the service (or goes on without the lock). The messages serve logs and tests.
public enum WeatherCacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No entry for the key.
    case missing
    /// A file for the key that is not a complete entry (truncated, edited, not JSON metadata).
    case corrupt(reason: String)
    /// A file that is not ours, or is for another key or an older format.
    case foreign(reason: String)
    /// An entry whose body the provider cannot decode any more.
    case undecodable(reason: String)
    /// The entry could not be written.
    case writeFailed(path: String, reason: String)
    /// Another run held the key's lock past the wait allowed.
    case lockTimedOut(path: String)
    /// The lock file could not be opened or locked.
    case lockFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .missing:
            return "No cached weather for this place yet."
        case .corrupt(let reason):
            return "A weather cache file is damaged (\(reason)); it is ignored and replaced by the next fetch."
        case .foreign(let reason):
            return "A file in the weather cache is not a here-weather cache entry (\(reason)); it is ignored and replaced by the next fetch."
        case .undecodable(let reason):
            return "A cached weather report can no longer be read (\(reason)); it is ignored and replaced by the next fetch."
        case .writeFailed(let path, let reason):
            return "Cannot write the weather cache \(path): \(reason). Check that $XDG_CACHE_HOME/here-weather is writable."
        case .lockTimedOut(let path):
            return "Another here-weather run held \(path) too long; fetching without waiting for it."
        case .lockFailed(let path, let reason):
            return "Cannot lock \(path): \(reason). Check that $XDG_CACHE_HOME/here-weather is writable."
        }
    }
}
