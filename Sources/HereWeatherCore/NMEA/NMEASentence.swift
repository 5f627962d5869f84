/// The two-letter talker of an NMEA 0183 sentence (`GP` GPS, `GN` combined GNSS, `GL`
/// GLONASS, `GA` Galileo, `GB`/`BD` BeiDou, `GQ`/`QZ` QZSS, `GI` NavIC, ...).
public struct NMEATalker: Sendable, Hashable, CustomStringConvertible {
    /// The first and second letters, as ASCII bytes.
    public var first: UInt8
    public var second: UInt8

    public init(_ first: UInt8, _ second: UInt8) {
        self.first = first
        self.second = second
    }

    /// A talker from its two letters; `nil` unless `text` is two ASCII letters.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 2, bytes.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) }) else { return nil }
        self.init(bytes[0], bytes[1])
    }

    public var description: String { String(decoding: [first, second], as: UTF8.self) }

    /// `GN`: a sentence about all constellations together.
    public static let combined = NMEATalker(UInt8(ascii: "G"), UInt8(ascii: "N"))
    /// `GP`: GPS.
    public static let gps = NMEATalker(UInt8(ascii: "G"), UInt8(ascii: "P"))
}

/// A UTC time of day as NMEA gives it (`hhmmss.sss`), to the millisecond.
public struct NMEATimeOfDay: Sendable, Hashable, Comparable {
    /// Milliseconds since midnight, 0 ..< 86 401 000 (a leap second is allowed).
    public var milliseconds: Int

    public init(milliseconds: Int) { self.milliseconds = milliseconds }

    public init(hour: Int, minute: Int, second: Int, millisecond: Int = 0) {
        milliseconds = ((hour * 60 + minute) * 60 + second) * 1000 + millisecond
    }

    public var hour: Int { milliseconds / 3_600_000 }
    public var minute: Int { milliseconds / 60_000 % 60 }
    public var second: Int { milliseconds / 1000 % 60 }
    /// Seconds since midnight, with the fraction.
    public var secondsOfDay: Double { Double(milliseconds) / 1000 }

    public static func < (lhs: NMEATimeOfDay, rhs: NMEATimeOfDay) -> Bool { lhs.milliseconds < rhs.milliseconds }
}

/// A UTC calendar date from RMC (`ddmmyy`) or ZDA.
public struct NMEADate: Sendable, Hashable {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// Days since 1970-01-01.
    var daysSinceEpoch: Int { LocalTime.days(fromCivilYear: year, month: month, day: day) }

    /// The date `days` days later.
    func adding(days: Int) -> NMEADate {
        let (year, month, day) = LocalTime.civilDate(fromDays: daysSinceEpoch + days)
        return NMEADate(year: year, month: month, day: day)
    }
}

/// One decoded NMEA 0183 sentence of a kind the location code uses. Empty fields are `nil`.
public enum NMEASentence: Sendable, Equatable {
    case gga(GGA)
    case rmc(RMC)
    case gll(GLL)
    case gns(GNS)
    case gsa(GSA)
    case gst(GST)
    case gsv(GSV)
    case zda(ZDA)

    /// GGA: time, position and fix quality.
    public struct GGA: Sendable, Equatable {
        public var talker: NMEATalker
        public var time: NMEATimeOfDay?
        public var coordinate: Coordinate?
        /// 0 invalid, 1 GPS, 2 DGPS, 3 PPS, 4 RTK, 5 float RTK, 6 dead reckoning, 7 manual, 8 simulator.
        public var quality: Int?
        public var satellitesUsed: Int?
        public var hdop: Double?
        /// Metres above mean sea level.
        public var altitude: Double?
    }

    /// RMC: the recommended minimum: time, status, position, speed, course and date.
    public struct RMC: Sendable, Equatable {
        public var talker: NMEATalker
        public var time: NMEATimeOfDay?
        /// `A` (valid) or `V` (void), as the ASCII byte.
        public var status: UInt8?
        public var coordinate: Coordinate?
        public var speedKnots: Double?
        public var courseDegrees: Double?
        public var date: NMEADate?
        /// NMEA 2.3+: A autonomous, D differential, E estimated, F float RTK, R RTK,
        /// M manual, S simulator, N not valid.
        public var mode: UInt8?
    }

    /// GLL: position, time and status.
    public struct GLL: Sendable, Equatable {
        public var talker: NMEATalker
        public var coordinate: Coordinate?
        public var time: NMEATimeOfDay?
        public var status: UInt8?
        public var mode: UInt8?
    }

    /// GNS: GGA for several constellations, with one mode letter per constellation.
    public struct GNS: Sendable, Equatable {
        public var talker: NMEATalker
        public var time: NMEATimeOfDay?
        public var coordinate: Coordinate?
        /// One letter per constellation (GPS, GLONASS, Galileo, BeiDou, QZSS, NavIC), e.g. `AAN`.
        public var modes: [UInt8]
        public var satellitesUsed: Int?
        public var hdop: Double?
        public var altitude: Double?
    }

    /// GSA: fix mode, the satellites used and the dilutions of precision.
    public struct GSA: Sendable, Equatable {
        public var talker: NMEATalker
        /// 1 no fix, 2 2D, 3 3D.
        public var mode: Int?
        public var usedPRNs: [Int]
        public var pdop: Double?
        public var hdop: Double?
        public var vdop: Double?
        /// NMEA 4.10+: the GNSS system id (1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou, ...).
        public var systemID: Int?
    }

    /// GST: pseudorange error statistics, in metres (orientation in degrees).
    public struct GST: Sendable, Equatable {
        public var talker: NMEATalker
        public var time: NMEATimeOfDay?
        public var rms: Double?
        public var semiMajor: Double?
        public var semiMinor: Double?
        public var orientation: Double?
        public var latitudeSigma: Double?
        public var longitudeSigma: Double?
        public var altitudeSigma: Double?
    }

    /// GSV: satellites in view; only the counts are decoded.
    public struct GSV: Sendable, Equatable {
        public var talker: NMEATalker
        public var messageCount: Int
        public var messageNumber: Int
        public var satellitesInView: Int?
    }

    /// ZDA: time and date.
    public struct ZDA: Sendable, Equatable {
        public var talker: NMEATalker
        public var time: NMEATimeOfDay?
        public var date: NMEADate?
    }

    /// The talker of any sentence.
    public var talker: NMEATalker {
        switch self {
        case .gga(let s): s.talker
        case .rmc(let s): s.talker
        case .gll(let s): s.talker
        case .gns(let s): s.talker
        case .gsa(let s): s.talker
        case .gst(let s): s.talker
        case .gsv(let s): s.talker
        case .zda(let s): s.talker
        }
    }

    /// The time of day the sentence carries, if its kind has one and it is not empty.
    public var time: NMEATimeOfDay? {
        switch self {
        case .gga(let s): s.time
        case .rmc(let s): s.time
        case .gll(let s): s.time
        case .gns(let s): s.time
        case .gst(let s): s.time
        case .zda(let s): s.time
        case .gsa, .gsv: nil
        }
    }
}
