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
/// libgps is whichever supported version this machine has (`LibGPS.current`), driven through
/// an opaque handle and the functions every version shares; each report is the JSON line
/// `gps_read` copies out, decoded here (`GPSDReport(json:)`), never libgps's struct. The
/// protocol's rules (greeting, device list, TPV/GST pairing, fix selection, the reasons for
/// giving up) are `GPSDSessionRules`; this type owns only the connection. Fails fast when
/// gpsd is not running (connection refused) and when libgps is missing or of another version
/// (naming the file found), and tells a host that refuses from one out of reach (no route, no
/// answer: a connect of its own first, for another host); never waits past the request's
/// deadline: the connect and the reads wait in slices of
/// at most 100 ms, with poll() (any descriptor number, unlike libgps's select-based
/// `gps_waiting`). A failed read is "gpsd closed the connection" only when the socket is
/// really at its end (`hw_gps_peer_closed`). A write to a closed connection is an error,
/// never SIGPIPE (`BrokenPipeGuard`). A fix's arrival is dated, and the deadline read, on the
/// run's clock.
public struct GPSDLocationProvider: LocationSourceProvider {
    public var source: LocationSource { .gpsd }
    public let host: String
    public let port: Int
    /// The run's clock: the deadline's instants and the fixes' arrival dates.
    public let clock: any RunClock
    /// The libgps to read through (looked for on first use: `LibGPS.current`).
    let library: @Sendable () -> LibGPS.Outcome

    public init(host: String = "localhost", port: Int = 2947, clock: any RunClock,
                library: @escaping @Sendable () -> LibGPS.Outcome = { LibGPS.current }) {
        self.host = host
        self.port = port
        self.clock = clock
        self.library = library
    }

    /// `host:port`, for messages.
    var address: String { host.contains(where: { $0 == ":" }) ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Whether something accepts a connection on gpsd's port (the protocol is not spoken).
    public func isPresent() async -> Bool {
        await PortProbe.accepts(host: host, port: port)
    }

    /// The libgps in use, for doctor: "libgps.so.30 (gpsd 3.25, API 14), /lib/.../libgps.so.30".
    public var libraryNote: String? {
        guard case .usable(let found) = library() else { return nil }
        return "libgps: " + found.description
    }

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        let session = GPSDSession(host: host, port: port, address: address, request: request, clock: clock, library: library)
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
    let library: @Sendable () -> LibGPS.Outcome
    private let cancelled = Atomic<Bool>(false)

    init(host: String, port: Int, address: String, request: LocationRequest, clock: any RunClock,
         library: @escaping @Sendable () -> LibGPS.Outcome = { LibGPS.current }) {
        self.host = host
        self.port = port
        self.address = address
        self.request = request
        self.clock = clock
        self.library = library
    }

    func cancel() { cancelled.store(true, ordering: .relaxed) }

    func run() -> Result<Location, Error> {
        connected { connection in
            let seconds = request.secondsLeft(at: clock.now)
            var rules = GPSDSessionRules(request: request, address: address)
            var end = GPSDSessionRules.End.deadline
            // Whether the last read delivered a line: libgps may hold more whole lines, which a
            // wait on the socket would not see, so read again before waiting (see CGPS/shim.h).
            var mayHoldMore = false
            while !cancelled.load(ordering: .relaxed) {
                let remaining = clock.now.duration(to: request.deadline)
                guard remaining > .zero else { break }
                if !mayHoldMore {
                    let slice = min(remaining, .milliseconds(100))
                    guard hw_gps_socket_readable(connection.socket, max(1, Int32(slice.wholeMilliseconds))) else { continue }
                }
                let count = connection.read()
                guard count >= 0 else {
                    end = hw_gps_peer_closed(connection.socket) ? .closed : .unreadable
                    break
                }
                mayHoldMore = count > 0
                guard count > 0 else { continue }   // no whole line yet: nothing to judge
                switch rules.receive(connection.report(), arrival: clock.date) {
                case .continue: continue
                case .answer(let location): return .success(location)
                case .fail(let error): return .failure(error)
                }
            }
            switch rules.end(end, at: clock.date, seconds: seconds) {
            case .answer(let location): return .success(location)
            case .fail(let error): return .failure(error)
            case .continue: return .failure(LocationError.noFix(source: "GPS", seconds: seconds, seen: rules.seen,
                                                                             state: rules.noFixState))
            }
        }
    }

    /// An open connection to gpsd, watching: libgps's handle, the buffer each report's line is
    /// copied into, and the socket to wait on.
    struct Connection {
        let handle: UnsafeMutableRawPointer
        let message: UnsafeMutablePointer<CChar>
        let socket: Int32
        let libgps: LibGPSLibrary

        /// `gps_read`: the length of the line it handed out (0: no whole line yet), or < 0.
        func read() -> Int32 { libgps.read(handle, message, HW_GPS_MESSAGE_SIZE) }

        /// The report whose line the last read handed out.
        func report() -> GPSDReport {
            // The line gpsd sent (its CR LF's CR included: JSON whitespace); not JSON: not gpsd's report.
            let line = UnsafeRawPointer(message).assumingMemoryBound(to: UInt8.self)
            let length = strnlen(message, Int(HW_GPS_MESSAGE_SIZE) - 1)
            return GPSDReport(json: UnsafeBufferPointer(start: line, count: length)) ?? .other
        }
    }

    /// Connects to gpsd, asks it to watch, and runs `body` on the connection, which is closed
    /// after; the failure to connect when there is none.
    func connected<T>(_ body: (Connection) -> Result<T, Error>) -> Result<T, Error> {
        let libgps: LibGPSLibrary
        switch library() {
        case .usable(let found): libgps = found
        case .unusable(let problem): return .failure(unusable(problem))
        }
        // The handle: zeroed, larger than any version's struct gps_data_t (see CGPS/shim.h).
        let handle = UnsafeMutableRawPointer.allocate(byteCount: Int(HW_GPS_HANDLE_SIZE), alignment: 64)
        handle.initializeMemory(as: UInt8.self, repeating: 0, count: Int(HW_GPS_HANDLE_SIZE))
        let message = UnsafeMutablePointer<CChar>.allocate(capacity: Int(HW_GPS_MESSAGE_SIZE))
        message.initialize(repeating: 0, count: Int(HW_GPS_MESSAGE_SIZE))
        defer {
            handle.deallocate()
            message.deallocate()
        }
        let (open, close, stream) = (libgps.open, libgps.close, libgps.stream)
        if !isLoopback, let failure = probe() { return .failure(failure) }
        let opened = open(host, String(port), handle)
        guard opened == 0 else { return .failure(openError(errno, libgps)) }
        defer { _ = close(handle) }
        let socket = hw_gps_socket(handle, libgps.version.socketOffset, libgps.version.socketWidth, Int32(port))
        guard socket >= 0 else {
            return .failure(unusable(.socketNotFound(file: libgps.path, soname: libgps.version.soname)))
        }
        defer { _ = stream(handle, HW_GPS_WATCH_DISABLE, nil) }
        guard hw_gps_set_nonblocking(socket), stream(handle, HW_GPS_WATCH_ENABLE | HW_GPS_WATCH_JSON, nil) >= 0 else {
            return .failure(LocationError.gpsdClosed(address: address))
        }
        return body(Connection(handle: handle, message: message, socket: socket, libgps: libgps))
    }

    func unusable(_ problem: LibGPSProblem) -> LocationError {
        .libgpsUnusable(address: address, problem: problem, supported: LibGPSVersion.supportedList)
    }

    /// Whether `host` names this machine's loopback, where a refusal means gpsd is not running.
    var isLoopback: Bool {
        host == "localhost" || host == "ip6-localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// Why gpsd on another host cannot be connected to, if it cannot: a connect of our own
    /// first, bounded by the request's deadline. libgps's connect blocks until the kernel gives
    /// up (over 2 min for a host that drops it) and says -6 for every failure; this tells a
    /// refusal from no route and from no answer, in time.
    func probe() -> LocationError? {
        let seconds = request.secondsLeft(at: clock.now)
        switch PortProbe.attempt(host: host, port: port, until: request.deadline, on: clock,
                                 cancelled: { self.cancelled.load(ordering: .relaxed) }) {
        case .accepted: return nil
        case .refused: return .gpsdRefused(address: address)
        case .unresolved: return .gpsdUnreachable(address: address, reason: "cannot resolve host \(host)")
        case .hostUnreachable: return .gpsdNoConnection(address: address, host: host, failure: .hostUnreachable)
        case .networkUnreachable: return .gpsdNoConnection(address: address, host: host, failure: .networkUnreachable)
        case .noAnswer: return .gpsdNoConnection(address: address, host: host, failure: .noAnswer(seconds: seconds))
        case .failed(let code): return .gpsdUnreachable(address: address, reason: String(cString: strerror(code)))
        }
    }

    func openError(_ code: Int32, _ libgps: LibGPSLibrary) -> LocationError {
        // libgps reports its netlib codes (negative) in errno: -2 no host, -6 no connection.
        switch code {
        case -6, ECONNREFUSED: return isLoopback ? .gpsdNotRunning(address: address) : .gpsdRefused(address: address)
        case -2: return .gpsdUnreachable(address: address, reason: "cannot resolve host \(host)")
        default: return .gpsdUnreachable(address: address, reason: libgps.errorText(code))
        }
    }
}
