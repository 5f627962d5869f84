/// Where a fix came from: a configured source, or explicit input on the command line.
///
/// Explicit input (`--lat/--lon`, `--city`) is not a source a user configures or permits:
/// it needs no permission and is never remembered.
public enum LocationOrigin: Sendable, Equatable, Hashable {
    /// A source from `[location] sources` (or `--replay`, which reads as the NMEA source).
    case source(LocationSource)
    /// `--lat`/`--lon` on the command line.
    case commandLine
    /// `--city NAME`, through the weather provider's geocoding service.
    case city

    /// The configured source, or `nil` for explicit input.
    public var source: LocationSource? {
        if case .source(let source) = self { return source }
        return nil
    }

    /// The name in JSON and in the last-location file: "gpsd", "command-line", "city".
    public var name: String {
        switch self {
        case .source(let source): return source.rawValue
        case .commandLine: return "command-line"
        case .city: return "city"
        }
    }

    /// How the origin reads in a sentence: "GPS (gpsd)", "command line".
    public var displayName: String {
        switch self {
        case .source(let source): return source.displayName
        case .commandLine: return "command line"
        case .city: return "city search"
        }
    }
}
