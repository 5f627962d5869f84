import CGPS
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import HereWeatherCore
import Synchronization

/// Asks gpsd for one fix through libgps: connect, watch, read until a fix qualifies or the
/// deadline, stop watching, close. One shot; nothing stays running.
///
/// Accuracy comes from gpsd's `eph` (else `epx`/`epy`, else HDOP, marked as an estimate).
/// gpsd 3.22 derives `eph` from the DOPs even when the receiver sends GST, so a fix that
/// does not meet the desired accuracy waits for its epoch's GST report, whose latitude and
/// longitude sigmas give the receiver's own estimate, before it is judged.
///
/// Fails fast when gpsd is not running (connection refused), reports no receiver, closes
/// the connection, or something other than gpsd answers on its port (no `VERSION` greeting
/// first); never waits past the request's deadline: reads wait in slices of at most 100 ms, with poll() (any descriptor
/// number, unlike libgps's select-based `gps_waiting`).
/// A peer that accepts the connection and says nothing (a hung gpsd) is reported as such at
/// the deadline. A write to a closed connection is an error, never SIGPIPE (`BrokenPipeGuard`).
public struct GPSDLocationProvider: LocationSourceProvider {
    public var source: LocationSource { .gpsd }
    public let host: String
    public let port: Int

    public init(host: String = "localhost", port: Int = 2947) {
        self.host = host
        self.port = port
    }

    /// `host:port`, for messages.
    var address: String { host.contains(where: { $0 == ":" }) ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Whether something accepts a connection on gpsd's port (the protocol is not spoken).
    public func isPresent() async -> Bool {
        await PortProbe.accepts(host: host, port: port)
    }

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        let session = GPSDSession(host: host, port: port, address: address, request: request)
        return try await BlockingCall.run({ BrokenPipeGuard.run { session.run() } }, onCancel: { session.cancel() })
    }
}

/// One connection to gpsd, run to its end on one thread.
final class GPSDSession: @unchecked Sendable {
    let host: String
    let port: Int
    let address: String
    let request: LocationRequest
    private let cancelled = Atomic<Bool>(false)
    private var devices: [String] = []
    private var satellitesVisible = 0
    private var satellitesUsed = 0
    /// Whether gpsd's `VERSION` greeting has arrived (gpsd sends it first on every connection).
    private var greeted = false

    init(host: String, port: Int, address: String, request: LocationRequest) {
        self.host = host
        self.port = port
        self.address = address
        self.request = request
    }

    func cancel() { cancelled.store(true, ordering: .relaxed) }

    func run() -> Result<Location, Error> {
        guard hw_gps_is_available() else {
            return .failure(LocationError.gpsdUnreachable(
                address: address, reason: "the libgps library is not installed (Debian and Ubuntu: apt install libgps-dev)"))
        }
        var data = gps_data_t()
        let opened = hw_gps_open(host, String(port), &data)
        guard opened == 0 else { return .failure(openError(errno)) }
        let seconds = request.secondsLeft()
        defer {
            _ = hw_gps_watch(&data, false)
            _ = hw_gps_close(&data)
        }
        guard hw_gps_set_nonblocking(&data), hw_gps_watch(&data, true) >= 0 else {
            return .failure(LocationError.gpsdClosed(address: address))
        }

        var selector = FixSelector(request: request)
        // A fix not yet meeting the desired accuracy, waiting for its epoch's GST report.
        var pending: Location?
        // Whether the last read delivered a line: libgps may hold more whole lines, which a
        // wait on the socket would not see, so read again before waiting (see CGPS/shim.h).
        var mayHoldMore = false
        while !cancelled.load(ordering: .relaxed) {
            let remaining = ContinuousClock.now.duration(to: request.deadline)
            guard remaining > .zero else { break }
            if !mayHoldMore {
                let slice = min(remaining, .milliseconds(100))
                let milliseconds = Int32(slice.wholeMilliseconds)
                guard hw_gps_socket_readable(&data, max(1, milliseconds)) else { continue }
            }
            hw_gps_clear_set(&data)
            let count = hw_gps_read(&data)
            guard count >= 0 else { return .failure(LocationError.gpsdClosed(address: address)) }
            mayHoldMore = count > 0
            guard count > 0 else { continue }   // no whole line yet: nothing to judge
            let update = hw_gps_update(&data)
            if update.has_version { greeted = true }
            // gpsd greets every client with VERSION before anything else: anything else first
            // means something that is not gpsd listens on the port.
            guard greeted else { return .failure(LocationError.notGPSD(address: address)) }
            if update.has_devices {
                devices = (0..<Int(update.device_count)).map { String(cString: hw_gps_device_path(&data, Int32($0))) }
                if devices.isEmpty { return .failure(LocationError.gpsdNoReceiver(address: address)) }
            }
            if update.has_satellites {
                satellitesVisible = Int(update.satellites_visible)
                satellitesUsed = Int(update.satellites_used)
            }
            if update.has_gst, var fix = pending, abs(update.gst_time - fix.timestamp.timeIntervalSince1970) < 0.01,
               update.gst_lat_sigma.isFinite, update.gst_lon_sigma.isFinite {
                fix.horizontalAccuracy = (update.gst_lat_sigma * update.gst_lat_sigma
                                          + update.gst_lon_sigma * update.gst_lon_sigma).squareRoot()
                fix.accuracyIsEstimate = false
                pending = nil
                if let answer = selector.consider(fix, now: Date()) { return .success(answer) }
            }
            guard update.has_fix else { continue }
            if let waiting = pending {
                pending = nil
                if let answer = selector.consider(waiting, now: Date()) { return .success(answer) }
            }
            guard let fix = location(from: update) else { continue }
            if request.desiredAccuracy.isMet(by: fix.horizontalAccuracy) || request.desiredAccuracy == .any {
                if let answer = selector.consider(fix, now: Date()) { return .success(answer) }
            } else {
                pending = fix
            }
        }
        if let waiting = pending, let answer = selector.consider(waiting, now: Date()) { return .success(answer) }
        if let answer = selector.answerAtDeadline(now: Date()) { return .success(answer) }
        if !greeted { return .failure(LocationError.gpsdSilent(address: address, seconds: seconds)) }
        return .failure(LocationError.noFix(source: "GPS", seconds: seconds, seen: seen(selector)))
    }

    /// A real 2D/3D fix from a TPV report, or `nil` for mode 1 and non-finite positions.
    func location(from update: hw_gps_update) -> Location? {
        guard update.has_latlon, update.mode >= MODE_2D,
              update.latitude.isFinite, update.longitude.isFinite else { return nil }
        var accuracy: Double?
        var estimated = false
        if update.eph.isFinite, update.eph > 0 {
            accuracy = update.eph
        } else if update.epx.isFinite, update.epy.isFinite {
            accuracy = (update.epx * update.epx + update.epy * update.epy).squareRoot()
        } else if update.hdop.isFinite, update.hdop > 0 {
            accuracy = update.hdop * NMEAFix.metresPerHDOP
            estimated = true
        }
        return Location(
            coordinate: Coordinate(latitude: update.latitude, longitude: update.longitude),
            horizontalAccuracy: accuracy,
            // A report without a time is gpsd's current fix; one with a time keeps it, however
            // old (max age judges it) or late (`FixSelector.isFutureDated` refuses it, and a
            // time outside `LocalTime.range` with it).
            timestamp: update.has_time ? LocalTime.date(secondsSince1970: update.time) ?? .distantFuture : Date(),
            source: .gpsd,
            altitude: update.mode >= MODE_3D && update.alt_msl.isFinite ? update.alt_msl : nil,
            accuracyIsEstimate: estimated,
            mode: Int(update.mode),
            simulated: update.status == STATUS_SIM)
    }

    /// "receiver on /dev/ttyACM0, 9 satellites seen, 0 used".
    func seen(_ selector: FixSelector) -> String {
        var parts: [String] = []
        parts.append(devices.isEmpty ? "gpsd on \(address) reported no receiver yet" : "receiver on \(devices.joined(separator: ", "))")
        parts.append("\(satellitesVisible) satellites seen, \(satellitesUsed) used")
        parts += selector.ignored
        return parts.joined(separator: ", ")
    }

    func openError(_ code: Int32) -> LocationError {
        // libgps reports its netlib codes (negative) in errno: -2 no host, -6 no connection.
        switch code {
        case -6, ECONNREFUSED: return .gpsdNotRunning(address: address)
        case -2: return .gpsdUnreachable(address: address, reason: "cannot resolve host \(host)")
        default: return .gpsdUnreachable(address: address, reason: LibGPS.errorText(code))
        }
    }
}
