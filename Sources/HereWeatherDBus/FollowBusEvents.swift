import HereWeatherCore

extension FollowEventSource {
    /// What `--follow` hears on the system bus (`DBUS_SYSTEM_BUS_ADDRESS`, as every D-Bus part
    /// here): logind's `PrepareForSleep(true/false)` as `.sleeping` and `.resumed`, and
    /// NetworkManager's State, Connectivity and PrimaryConnection (read once, then from its
    /// `PropertiesChanged`) as `.network(online:)` and `.connectionChanged`.
    ///
    /// One thread of its own waits on a connection of its own, blocked in `poll` with no
    /// timeout (`DBusConnection.listen`): an idle bus wakes nothing. What it cannot subscribe
    /// to (no bus, no logind, no NetworkManager) it says in one line each through `log`
    /// (`--verbose`), and following goes on without it, on timers and signals.
    public static let systemBus = FollowEventSource { log in
        AsyncStream { continuation in
            let started = BlockingCall.startThread {
                FollowBusWatch(log: log) { continuation.yield($0) }.run()
                continuation.finish()
            }
            if !started { continuation.finish() }
        }
    }
}

/// The system bus's side of `FollowEventSource.systemBus`, on its thread.
struct FollowBusWatch {
    let log: @Sendable (String) -> Void
    let send: (FollowLoop.Event) -> Void

    static let logind = "org.freedesktop.login1"
    static let networkManager = "org.freedesktop.NetworkManager"
    static let managerPath = "/org/freedesktop/NetworkManager"
    /// How long the bus may take to answer the first questions (NetworkManager's state).
    static let answerBound: Duration = .seconds(2)

    func run() {
        let bus: DBusConnection
        do {
            bus = try DBusConnection.system()
        } catch {
            log("--follow: \(Self.text(error)) Sleep, resume and network changes go unnoticed: the weather is refreshed when its lifetime ends, and at once on SIGUSR1.")
            return
        }
        let sleep = subscribeToSleep(bus)
        var network = subscribeToNetwork(bus)
        guard sleep != nil || network != nil else { return }
        let ended = bus.listen {
            for arguments in sleep?.drain() ?? [] {
                guard let starting = arguments.first?.bool else { continue }
                send(starting ? .sleeping : .resumed)
            }
            if let subscription = network?.subscription {
                for arguments in subscription.drain() where arguments.first?.string == Self.networkManager {
                    for event in network?.state.update(arguments.dropFirst().first?.dictionary ?? [:]) ?? [] { send(event) }
                }
            }
            return true
        }
        if let ended { log("--follow: the system bus connection ended (\(Self.text(ended))); sleep, resume and network changes go unnoticed from now on.") }
    }

    /// logind's PrepareForSleep, or nil (said through `log`).
    private func subscribeToSleep(_ bus: DBusConnection) -> DBusSignalSubscription? {
        do {
            let subscription = try bus.subscribe(sender: Self.logind, path: "/org/freedesktop/login1",
                                                 interface: "org.freedesktop.login1.Manager", member: "PrepareForSleep")
            if try !bus.nameHasOwner(Self.logind) {
                log("--follow: logind (\(Self.logind)) is not on the system bus, so a resume from sleep goes unnoticed: the weather is refreshed when its lifetime ends, and at once on SIGUSR1.")
            }
            return subscription
        } catch {
            log("--follow: cannot subscribe to logind's PrepareForSleep: \(Self.text(error)) A resume from sleep goes unnoticed: the weather is refreshed when its lifetime ends, and at once on SIGUSR1.")
            return nil
        }
    }

    /// NetworkManager's PropertiesChanged and its state now (sent at once), or nil (said
    /// through `log`).
    private func subscribeToNetwork(_ bus: DBusConnection) -> (subscription: DBusSignalSubscription, state: NetworkState)? {
        let unnoticed = "Network changes go unnoticed, and after a resume the weather is retried after 5, 10 and 20 s."
        do {
            let subscription = try bus.subscribe(sender: Self.networkManager, path: Self.managerPath,
                                                 interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")
            let reply = try bus.callBlocking(destination: Self.networkManager, path: Self.managerPath,
                                             interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                                             arguments: [.string(Self.networkManager)],
                                             deadline: .after(Self.answerBound), flag: nil)
            var state = NetworkState()
            for event in state.update(reply.first?.dictionary ?? [:], first: true) { send(event) }
            return (subscription, state)
        } catch let error as DBusError where error.isServiceUnknown {
            log("--follow: NetworkManager (\(Self.networkManager)) is not on the system bus. \(unnoticed)")
        } catch {
            log("--follow: cannot follow NetworkManager's state: \(Self.text(error)) \(unnoticed)")
        }
        return nil
    }

    static func text(_ error: any Error) -> String {
        (error as? DBusError)?.message ?? "\(error)"
    }
}

/// NetworkManager's state as `--follow` reads it: online when State is 70 (connected
/// globally) or Connectivity is 4 (full); a new primary connection while online is a network
/// change (one that comes with the network coming up is that change already).
struct NetworkState {
    var state: Int64 = 0
    var connectivity: Int64 = 0
    var primary = "/"
    var online: Bool?

    /// The events a PropertiesChanged's (or GetAll's) values bring; `first`: the state read
    /// when following starts, sent whatever it is.
    mutating func update(_ values: [String: DBusValue], first: Bool = false) -> [FollowLoop.Event] {
        if let value = values["State"]?.integer { state = value }
        if let value = values["Connectivity"]?.integer { connectivity = value }
        let now = state == 70 || connectivity == 4
        var events: [FollowLoop.Event] = []
        let was = online
        if first || now != was { events.append(.network(online: now)) }
        online = now
        if let path = values["PrimaryConnection"]?.objectPath, path != primary {
            primary = path
            if !first, now, was == true, path != "/" { events.append(.connectionChanged) }
        }
        return events
    }
}
