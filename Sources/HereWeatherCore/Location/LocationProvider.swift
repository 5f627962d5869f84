/// A source of position fixes: one backend per source, like swift-log's handlers.
///
/// Implementations answer one request and hold nothing open afterwards.
public protocol LocationProvider: Sendable {
    /// One fix for `request`, or a `LocationError` by the request's deadline.
    func requestLocation(_ request: LocationRequest) async throws -> Location
    /// Whether this source exists on this machine (a local check: nothing leaves the machine).
    func isPresent() async -> Bool
}

extension LocationProvider { public func isPresent() async -> Bool { true } }

/// A provider for one configurable source (`[location] sources`): what `LocationSourceChain`
/// combines, asking the source's permission first.
public protocol LocationSourceProvider: LocationProvider {
    /// Which source this provider reads.
    var source: LocationSource { get }
    /// Whether this source answers `request` at once, on this machine, with a fix that meets
    /// it (a fixed place without a stated accuracy, or within the desired one): the chain then
    /// asks about and starts no other source.
    func answersAtOnce(_ request: LocationRequest) -> Bool
    /// The library this source reads through, as doctor names it ("libgps: libgps.so.30
    /// (gpsd 3.25, API 14), /lib/x86_64-linux-gnu/libgps.so.30"); `nil` when there is none to name.
    var libraryNote: String? { get }
    /// This source's fixes as they come, kept open while `--follow` runs (gpsd's WATCH stream,
    /// GeoClue's LocationUpdated, an NMEA device, FIFO or log): `nil` for a source that answers
    /// once (Wi-Fi, IP, a fixed place). Only asked of the source that won the request, so its
    /// permission is already granted. Fixes are judged as `requestLocation` judges them
    /// (`request`'s desired accuracy and max age); its deadline does not apply.
    func watch(_ request: LocationRequest) -> LocationWatch?
}

extension LocationSourceProvider {
    public func answersAtOnce(_ request: LocationRequest) -> Bool { false }
    public var libraryNote: String? { nil }
    public func watch(_ request: LocationRequest) -> LocationWatch? { nil }
}

/// A live source kept open while `--follow` runs: each qualifying fix as it comes, in order.
///
/// `start` is called once, with where to say what went wrong (`--verbose`'s notes); the stream
/// ends when the source does (gpsd went away, a log ended), and the source is closed when the
/// stream's consumer stops (`onTermination`). Waiting for the next fix blocks on the source's
/// descriptor (a thread of its own, as `BlockingCall.startThread`), never on a polling timer.
public struct LocationWatch: Sendable {
    public let start: @Sendable (_ log: @escaping @Sendable (String) -> Void) -> AsyncStream<Location>

    public init(start: @escaping @Sendable (_ log: @escaping @Sendable (String) -> Void) -> AsyncStream<Location>) {
        self.start = start
    }
}

/// What a source that gave no fix was doing, which decides the advice: a receiver that is
/// on (it needs a clear view of the sky), gpsd with no receiver, or a recorded log replayed.
public enum NoFixState: Sendable, Equatable {
    case receiverOn
    case noReceiver
    case replaying
}

/// Why no location could be had.
public enum LocationError: UserFacingError, Equatable {
    /// The fixed source was asked but the config names no fixed location.
    case noFixedLocation(configPath: String)
    /// No source is configured at all.
    case noSources(configPath: String)
    /// Not one source of the zero-config chain is present on this machine.
    case noSourcePresent(configPath: String)
    /// Every source failed; the reasons, in priority order.
    case allSourcesFailed([String])
    /// Nothing listens on gpsd's port on this machine (connection refused on loopback).
    case gpsdNotRunning(address: String)
    /// Another host refused the connection to gpsd's port: gpsd is not running there, or a
    /// firewall rejects it (which this machine cannot tell apart).
    case gpsdRefused(address: String)
    /// gpsd could not be reached for another reason (name lookup, network).
    case gpsdUnreachable(address: String, reason: String)
    /// The connection to gpsd on another host was neither made nor refused: no route, or no
    /// answer by the deadline (`host`: for the advice).
    case gpsdNoConnection(address: String, host: String, failure: GPSDConnectFailure)
    /// gpsd's client library is missing or unusable (`supported`: the versions here-weather reads).
    case libgpsUnusable(address: String, problem: LibGPSProblem, supported: String)
    /// gpsd runs but has no receiver.
    case gpsdNoReceiver(address: String)
    /// gpsd closed the connection before a fix (end of file on its socket).
    case gpsdClosed(address: String)
    /// A read from gpsd failed while the connection was open: a report libgps could not take.
    case gpsdUnreadable(address: String)
    /// Something answered on gpsd's port, but not with gpsd's `VERSION` greeting.
    case notGPSD(address: String)
    /// gpsd's port accepted the connection, but nothing was said by the deadline (a hung gpsd);
    /// `seconds` is how long it was given (`LocationRequest.secondsLeft`), 0 when none.
    case gpsdSilent(address: String, seconds: Double)
    /// No qualifying fix by the deadline (or the end of a log); `seen` says what was seen;
    /// `seconds` is how long the source was given, 0 when none; `state` what the source was
    /// doing, which decides the advice.
    case noFix(source: String, seconds: Double, seen: String, state: NoFixState = .receiverOn)
    /// A replayed file holds no NMEA sentence at all; `lines` is how many lines it had.
    case notNMEA(path: String, lines: Int)
    /// A replayed log ended before any qualifying fix; `seen` says what it held; `hadFixes`:
    /// it held fixes, all older than the max age on the log's clock.
    case replayEnded(name: String, seen: String, hadFixes: Bool)
    /// An NMEA log or device could not be opened.
    case nmeaUnreadable(path: String, reason: String)
    /// Every IP-lookup service failed; `reasons` has one "service: reason" per service, in order.
    case ipLookupFailed(reasons: [String])
    /// Every IP-lookup service failed, and at least one because the system refused a
    /// descriptor, memory or a thread (`ResourceShortage`): the network was not what failed.
    case ipLookupShortOfResources(reasons: [String])

    public var message: String {
        switch self {
        case .noFixedLocation(let path):
            return "No location: no fixed location is configured. Set \(ConfigKey.both(.fixedLatitude, .fixedLongitude)) in \(path) (`here-weather config init` writes a template), or pass --lat and --lon."
        case .noSources(let path):
            return "No location: \(ConfigKey.locationSources) is empty in \(path). List at least one source, e.g. sources = [\"fixed\"], or pass --lat and --lon."
        case .noSourcePresent(let path):
            return "No location: no location source was found on this machine (gpsd, GeoClue, Wi-Fi). Set a fixed location (\(ConfigKey.both(.fixedLatitude, .fixedLongitude))) in \(path) (`here-weather config init` writes a template), or pass --lat and --lon."
        case .allSourcesFailed(let reasons):
            return reasons.count == 1 ? reasons[0] : Sentences.join(["No location from any source"] + reasons)
        case .gpsdNotRunning(let address):
            return "gpsd is not running on \(address) (connection refused). Start it (`sudo systemctl start gpsd`, or `sudo gpsd /dev/ttyACM0` with your receiver's device), or set \(ConfigKey.both(.gpsdHost, .gpsdPort))."
        case .gpsdRefused(let address):
            return "gpsd on \(address) refused the connection: gpsd is not running there, or a firewall rejects it. Check gpsd on that host (`systemctl status gpsd`; it listens beyond localhost only when started with -G), or set \(ConfigKey.both(.gpsdHost, .gpsdPort))."
        case .gpsdNoConnection(let address, let host, let failure):
            return "Cannot reach gpsd on \(address): \(failure.words). \(failure.advice(host: host)), or set \(ConfigKey.both(.gpsdHost, .gpsdPort))."
        case .gpsdUnreachable(let address, let reason):
            return "Cannot reach gpsd on \(address): \(reason). Check \(ConfigKey.both(.gpsdHost, .gpsdPort))."
        case .libgpsUnusable(let address, let problem, let supported):
            return problem.message(address: address, supported: supported)
        case .gpsdNoReceiver(let address):
            return "gpsd on \(address) has no GPS receiver attached. Plug one in (check with `gpspipe -w -n 5`), or add another location source."
        case .gpsdClosed(let address):
            return "gpsd on \(address) closed the connection before a fix. Check that gpsd is healthy (`systemctl status gpsd`) and try again."
        case .gpsdUnreadable(let address):
            return "gpsd on \(address) sent a report that libgps could not read (a line longer than it takes, or not gpsd's JSON), so the connection was dropped before a fix. Check that gpsd is healthy (`systemctl status gpsd`) and that \(ConfigKey.both(.gpsdHost, .gpsdPort)) point at gpsd."
        case .notGPSD(let address):
            return "Something on \(address) answered, but not as gpsd (no VERSION greeting). Check \(ConfigKey.both(.gpsdHost, .gpsdPort)) (gpsd's port is 2947)."
        case .gpsdSilent(let address, let seconds) where seconds == 0:
            return "gpsd on \(address) accepted the connection, but the request's timeout had already passed, so it was given no time to answer. Try a longer --timeout, or check that gpsd is healthy (`systemctl status gpsd`)."
        case .gpsdSilent(let address, let seconds):
            return "gpsd on \(address) accepted the connection but sent nothing within \(JSONOutput.format(seconds)) s. Check that gpsd is healthy (`systemctl status gpsd`; restart it with `sudo systemctl restart gpsd`) and that \(ConfigKey.both(.gpsdHost, .gpsdPort)) point at it."
        case .noFix(let source, let seconds, _, _) where seconds == 0:
            return "No \(source) fix: the request's timeout had already passed when \(source) was asked. Try a longer --timeout, or another source."
        case .noFix(let source, let seconds, let seen, .receiverOn):
            return "No \(source) fix within \(JSONOutput.format(seconds)) s: \(seen). A receiver needs a clear view of the sky; try a longer --timeout (a cold start can take a minute), or another source."
        case .noFix(let source, let seconds, let seen, .noReceiver):
            return "No \(source) fix within \(JSONOutput.format(seconds)) s: \(seen). gpsd has no receiver to read: plug one in (check with `gpspipe -w -n 5`), or use another source."
        case .noFix(let source, let seconds, let seen, .replaying):
            return "No \(source) fix within \(JSONOutput.format(seconds)) s: \(seen). The log held no fix in that time: replay it with a longer --timeout or a higher --replay-speed, or use a live source."
        case .notNMEA(let path, let lines):
            let content = lines == 0 ? "it is empty" : "none of its \(lines) lines is an NMEA sentence ($GPGGA, $GPRMC, ...)"
            return "\(path) is not an NMEA log: \(content). Replay a receiver's log (`gpspipe -r -n 200 > drive.nmea` records one)."
        case .replayEnded(let name, let seen, let hadFixes) where hadFixes:
            return "No fix in \(name): the log ended before a fix that qualifies (\(seen)). Its fixes are older than the max age on the log's clock: try --max-age off."
        case .replayEnded(let name, let seen, _):
            return "No fix in \(name): the log ended before the receiver had a fix (\(seen)). Replay a longer log, or use a live source."
        case .nmeaUnreadable(let path, let reason):
            return "Cannot read NMEA from \(path): \(reason)."
        case .ipLookupFailed(let reasons):
            guard !reasons.isEmpty else {
                return "No IP location: \(ConfigKey.ipServices) is empty. List at least one, e.g. services = [\"ipinfo\"], or set a fixed location (\(ConfigKey.both(.fixedLatitude, .fixedLongitude)))."
            }
            return "No IP location: " + reasons.joined(separator: "; ") + ". Check the network connection and try again later, list other services in \(ConfigKey.ipServices), or set a fixed location (\(ConfigKey.both(.fixedLatitude, .fixedLongitude)))."
        case .ipLookupShortOfResources(let reasons):
            return "No IP location: " + reasons.joined(separator: "; ") + ". " + ResourceShortage.advice
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .nmeaUnreadable, .notNMEA: return .noInput
        default: return .noLocation
        }
    }
}
