/// gpsd 3.22's end-of-cycle detector (`nmea_parse` in `driver_nmea0183.c`), which decides
/// when gpsd reports the fix of an epoch.
///
/// gpsd learns which sentence ends a receiver's cycle: when the time of day changes, the
/// last timed sentence before the change becomes a "cycle ender", and from then on the
/// arrival of an ender reports the epoch in progress, so a receiver that sends RMC before GGA
/// has its epoch reported at the GGA, when both are in. Until it knows an ender (a log's first
/// epoch) the daemon has no reliable end of cycle and reports after every sentence that sets
/// a position or a mode (`gpsd.c`: `!cycle_end_reliable && (changed & (LATLON_SET |
/// MODE_SET))`): GGA, RMC, GLL, GNS and GSA; so a first epoch with a fix is reported.
/// (`gpsdecode -j` never reports a first epoch: it has no such rule; the daemon is what a
/// client reads.) A sentence that "continues the cycle" (DBT, the depth of a fish finder or
/// chart plotter) changes the rule for good: every untimed sentence gpsd decodes then becomes
/// an ender in place of the last timed one, and no timed sentence is tagged any more.
///
/// Sentences are keyed by kind alone, whatever their talker (GPGGA and GNGGA are one kind),
/// as gpsd keys them.
///
/// Known limits: sentences gpsd decodes that the parser does not (GBS, which has a time;
/// HDT and TXT, which have none) are not seen here, so a receiver whose last timed sentence
/// is a GBS, or one with a DBT that also sends HDT or TXT, can be reported at other sentences
/// than gpsd reports it at. The assembler starts a new epoch at any change of time, where
/// gpsd takes times within 10 ms as one: no NMEA receiver sends faster than that.
struct NMEACycleDetector: Sendable, Equatable {
    /// The sentence kinds that take part, as gpsd's table of decoders names them.
    enum Kind: UInt8, Sendable {
        case gga, rmc, gll, gns, gsa, gst, gsv, zda, dbt

        /// A bit for sets of kinds.
        var bit: UInt16 { 1 << UInt16(rawValue) }

        /// Whether gpsd's decoder of this kind can set a position or a mode (`LATLON_SET`,
        /// `MODE_SET`): what the daemon reports after while it knows no end of cycle.
        var setsPositionOrMode: Bool {
            switch self {
            case .gga, .rmc, .gll, .gns, .gsa: true
            case .gst, .gsv, .zda, .dbt: false
            }
        }
    }

    /// Times closer than this are one time of day (gpsd: 0.01 s).
    static let sameTimeMilliseconds = 10

    /// Kinds learned to end a cycle, as bits.
    private var enders: UInt16 = 0
    /// The kind of the latest timed sentence.
    private var lastKind: Kind?
    /// The time of the latest timed sentence; gpsd starts from 0.
    private var lastMilliseconds = 0
    /// Whether a sentence that continues the cycle (DBT) has been seen.
    private var continues = false

    /// A detector that has learned nothing yet, as gpsd starts.
    init() {}

    /// A detector for which every timed sentence ends a cycle, so every epoch with a time is
    /// reported: for looking at what epochs say apart from when gpsd reports them.
    static var reportingEveryTimedEpoch: NMEACycleDetector {
        var detector = NMEACycleDetector()
        detector.enders = .max
        return detector
    }

    /// Takes a sentence of `kind` with its time of day (`nil`: none or empty); returns
    /// whether gpsd reports the epoch in progress on this sentence.
    mutating func observe(_ kind: Kind, time: NMEATimeOfDay?) -> Bool {
        if kind == .dbt { continues = true }
        if let time {
            let changed = abs(time.milliseconds - lastMilliseconds) > Self.sameTimeMilliseconds
            if changed, let lastKind, enders & lastKind.bit == 0, !continues {
                enders |= lastKind.bit
            }
            lastMilliseconds = time.milliseconds
        } else if continues {
            if let lastKind { enders &= ~lastKind.bit }
            enders |= kind.bit
        }
        let atEnder = (time != nil || continues) && enders & kind.bit != 0
        let reports = atEnder || (enders == 0 && kind.setsPositionOrMode)
        if time != nil { lastKind = kind }
        return reports
    }
}
