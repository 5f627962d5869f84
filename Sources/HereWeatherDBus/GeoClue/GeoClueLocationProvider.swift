#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HereWeatherCore

/// Asks GeoClue2, the desktop's location service on the system D-Bus, for one fix.
///
/// `Manager.GetClient`, then the client's `DesktopId` ("here-weather") and
/// `RequestedAccuracyLevel` (`GeoClueAccuracyLevel`), a subscription to its `LocationUpdated`
/// before `Start`, the fixes it reports until one meets the request (`FixSelector`), and
/// `Stop` in every case once the client exists. Every call is bounded by the request's
/// deadline and ends when the task is cancelled. The fixes are waited for in real slices of
/// at most half a second, with the run's clock read between them: the deadline is the clock's.
///
/// GeoClue 2.6 never answers GetClient while no agent has registered for the user (no error
/// at all); the deadline then ends the wait with `GeoClueError.noAgent`. A refusal (the app
/// not allowed in geoclue.conf, or by the agent) is `GeoClueError.notAllowed`. While
/// `--follow` runs, `watch` keeps a client started and follows its moves (GeoClueWatch.swift).
public struct GeoClueLocationProvider: LocationSourceProvider {
    public var source: LocationSource { .geoclue }
    /// The bus; `DBusConnection.system` by default.
    let connect: @Sendable () throws -> DBusConnection
    /// The run's clock: the request's deadline is one of its instants.
    let clock: any RunClock

    public init(connect: @escaping @Sendable () throws -> DBusConnection = { try DBusConnection.system() },
                clock: any RunClock) {
        self.connect = connect
        self.clock = clock
    }

    static let service = "org.freedesktop.GeoClue2"
    static let managerPath = "/org/freedesktop/GeoClue2/Manager"
    static let managerInterface = "org.freedesktop.GeoClue2.Manager"
    static let clientInterface = "org.freedesktop.GeoClue2.Client"
    static let locationInterface = "org.freedesktop.GeoClue2.Location"
    /// The desktop file name GeoClue knows the app by (its section in geoclue.conf).
    public static let desktopID = "here-weather"

    /// Whether GeoClue runs on the system bus or can be started there (D-Bus activation).
    /// Local: two questions to the bus daemon, nothing reaches GeoClue itself.
    /// Both questions share one bound of 250 ms, and neither holds a cooperative thread.
    public func isPresent() async -> Bool {
        guard let bus = try? connect() else { return false }
        let deadline = TransportDeadline.after(Self.presenceBound)
        let owned = try? await bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                        interface: "org.freedesktop.DBus", member: "NameHasOwner",
                                        arguments: [.string(Self.service)], deadline: deadline)
        if owned?.first?.bool == true { return true }
        guard owned != nil else { return false }   // no answer: the bus is wedged, or gone
        let reply = try? await bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                        interface: "org.freedesktop.DBus", member: "ListActivatableNames",
                                        deadline: deadline)
        return reply?.first?.strings?.contains(Self.service) ?? false
    }

    /// A D-Bus call's deadline for `request`: the real time its deadline leaves on the run's clock.
    private func busDeadline(_ request: LocationRequest) -> TransportDeadline {
        TransportDeadline(request.deadline, on: clock)
    }

    /// The presence check's bound (it normally takes a few milliseconds).
    static let presenceBound: Duration = .milliseconds(250)
    /// How long `Stop` may wait for GeoClue's answer, past the request's end: GeoClue also
    /// stops the client by itself when this connection closes.
    static let stopBound: Duration = .milliseconds(100)

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        // The time GeoClue is given, for "within N s" messages (`LocationRequest.secondsLeft`).
        let given = request.secondsLeft(at: clock.now)
        let bus = try connect()
        let client = try await getClient(bus, request: request, given: given)
        do {
            let fix = try await locate(bus, client: client, request: request, given: given)
            await stop(bus, client: client)
            return fix
        } catch {
            await stop(bus, client: client)
            throw Self.translating(error, given: given)
        }
    }

    /// The client's object path. GetClient waits for an agent in GeoClue 2.6: at the deadline
    /// that wait is the likely reason, whether or not GeoClue is running yet (activation).
    private func getClient(_ bus: DBusConnection, request: LocationRequest, given: Double) async throws -> String {
        do {
            let reply = try await bus.call(destination: Self.service, path: Self.managerPath,
                                           interface: Self.managerInterface, member: "GetClient",
                                           deadline: busDeadline(request))
            guard let path = reply.first?.objectPath else {
                throw DBusError.typeMismatch("GeoClue's GetClient to answer an object path")
            }
            return path
        } catch DBusError.timedOut {
            throw GeoClueError.noAgent(seconds: given)
        } catch {
            throw Self.translating(error, given: given)
        }
    }

    private func locate(_ bus: DBusConnection, client: String, request: LocationRequest,
                        given: Double) async throws -> Location {
        try await bus.setProperty(destination: Self.service, path: client, interface: Self.clientInterface,
                                  name: "DesktopId", value: .string(Self.desktopID), deadline: busDeadline(request))
        let level = GeoClueAccuracyLevel(for: request.desiredAccuracy)
        try await bus.setProperty(destination: Self.service, path: client, interface: Self.clientInterface,
                                  name: "RequestedAccuracyLevel", value: .uint32(level.rawValue), deadline: busDeadline(request))
        // Any connection may send a signal with the client's path and interface: only those
        // from GeoClue's unique name (who answered GetClient) are GeoClue's.
        let owner = try await geoClueOwner(bus, deadline: busDeadline(request))
        let updates = try bus.subscribe(sender: owner, path: client, interface: Self.clientInterface, member: "LocationUpdated")
        defer { updates.cancel() }
        _ = try await bus.call(destination: Self.service, path: client, interface: Self.clientInterface,
                               member: "Start", deadline: busDeadline(request))
        var selector = FixSelector(request: request)
        while true {
            let arguments: [DBusValue]
            do {
                arguments = try await nextUpdate(updates, deadline: request.deadline)
            } catch DBusError.timedOut {
                if let answer = selector.answerAtDeadline(now: clock.date) { return answer }
                throw GeoClueError.noFix(seconds: given, seen: selector.fixesSeen)
            }
            guard arguments.count == 2, let path = arguments[1].objectPath else { continue }
            let properties: [String: DBusValue]
            do {
                properties = try await bus.properties(destination: Self.service, path: path,
                                                      interface: Self.locationInterface, deadline: busDeadline(request))
            } catch let error as DBusError where error.concernsOneMessage {
                continue   // this update cannot be read (gone, refused, malformed): wait for the next
            } catch DBusError.timedOut {
                if let answer = selector.answerAtDeadline(now: clock.date) { return answer }
                throw GeoClueError.noFix(seconds: given, seen: selector.fixesSeen)
            }
            guard let fix = Self.location(from: properties, arrivedAt: clock.date) else { continue }
            if let answer = selector.consider(fix, now: clock.date) { return answer }
        }
    }

    /// The next update, or `.timedOut` once the run's clock reaches `deadline` (an update
    /// already in hand by then is still given, as a wait with a passed deadline gives it).
    private func nextUpdate(_ updates: DBusSignalSubscription, deadline: ContinuousClock.Instant) async throws -> [DBusValue] {
        while true {
            let slice = max(.zero, min(clock.now.duration(to: deadline), .milliseconds(500)))
            do {
                return try await updates.next(deadline: .after(slice))
            } catch DBusError.timedOut where clock.now < deadline {
                continue
            }
        }
    }

    /// GeoClue's unique name on the bus (":1.42"), the sender of its signals.
    private func geoClueOwner(_ bus: DBusConnection, deadline: TransportDeadline) async throws -> String {
        let reply = try await bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                       interface: "org.freedesktop.DBus", member: "GetNameOwner",
                                       arguments: [.string(Self.service)], deadline: deadline)
        guard let owner = reply.first?.string, owner.hasPrefix(":") else {
            throw DBusError.typeMismatch("the bus to name GeoClue's owner with a unique name")
        }
        return owner
    }

    /// Stops the client (best effort, with a short wait of its own: the request may be over).
    /// Runs in a task of its own, so that it is sent also when this task was cancelled.
    private func stop(_ bus: DBusConnection, client: String) async {
        await Task.detached {
            _ = try? await bus.call(destination: Self.service, path: client, interface: Self.clientInterface,
                                    member: "Stop", deadline: .after(Self.stopBound))
        }.value
    }

    /// A fix from a Location object's properties, dated at its arrival (`date`, the run
    /// clock's), or nil without a real position.
    public static func location(from properties: [String: DBusValue], arrivedAt date: Date) -> Location? {
        guard let latitude = properties["Latitude"]?.double, let longitude = properties["Longitude"]?.double else {
            return nil
        }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else { return nil }
        // Accuracy in metres; GeoClue's "unknown" altitude is -DBL_MAX.
        let accuracy = properties["Accuracy"]?.double.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        let altitude = properties["Altitude"]?.double.flatMap { $0.isFinite && $0 > -1e300 ? $0 : nil }
        // A live fix is current when it arrives; GeoClue's own time for it is kept beside.
        var location = Location(coordinate: coordinate, horizontalAccuracy: accuracy, timestamp: date,
                                source: .geoclue, altitude: altitude)
        location.receiverTime = properties["Timestamp"].flatMap(Self.timestamp)
        return location
    }

    /// GeoClue's own time for a fix (`Timestamp`, `(tt)`: seconds and microseconds since
    /// 1970), or nil when it is not a possible time: zero seconds, microseconds of a second or
    /// more, or a date outside what `LocalTime` accepts. Information only: the fix is current
    /// when it arrives, whatever its date says (GeoClue copies sources' own clocks).
    public static func timestamp(_ value: DBusValue) -> Date? {
        guard let parts = value.structure, parts.count == 2,
              let seconds = parts[0].integer, let microseconds = parts[1].integer,
              seconds > 0, (0..<1_000_000).contains(microseconds) else { return nil }
        return LocalTime.date(secondsSince1970: Double(seconds) + Double(microseconds) / 1e6)
    }

    /// `error` as GeoClue's user would read it: a refusal, GeoClue missing, a timeout at the
    /// deadline (`given` seconds after GeoClue was asked); D-Bus trouble (no bus, no libsystemd) and cancellation stay as they are.
    static func translating(_ error: Error, given: Double) -> Error {
        guard let error = error as? DBusError else { return error }
        switch error {
        case .remote(let name, let message) where name.hasSuffix(".AccessDenied"):
            return GeoClueError.notAllowed(reason: message.isEmpty ? name : message)
        case .remote where error.isServiceUnknown:
            return GeoClueError.notRunning
        case .remote(let name, let message):
            return GeoClueError.failed(message.isEmpty ? name : "\(name): \(message)")
        case .timedOut:
            return GeoClueError.noFix(seconds: given, seen: 0)
        default:
            return error
        }
    }
}
