#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One decoded gpsd report, as `GPSDSessionRules` needs it, from one line of gpsd's JSON: live,
/// the line libgps's `gps_read` copies out (never libgps's struct, whose layout changes with
/// every libgps version); in tests, recorded gpsd JSON.
public enum GPSDReport: Sendable, Equatable {
    /// gpsd's greeting, sent first on every connection.
    case version
    /// The receivers gpsd knows (their paths); empty when it has none.
    case devices([String])
    /// A sky view: satellites seen and used in the fix, and the HDOP when given.
    case sky(visible: Int, used: Int, hdop: Double?)
    /// Pseudorange noise: the receiver's own 1-sigma latitude and longitude errors (metres)
    /// for the epoch at `time` (seconds since 1970).
    case gst(time: Double?, latitudeSigma: Double, longitudeSigma: Double)
    /// A time-position-velocity report.
    case tpv(GPSDFixReport)
    /// Anything else (WATCH, DEVICE, ATT, ERROR, ...): no rule depends on it.
    case other

    /// The report in one line of gpsd's JSON; `nil` when the line is not a JSON object with a
    /// `class` (something that is not gpsd, or a broken line).
    public init?(json line: String) {
        guard let value = try? JSONValue.parse(Data(line.utf8)) else { return nil }
        self.init(value)
    }

    /// The report in one line of gpsd's JSON as bytes (what `gps_read` copies out, live).
    public init?(json line: UnsafeBufferPointer<UInt8>) {
        guard let value = try? JSONValueParser.parse(line) else { return nil }
        self.init(value)
    }

    /// The report a parsed gpsd JSON object holds; `nil` without a `class`.
    init?(_ value: JSONValue) {
        guard let kind = value["class"]?.string else { return nil }
        switch kind {
        case "VERSION": self = .version
        case "DEVICES":
            self = .devices((value["devices"]?.array ?? []).compactMap { $0["path"]?.string })
        case "SKY":
            let satellites = value["satellites"]?.array ?? []
            let used = value["uSat"]?.int ?? satellites.filter { $0["used"]?.bool == true }.count
            // libgps counts the satellites listed (gpsd 3.22 lists those it sees).
            let visible = value["nSat"]?.int ?? satellites.count
            self = .sky(visible: visible, used: used, hdop: value["hdop"]?.double)
        case "GST":
            guard let lat = value["lat"]?.double, let lon = value["lon"]?.double else { self = .other; return }
            self = .gst(time: value["time"]?.string.flatMap(Self.seconds(iso8601:)), latitudeSigma: lat, longitudeSigma: lon)
        case "TPV":
            self = .tpv(GPSDFixReport(
                mode: value["mode"]?.int ?? 0, latitude: value["lat"]?.double, longitude: value["lon"]?.double,
                time: value["time"]?.string.flatMap(Self.seconds(iso8601:)),
                altitudeMSL: value["altMSL"]?.double ?? value["alt"]?.double,
                eph: value["eph"]?.double, epx: value["epx"]?.double, epy: value["epy"]?.double,
                hdop: nil, status: value["status"]?.int ?? 0))
        default: self = .other
        }
    }

    /// Seconds since 1970 of gpsd's UTC times ("2035-06-01T12:00:00.100Z"); `nil` for other text.
    static func seconds(iso8601 text: String) -> Double? {
        guard text.hasSuffix("Z") else { return nil }
        let parts = text.dropLast().split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, let time = LocalTime(iso8601: String(whole)) else { return nil }
        let date = time.date(utcOffset: 0)
        var fraction = 0.0
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isNumber),
                  let value = Double("0." + parts[1]) else { return nil }
            fraction = value
        }
        return date.timeIntervalSince1970 + fraction
    }
}

/// The fields of a TPV report that the rules use (gpsd's names in the comments).
public struct GPSDFixReport: Sendable, Equatable {
    /// 0 unknown, 1 no fix, 2 2D, 3 3D (`mode`).
    public var mode: Int
    public var latitude: Double?
    public var longitude: Double?
    /// The receiver's time for the fix, seconds since 1970 (`time`); `nil` when not given.
    public var time: Double?
    /// Metres above mean sea level (`altMSL`, else `alt`).
    public var altitudeMSL: Double?
    /// Horizontal error estimates in metres (`eph`, `epx`, `epy`).
    public var eph: Double?
    public var epx: Double?
    public var epy: Double?
    /// The HDOP of the fix; `nil` takes the latest SKY report's.
    public var hdop: Double?
    /// 0 ordinary fix, 8 simulated (`status`).
    public var status: Int

    public init(mode: Int, latitude: Double?, longitude: Double?, time: Double?, altitudeMSL: Double?,
                eph: Double?, epx: Double?, epy: Double?, hdop: Double?, status: Int) {
        self.mode = mode
        self.latitude = latitude
        self.longitude = longitude
        self.time = time
        self.altitudeMSL = altitudeMSL
        self.eph = eph
        self.epx = epx
        self.epy = epy
        self.hdop = hdop
        self.status = status
    }
}
