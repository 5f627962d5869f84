#if canImport(Glibc)
import Glibc
#endif
import HereWeatherCore
import HereWeatherDBus

/// The access points NetworkManager sees, read over the system D-Bus (no root needed).
///
/// `GetDevices`, where `DeviceType` 2 is Wi-Fi; each Wi-Fi device's `GetAllAccessPoints`;
/// each access point's `HwAddress`, `Strength`, `Frequency`, `Ssid` and `LastSeen`
/// (seconds on CLOCK_BOOTTIME, turned into an age here). When the newest access point was
/// last seen more than five minutes ago, it asks for a scan (`RequestScan`) and waits for
/// `LastScan` to change (its `PropertiesChanged` signal, or the property itself, read every
/// half second), leaving part of the time for the request that follows; a scan that does
/// not finish in time leaves the old list, with its true ages. That wait reads the run's
/// clock between real slices of at most half a second, so a test clock decides when it ends.
///
/// The access points' properties are read in batches from one thread (`DBusConnection.callEach`),
/// under dbus-daemon's limit of pending replies: ten thousand access points cost one thread, and
/// every one of them is read, so the strongest are chosen from all (`NetworkManagerValues`).
///
/// NetworkManager not running, no Wi-Fi device and Wi-Fi switched off (in software or by
/// a hardware switch) are distinct `WiFiError`s; so is an answer of the wrong type, and reads
/// that all failed.
public struct NetworkManagerScanner: AccessPointScanner {
    static let service = "org.freedesktop.NetworkManager"
    static let root = "/org/freedesktop/NetworkManager"
    static let deviceInterface = "org.freedesktop.NetworkManager.Device"
    static let wirelessInterface = "org.freedesktop.NetworkManager.Device.Wireless"
    static let accessPointInterface = "org.freedesktop.NetworkManager.AccessPoint"
    /// NetworkManager's `DeviceType` for Wi-Fi.
    static let wifiDeviceType: UInt32 = 2
    /// A list whose newest access point is older than this is rescanned.
    static let staleAfter = 300
    /// The presence check's bound (it normally takes a few milliseconds).
    public static let presenceBound: Duration = .milliseconds(250)

    private let connect: @Sendable () throws -> DBusConnection
    /// The run's clock: how long a scan is waited for (the deadlines are its instants).
    private let clock: any RunClock
    /// How long the presence check may take (`presenceBound`; tests on a loaded machine give
    /// a stand-in that answers more).
    private let presenceBound: Duration

    /// NetworkManager on the system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket).
    public init(clock: any RunClock = ContinuousClock()) {
        connect = { try DBusConnection.system() }
        self.clock = clock
        presenceBound = Self.presenceBound
    }

    /// NetworkManager on the bus at `address` (a private bus).
    public init(address: String, clock: any RunClock = ContinuousClock(), presenceBound: Duration = Self.presenceBound) {
        connect = { try DBusConnection.connect(address: address) }
        self.clock = clock
        self.presenceBound = presenceBound
    }

    public func isPresent() async -> Bool {
        let deadline = ContinuousClock.now + presenceBound
        guard let connection = try? connect(), (try? await isRunning(connection, deadline: deadline)) == true else { return false }
        let devices = try? await wifiDevices(connection, deadline: deadline)
        return devices?.isEmpty == false
    }

    /// Whether NetworkManager owns its name (asked without holding a cooperative thread).
    private func isRunning(_ connection: DBusConnection, deadline: ContinuousClock.Instant) async throws -> Bool {
        let reply = try await connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                              interface: "org.freedesktop.DBus", member: "NameHasOwner",
                                              arguments: [.string(Self.service)], deadline: deadline)
        return reply.first?.bool == true
    }

    public func accessPoints(deadline: ContinuousClock.Instant) async throws -> [AccessPoint] {
        do {
            return try await scan(deadline: deadline)
        } catch let error as DBusError {
            switch error {
            case .cancelled: throw CancellationError()
            case .timedOut: throw WiFiError.scanFailed(reason: "NetworkManager did not answer in time.")
            case _ where error.isServiceUnknown: throw WiFiError.noNetworkManager
            default: throw WiFiError.scanFailed(reason: error.message)
            }
        }
    }

    private func scan(deadline: ContinuousClock.Instant) async throws -> [AccessPoint] {
        let connection = try connect()
        guard try await isRunning(connection, deadline: deadline) else { throw WiFiError.noNetworkManager }
        let devices = try await wifiDevices(connection, deadline: deadline)
        guard !devices.isEmpty else { throw WiFiError.noWiFiDevice }
        let manager = try await connection.properties(destination: Self.service, path: Self.root,
                                                      interface: Self.service, deadline: deadline)
        if manager["WirelessHardwareEnabled"]?.bool == false { throw WiFiError.wifiOff(hardwareSwitch: true) }
        if manager["WirelessEnabled"]?.bool == false { throw WiFiError.wifiOff(hardwareSwitch: false) }
        let listed = try await accessPoints(connection, devices: devices, deadline: deadline)
        guard Self.isStale(listed) else { return listed }
        let scanned: Bool
        do {
            scanned = try await rescan(connection, devices: devices, deadline: Self.scanDeadline(deadline, now: clock.now))
        } catch DBusError.timedOut {
            scanned = false   // NetworkManager did not answer the scan request in time: the list still serves
        }
        return scanned ? try await accessPoints(connection, devices: devices, deadline: deadline) : listed
    }

    /// Whether the list needs a scan: empty, or its newest access point older than `staleAfter`.
    static func isStale(_ accessPoints: [AccessPoint]) -> Bool {
        guard let newest = accessPoints.compactMap(\.age).min() else { return true }
        return newest > staleAfter * 1000
    }

    /// How long a scan may take: the time left, less a share (at most 2 s) for the request.
    static func scanDeadline(_ deadline: ContinuousClock.Instant, now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        let remaining = now.duration(to: deadline)
        return deadline - min(.seconds(2), remaining / 2)
    }

    /// The Wi-Fi devices' object paths.
    private func wifiDevices(_ connection: DBusConnection, deadline: ContinuousClock.Instant) async throws -> [String] {
        let reply = try await connection.call(destination: Self.service, path: Self.root, interface: Self.service,
                                              member: "GetDevices", deadline: deadline)
        let paths = try NetworkManagerValues.objectPaths(reply, of: "GetDevices")
        let types = try await connection.callEach(paths.map { path in
            Self.propertyCall(path: path, arguments: [.string(Self.deviceInterface), .string("DeviceType")])
        }, deadline: deadline)
        return zip(paths, types).filter { (try? $0.1.get().first?.uint32) == Self.wifiDeviceType }.map(\.0)
    }

    /// Every access point of `devices`, with its age now. NetworkManager (1.22 and later, as
    /// libnm does) gives every object's properties in one answer of its ObjectManager at
    /// `/org/freedesktop`; without one, and for each access point its answer leaves out (an
    /// ObjectManager that lists none of the paths GetAllAccessPoints gave), the properties are
    /// read one by one (`GetAll`), in batches from one thread (`callEach`), however many.
    private func accessPoints(_ connection: DBusConnection, devices: [String],
                              deadline: ContinuousClock.Instant) async throws -> [AccessPoint] {
        var lists: [[String]] = []
        for device in devices {
            let reply = try await connection.call(destination: Self.service, path: device, interface: Self.wirelessInterface,
                                                  member: "GetAllAccessPoints", deadline: deadline)
            lists.append(try NetworkManagerValues.objectPaths(reply, of: "GetAllAccessPoints"))
        }
        let paths = lists.flatMap { $0 }
        let objects = try await managedObjects(connection, deadline: deadline)
        var replies: [Result<[DBusValue], DBusError>?] = paths.map { path in
            objects?[path]?.dictionary?[Self.accessPointInterface].map { .success([$0]) }
        }
        let missing = replies.indices.filter { replies[$0] == nil }
        if !missing.isEmpty {
            let read = try await connection.callEach(missing.map { index in
                Self.propertyCall(path: paths[index], member: "GetAll", arguments: [.string(Self.accessPointInterface)])
            }, deadline: deadline)
            for (index, reply) in zip(missing, read) { replies[index] = reply }
        }
        return try NetworkManagerValues.accessPoints(from: replies.compactMap { $0 }, bootSeconds: BootClock.seconds())
    }

    /// Every object's interfaces and properties from NetworkManager's ObjectManager, by path;
    /// nil when it has none (an error reply, or an answer of another shape).
    private func managedObjects(_ connection: DBusConnection, deadline: ContinuousClock.Instant) async throws -> [String: DBusValue]? {
        do {
            let reply = try await connection.call(destination: Self.service, path: "/org/freedesktop",
                                                  interface: "org.freedesktop.DBus.ObjectManager", member: "GetManagedObjects",
                                                  deadline: deadline)
            return reply.first?.dictionary
        } catch DBusError.remote {
            return nil
        }
    }

    /// A call on NetworkManager's `org.freedesktop.DBus.Properties` (`Get` by default).
    static func propertyCall(path: String, member: String = "Get", arguments: [DBusValue]) -> DBusCall {
        DBusCall(destination: service, path: path, interface: "org.freedesktop.DBus.Properties", member: member, arguments: arguments)
    }

    /// Asks every device for a scan and waits until one reports a new `LastScan`, or `deadline`.
    /// Whether a scan finished.
    private func rescan(_ connection: DBusConnection, devices: [String], deadline: ContinuousClock.Instant) async throws -> Bool {
        let changes = try connection.subscribe(sender: Self.service, path: nil, interface: "org.freedesktop.DBus.Properties",
                                               member: "PropertiesChanged")
        defer { changes.cancel() }
        let before = try await lastScans(connection, devices: devices, deadline: deadline)
        // The requests' answers are not waited for: one NetworkManager never answers would hold
        // the run on real time until `deadline`, where the wait below reads the run's clock. A
        // refused request (NotAllowed, right after another scan) leaves that scan to wait for.
        let requests = Task {
            for device in devices {
                _ = try? await connection.call(destination: Self.service, path: device, interface: Self.wirelessInterface,
                                               member: "RequestScan", arguments: [.dictionary([:])], deadline: deadline)
            }
        }
        defer { requests.cancel() }
        while clock.now < deadline {
            do {
                let slice = min(clock.now.duration(to: deadline), .milliseconds(500))
                let signal = try await changes.next(deadline: .now + slice)
                if signal.first?.string == Self.wirelessInterface, signal.dropFirst().first?.dictionary?["LastScan"] != nil {
                    return true
                }
            } catch DBusError.timedOut {
                // No signal yet: read LastScan itself, in case the signal went elsewhere.
                guard clock.now < deadline else { break }
                if let now = try? await lastScans(connection, devices: devices, deadline: deadline), now != before { return true }
            }
        }
        return false
    }

    private func lastScans(_ connection: DBusConnection, devices: [String], deadline: ContinuousClock.Instant) async throws -> [Int64] {
        var values: [Int64] = []
        for device in devices {
            let value = try await connection.property(destination: Self.service, path: device, interface: Self.wirelessInterface,
                                                      name: "LastScan", deadline: deadline)
            values.append(value.integer ?? -1)
        }
        return values
    }
}

/// CLOCK_BOOTTIME, the clock of NetworkManager's `LastSeen` and `LastScan`.
enum BootClock {
    static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
