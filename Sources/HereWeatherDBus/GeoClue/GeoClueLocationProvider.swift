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
/// deadline and ends when the task is cancelled.
///
/// GeoClue 2.6 never answers GetClient while no agent has registered for the user (no error
/// at all); the deadline then ends the wait with `GeoClueError.noAgent`. A refusal (the app
/// not allowed in geoclue.conf, or by the agent) is `GeoClueError.notAllowed`.
public struct GeoClueLocationProvider: LocationSourceProvider {
    public var source: LocationSource { .geoclue }
    /// The bus; `DBusConnection.system` by default.
    let connect: @Sendable () throws -> DBusConnection

    public init(connect: @escaping @Sendable () throws -> DBusConnection = { try DBusConnection.system() }) {
        self.connect = connect
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
    public func isPresent() async -> Bool {
        guard let bus = try? connect() else { return false }
        if (try? bus.nameHasOwner(Self.service)) == true { return true }
        let reply = try? await bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                        interface: "org.freedesktop.DBus", member: "ListActivatableNames",
                                        deadline: .now + .milliseconds(200))
        return reply?.first?.strings?.contains(Self.service) ?? false
    }

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        // The time GeoClue is given, for "within N s" messages (`LocationRequest.secondsLeft`).
        let given = request.secondsLeft()
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
                                           deadline: request.deadline)
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
                                  name: "DesktopId", value: .string(Self.desktopID), deadline: request.deadline)
        let level = GeoClueAccuracyLevel(for: request.desiredAccuracy)
        try await bus.setProperty(destination: Self.service, path: client, interface: Self.clientInterface,
                                  name: "RequestedAccuracyLevel", value: .uint32(level.rawValue), deadline: request.deadline)
        // GeoClue sends LocationUpdated to this connection alone, from its unique name: match by path.
        let updates = try bus.subscribe(sender: nil, path: client, interface: Self.clientInterface, member: "LocationUpdated")
        defer { updates.cancel() }
        _ = try await bus.call(destination: Self.service, path: client, interface: Self.clientInterface,
                               member: "Start", deadline: request.deadline)
        var selector = FixSelector(request: request)
        while true {
            let arguments: [DBusValue]
            do {
                arguments = try await updates.next(deadline: request.deadline)
            } catch DBusError.timedOut {
                if let answer = selector.answerAtDeadline(now: Date()) { return answer }
                throw GeoClueError.noFix(seconds: given, seen: selector.fixesSeen)
            }
            guard arguments.count == 2, let path = arguments[1].objectPath else { continue }
            let properties = try await bus.properties(destination: Self.service, path: path,
                                                      interface: Self.locationInterface, deadline: request.deadline)
            guard let fix = Self.location(from: properties) else { continue }
            if let answer = selector.consider(fix, now: Date()) { return answer }
        }
    }

    /// Stops the client (best effort, with a short wait of its own: the request may be over).
    /// Runs in a task of its own, so that it is sent also when this task was cancelled.
    private func stop(_ bus: DBusConnection, client: String) async {
        await Task.detached {
            _ = try? await bus.call(destination: Self.service, path: client, interface: Self.clientInterface,
                                    member: "Stop", deadline: .now + .milliseconds(500))
        }.value
    }

    /// A fix from a Location object's properties, or nil without a real position.
    static func location(from properties: [String: DBusValue]) -> Location? {
        guard let latitude = properties["Latitude"]?.double, let longitude = properties["Longitude"]?.double else {
            return nil
        }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else { return nil }
        // Accuracy in metres; GeoClue's "unknown" altitude is -DBL_MAX.
        let accuracy = properties["Accuracy"]?.double.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        let altitude = properties["Altitude"]?.double.flatMap { $0.isFinite && $0 > -1e300 ? $0 : nil }
        // A live fix is current when it arrives; GeoClue's own time for it is kept beside.
        var location = Location(coordinate: coordinate, horizontalAccuracy: accuracy, timestamp: Date(),
                                source: .geoclue, altitude: altitude)
        if let parts = properties["Timestamp"]?.structure, parts.count == 2,
           let seconds = parts[0].integer, let microseconds = parts[1].integer, seconds > 0 {
            location.receiverTime = LocalTime.date(secondsSince1970: Double(seconds) + Double(microseconds) / 1e6)
        }
        return location
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
