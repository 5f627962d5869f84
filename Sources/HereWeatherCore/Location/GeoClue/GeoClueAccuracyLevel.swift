/// GeoClue's `RequestedAccuracyLevel` for a desired accuracy.
///
/// GeoClue gives nothing to a client that asks for less than city, and (measured with 2.6.0)
/// it scrambles every fix for city and neighbourhood clients: a 25 m Wi-Fi fix comes out
/// about 1 km away with an accuracy of 3025 m. Such a fix can meet a desired accuracy only
/// when that is wider than the 3 km the scrambling adds, so 3 km (the default) and finer ask
/// for street level, and 100 m or finer (or `best`) for exact, which alone lets GeoClue use
/// GPS (a WWAN modem's GNSS through ModemManager).
public enum GeoClueAccuracyLevel: UInt32, Sendable {
    case city = 4
    case neighbourhood = 5
    case street = 6
    case exact = 8

    /// The metres GeoClue 2.6 adds to the accuracy of a city or neighbourhood fix.
    public static let scrambling: Double = 3000

    public init(for desired: DesiredAccuracy) {
        switch desired {
        case .any: self = .city
        case .best: self = .exact
        case .within(let metres) where metres > Self.scrambling: self = .city
        case .within(let metres) where metres > 100: self = .street
        case .within: self = .exact
        }
    }
}
