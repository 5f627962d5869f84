#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What one receiver epoch (the burst of sentences sharing a time of day) says about the
/// position: the unit the NMEA replay source judges, as gpsd judges a TPV report.
public struct NMEAFix: Sendable, Equatable {
    /// The epoch's UTC time (date from the latest RMC/ZDA; time of day from the sentences).
    public var time: Date
    /// The position, when any sentence of the epoch carried one (even a stale one).
    public var coordinate: Coordinate?
    /// Whether the receiver says the position is a real fix (GGA quality > 0 with at least 3
    /// satellites used, RMC/GLL status A, GNS mode not all N, GSA mode ≥ 2) in a complete
    /// epoch (see `NMEAEpochAssembler`). A void epoch may still carry old coordinates.
    public var isValid: Bool
    /// 1 (no fix), 2 (2D) or 3 (3D): from GSA when present, else inferred.
    public var mode: Int
    /// Metres above mean sea level (GGA/GNS).
    public var altitude: Double?
    /// Horizontal accuracy in metres: from GST's latitude/longitude error when present,
    /// else estimated from HDOP (see `accuracyIsEstimate`); `nil` when nothing is known.
    public var horizontalAccuracy: Double?
    public var accuracyIsEstimate: Bool
    /// HDOP from GGA/GNS/GSA.
    public var hdop: Double?
    /// Satellites used in the solution (GGA/GNS count, or GSA PRNs).
    public var satellitesUsed: Int?
    /// Satellites in view (GSV), all constellations.
    public var satellitesInView: Int?
    /// A simulator's fix (mode indicator S).
    public var simulated: Bool
    /// Whether the date came from the log (RMC or ZDA), not from the date the assembler
    /// started with: only a logged date can be judged as in the future.
    public var dateFromLog = false

    public init(time: Date, coordinate: Coordinate? = nil, isValid: Bool = false, mode: Int = 1,
                altitude: Double? = nil, horizontalAccuracy: Double? = nil, accuracyIsEstimate: Bool = false,
                hdop: Double? = nil, satellitesUsed: Int? = nil, satellitesInView: Int? = nil, simulated: Bool = false) {
        self.time = time
        self.coordinate = coordinate
        self.isValid = isValid
        self.mode = mode
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.accuracyIsEstimate = accuracyIsEstimate
        self.hdop = hdop
        self.satellitesUsed = satellitesUsed
        self.satellitesInView = satellitesInView
        self.simulated = simulated
    }

    /// Metres of horizontal error per unit of HDOP, for the estimate when only HDOP is
    /// known (a typical user-equivalent range error of a consumer receiver).
    public static let metresPerHDOP = 5.0
    /// The largest dilution of precision a receiver sends (NMEA's field holds 99.99).
    public static let maximumDOP = 99.99
    /// The largest error estimate taken, in metres: the Earth's diameter.
    public static let maximumErrorMetres = 12_756_000.0
}
