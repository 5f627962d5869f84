#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// gpsd's protocol rules for one request, apart from its socket: fed decoded reports (from
/// libgps live, from recorded JSON in tests), it answers what to do next, as libgps splits
/// `gps_sock_read` from `gps_unpack`.
///
/// - gpsd greets every client with `VERSION` first: anything else first is not gpsd.
/// - A `DEVICES` report without a device means gpsd has no receiver.
/// - `SKY` reports give the satellites seen and used, for the message when no fix comes.
/// - A TPV with a 2D/3D position is a fix, current when it arrives (whatever date gpsd puts on
///   it: that is kept as `receiverTime`). gpsd 3.22 derives `eph` from the DOPs even when the
///   receiver sends GST, so a fix that misses the desired accuracy waits for its epoch's GST
///   report (same time), whose sigmas give the receiver's own estimate, before it is judged.
/// - `FixSelector` applies the request's rules; at the end (deadline, gpsd closing, a broken
///   connection) the best fix seen is the answer, else the failure names what happened.
public struct GPSDSessionRules: Sendable {
    /// What to do after a report.
    public enum Step: Sendable, Equatable {
        /// Read on.
        case `continue`
        /// The request is complete.
        case answer(Location)
        /// The request failed, for this reason.
        case fail(LocationError)
    }

    /// Why the reports stopped.
    public enum End: Sendable, Equatable {
        /// The request's deadline passed.
        case deadline
        /// gpsd closed the connection (end of file on the socket).
        case closed
        /// A read failed while the connection was still open (a report libgps could not take).
        case unreadable
    }

    public let request: LocationRequest
    /// `host:port`, for messages.
    public let address: String
    public private(set) var selector: FixSelector
    /// A fix not yet meeting the desired accuracy, waiting for its epoch's GST report.
    public private(set) var pending: Location?
    public private(set) var greeted = false
    public private(set) var devices: [String] = []
    public private(set) var satellitesVisible = 0
    public private(set) var satellitesUsed = 0
    /// The latest SKY report's HDOP, for a TPV without accuracy figures.
    private var hdop: Double?
    /// A watch (`--follow`'s moving place) rather than a request: every fix that qualifies is an
    /// answer (`FixSelector.judgedWhileWatching`), and the reports go on after it.
    public var watching = false

    public init(request: LocationRequest, address: String) {
        self.request = request
        self.address = address
        selector = FixSelector(request: request)
    }

    /// Takes one report that arrived at `arrival` (this machine's clock).
    public mutating func receive(_ report: GPSDReport, arrival: Date) -> Step {
        guard greeted else {
            if report == .version {
                greeted = true
                return .continue
            }
            return .fail(.notGPSD(address: address))
        }
        switch report {
        case .version, .other:
            return .continue
        case .devices(let paths):
            devices = paths
            return paths.isEmpty ? .fail(.gpsdNoReceiver(address: address)) : .continue
        case .sky(let visible, let used, let dilution):
            satellitesVisible = visible
            satellitesUsed = used
            if let dilution, dilution.isFinite, dilution > 0 { hdop = dilution }
            return .continue
        case .gst(let time, let latitudeSigma, let longitudeSigma):
            guard var fix = pending, let time, let receiverTime = fix.receiverTime,
                  abs(time - receiverTime.timeIntervalSince1970) < 0.01,
                  latitudeSigma.isFinite, longitudeSigma.isFinite else { return .continue }
            fix.horizontalAccuracy = (latitudeSigma * latitudeSigma + longitudeSigma * longitudeSigma).squareRoot()
            fix.accuracyIsEstimate = false
            pending = nil
            return judge(fix, at: arrival)
        case .tpv(let report):
            if let waiting = pending {
                pending = nil
                if case .answer(let answer) = judge(waiting, at: arrival) { return .answer(answer) }
            }
            guard let fix = location(from: report, arrival: arrival) else { return .continue }
            if request.desiredAccuracy == .any || request.desiredAccuracy.isMet(by: fix.horizontalAccuracy) {
                return judge(fix, at: arrival)
            }
            pending = fix
            return .continue
        }
    }

    /// The answer or the failure when the reports stop at `now`; `seconds` is how long gpsd
    /// was given (`LocationRequest.secondsLeft`), for messages.
    public mutating func end(_ reason: End, at now: Date, seconds: Double) -> Step {
        if let waiting = pending {
            pending = nil
            if case .answer(let answer) = judge(waiting, at: now) { return .answer(answer) }
        }
        if let answer = selector.answerAtDeadline(now: now) { return .answer(answer) }
        switch reason {
        case .closed: return .fail(.gpsdClosed(address: address))
        case .unreadable: return .fail(.gpsdUnreadable(address: address))
        case .deadline:
            if !greeted { return .fail(.gpsdSilent(address: address, seconds: seconds)) }
            return .fail(.noFix(source: "GPS", seconds: seconds, seen: seen, state: noFixState))
        }
    }

    private mutating func judge(_ fix: Location, at now: Date) -> Step {
        (watching ? FixSelector.judgedWhileWatching(fix, for: request, now: now) : selector.consider(fix, now: now))
            .map(Step.answer) ?? .continue
    }

    /// A real 2D/3D fix from a TPV report, current at `arrival`; `nil` for mode 0/1 and
    /// positions that are missing or not finite.
    func location(from report: GPSDFixReport, arrival: Date) -> Location? {
        guard report.mode >= 2, let latitude = report.latitude, let longitude = report.longitude,
              latitude.isFinite, longitude.isFinite else { return nil }
        var accuracy: Double?
        var estimated = false
        if let eph = report.eph, eph.isFinite, eph > 0 {
            accuracy = eph
        } else if let epx = report.epx, let epy = report.epy, epx.isFinite, epy.isFinite {
            accuracy = (epx * epx + epy * epy).squareRoot()
        } else if let dilution = report.hdop ?? hdop, dilution.isFinite, dilution > 0 {
            accuracy = dilution * NMEAFix.metresPerHDOP
            estimated = true
        }
        var location = Location(
            coordinate: Coordinate(latitude: latitude, longitude: longitude), horizontalAccuracy: accuracy,
            timestamp: arrival, source: .gpsd,
            altitude: report.mode >= 3 ? report.altitudeMSL.flatMap { $0.isFinite ? $0 : nil } : nil,
            accuracyIsEstimate: estimated, mode: report.mode, simulated: report.status == 8)
        location.receiverTime = LocalTime.date(secondsSince1970: report.time)
        return location
    }

    /// What gpsd was doing when no fix came: reading a receiver, or reporting none.
    public var noFixState: NoFixState { devices.isEmpty ? .noReceiver : .receiverOn }

    /// "receiver on /dev/ttyACM0, 9 satellites seen, 0 used", and what was ignored.
    public var seen: String {
        var parts: [String] = []
        parts.append(devices.isEmpty ? "gpsd on \(address) reported no receiver yet" : "receiver on \(devices.joined(separator: ", "))")
        parts.append("\(satellitesVisible) satellites seen, \(satellitesUsed) used")
        parts += selector.ignored
        return parts.joined(separator: ", ")
    }
}
