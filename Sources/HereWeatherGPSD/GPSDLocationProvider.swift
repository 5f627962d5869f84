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
/// The protocol's rules (greeting, device list, TPV/GST pairing, fix selection, the reasons
/// for giving up) are `GPSDSessionRules`, fed the reports libgps decodes; this type owns only
/// the socket. Fails fast when gpsd is not running (connection refused); never waits past the
/// request's deadline: reads wait in slices of at most 100 ms, with poll() (any descriptor
/// number, unlike libgps's select-based `gps_waiting`). A failed read is "gpsd closed the
/// connection" only when the socket is really at its end (`hw_gps_peer_closed`). A write to
/// a closed connection is an error, never SIGPIPE (`BrokenPipeGuard`). A fix's arrival is
/// dated, and the deadline read, on the run's clock.
public struct GPSDLocationProvider: LocationSourceProvider {
    public var source: LocationSource { .gpsd }
    public let host: String
    public let port: Int
    /// The run's clock: the deadline's instants and the fixes' arrival dates.
    public let clock: any RunClock

    public init(host: String = "localhost", port: Int = 2947, clock: any RunClock) {
        self.host = host
        self.port = port
        self.clock = clock
    }

    /// `host:port`, for messages.
    var address: String { host.contains(where: { $0 == ":" }) ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Whether something accepts a connection on gpsd's port (the protocol is not spoken).
    public func isPresent() async -> Bool {
        await PortProbe.accepts(host: host, port: port)
    }

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        let session = GPSDSession(host: host, port: port, address: address, request: request, clock: clock)
        return try await BlockingCall.run({ BrokenPipeGuard.run { session.run() } }, onCancel: { session.cancel() })
    }
}

/// One connection to gpsd, run to its end on one thread: the socket loop around `GPSDSessionRules`.
final class GPSDSession: @unchecked Sendable {
    let host: String
    let port: Int
    let address: String
    let request: LocationRequest
    let clock: any RunClock
    private let cancelled = Atomic<Bool>(false)

    init(host: String, port: Int, address: String, request: LocationRequest, clock: any RunClock) {
        self.host = host
        self.port = port
        self.address = address
        self.request = request
        self.clock = clock
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
        let seconds = request.secondsLeft(at: clock.now)
        defer {
            _ = hw_gps_watch(&data, false)
            _ = hw_gps_close(&data)
        }
        guard hw_gps_set_nonblocking(&data), hw_gps_watch(&data, true) >= 0 else {
            return .failure(LocationError.gpsdClosed(address: address))
        }
        var rules = GPSDSessionRules(request: request, address: address)
        var end = GPSDSessionRules.End.deadline
        // Whether the last read delivered a line: libgps may hold more whole lines, which a
        // wait on the socket would not see, so read again before waiting (see CGPS/shim.h).
        var mayHoldMore = false
        reading: while !cancelled.load(ordering: .relaxed) {
            let remaining = clock.now.duration(to: request.deadline)
            guard remaining > .zero else { break }
            if !mayHoldMore {
                let slice = min(remaining, .milliseconds(100))
                guard hw_gps_socket_readable(&data, max(1, Int32(slice.wholeMilliseconds))) else { continue }
            }
            hw_gps_clear_set(&data)
            let count = hw_gps_read(&data)
            guard count >= 0 else {
                end = hw_gps_peer_closed(&data) ? .closed : .unreadable
                break
            }
            mayHoldMore = count > 0
            guard count > 0 else { continue }   // no whole line yet: nothing to judge
            let arrival = clock.date
            let update = hw_gps_update(&data)
            for report in reports(update, &data) {
                switch rules.receive(report, arrival: arrival) {
                case .continue: continue
                case .answer(let location): return .success(location)
                case .fail(let error): return .failure(error)
                }
            }
        }
        switch rules.end(end, at: clock.date, seconds: seconds) {
        case .answer(let location): return .success(location)
        case .fail(let error): return .failure(error)
        case .continue: return .failure(LocationError.noFix(source: "GPS", seconds: seconds, seen: rules.seen))
        }
    }

    /// The reports one read delivered, from libgps's decoded struct, in the order the rules
    /// take them; a line libgps did not recognise is `.other` (never the greeting).
    func reports(_ update: hw_gps_update, _ data: inout gps_data_t) -> [GPSDReport] {
        var reports: [GPSDReport] = []
        if update.has_version { reports.append(.version) }
        if update.has_devices {
            reports.append(.devices((0..<Int(update.device_count)).map { String(cString: hw_gps_device_path(&data, Int32($0))) }))
        }
        if update.has_satellites {
            reports.append(.sky(visible: Int(update.satellites_visible), used: Int(update.satellites_used),
                                hdop: update.hdop.isFinite ? update.hdop : nil))
        }
        if update.has_gst {
            reports.append(.gst(time: update.gst_time, latitudeSigma: update.gst_lat_sigma, longitudeSigma: update.gst_lon_sigma))
        }
        if update.has_fix {
            reports.append(.tpv(GPSDFixReport(
                mode: Int(update.mode),
                latitude: update.has_latlon ? update.latitude : nil, longitude: update.has_latlon ? update.longitude : nil,
                time: update.has_time ? update.time : nil, altitudeMSL: update.alt_msl,
                eph: update.eph, epx: update.epx, epy: update.epy,
                hdop: update.hdop.isFinite ? update.hdop : nil, status: Int(update.status))))
        }
        return reports.isEmpty ? [.other] : reports
    }

    /// Whether `host` names this machine's loopback, where a refusal means gpsd is not running.
    var isLoopback: Bool {
        host == "localhost" || host == "ip6-localhost" || host == "::1" || host.hasPrefix("127.")
    }

    func openError(_ code: Int32) -> LocationError {
        // libgps reports its netlib codes (negative) in errno: -2 no host, -6 no connection.
        switch code {
        case -6, ECONNREFUSED: return isLoopback ? .gpsdNotRunning(address: address) : .gpsdRefused(address: address)
        case -2: return .gpsdUnreachable(address: address, reason: "cannot resolve host \(host)")
        default: return .gpsdUnreachable(address: address, reason: LibGPS.errorText(code))
        }
    }
}
