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

extension GeoClueLocationProvider {
    /// GeoClue's moves while `--follow` runs: a client kept started (DesktopId, the accuracy
    /// level of the one-shot request, `DistanceThreshold` from `distanceThreshold(for:)`,
    /// `TimeThreshold` 0), and for each `LocationUpdated` its Location object read and judged
    /// as `requestLocation` judges fixes (`FixSelector.judgedWhileWatching`). The first update
    /// comes right after `Start`, with where GeoClue is now.
    ///
    /// A thread of its own waits on a connection of its own, blocked in `poll` with no timeout
    /// (`DBusConnection.listen`): no move, no wake-up. The stream's consumer ending sends
    /// `Stop` and closes the connection; GeoClue leaving the bus (NameOwnerChanged) or the
    /// connection ending ends the stream, with one note through `log`, as does a client that
    /// cannot be set up.
    public func watch(_ request: LocationRequest) -> LocationWatch? {
        let connect = self.connect, clock = self.clock
        return LocationWatch { log in
            AsyncStream { continuation in
                let stop = GeoClueWatchStop()
                continuation.onTermination = { _ in stop.raise() }
                let follower = GeoClueFollower(connect: connect, clock: clock, request: request, log: log, stop: stop,
                                               send: { continuation.yield($0) })
                let started = BlockingCall.startThread {
                    follower.run()
                    continuation.finish()
                }
                if !started {
                    log("--follow: no thread could be started to follow GeoClue (the system's limit on threads or memory); GeoClue's moves go unnoticed.")
                    continuation.finish()
                }
            }
        }
    }

    /// The move, in metres, below which GeoClue keeps a new position to itself
    /// (`DistanceThreshold`): the desired accuracy, and at most 1 km. A smaller move is within
    /// what a fix that meets the request may be off by anyway; 1 km is about the cell that
    /// `coordinate_decimals = 2` (the default) rounds to, and no weather service's grid is
    /// finer, so GeoClue stays quiet for moves inside it. `any` and `best` name no distance: 1 km.
    public static func distanceThreshold(for desired: DesiredAccuracy) -> UInt32 {
        switch desired {
        case .within(let metres): return UInt32(max(1, min(metres, maximumThreshold)).rounded())
        case .any, .best: return UInt32(maximumThreshold)
        }
    }

    /// The largest `DistanceThreshold`, in metres.
    static let maximumThreshold: Double = 1000
}

/// Ends a watch from the consumer's side: the thread's calls are cancelled and its listening
/// woken. The thread attaches its connection while it has one.
final class GeoClueWatchStop: Sendable {
    let flag = CancelFlag()
    private let bus = Mutex<DBusConnection?>(nil)

    /// Ends the watch (the stream's `onTermination`).
    func raise() {
        flag.cancel()
        bus.withLock { $0 }?.wake()
    }

    var isRaised: Bool { flag.isCancelled }

    /// Makes `raise` wake `connection`; false (and not kept) when the watch has already ended.
    func attach(_ connection: DBusConnection) -> Bool {
        bus.withLock {
            guard !isRaised else { return false }
            $0 = connection
            return true
        }
    }

    /// Lets the connection go (it closes when the thread drops it).
    func detach() { bus.withLock { $0 = nil } }
}

/// The thread's side of `GeoClueLocationProvider.watch`.
struct GeoClueFollower: Sendable {
    let connect: @Sendable () throws -> DBusConnection
    let clock: any RunClock
    let request: LocationRequest
    let log: @Sendable (String) -> Void
    let stop: GeoClueWatchStop
    let send: @Sendable (Location) -> Void

    typealias Provider = GeoClueLocationProvider
    /// The thread's name (`/proc/PID/task/TID/comm`), which tells it apart.
    static let threadName = "geoclue-watch"
    /// How long each of GeoClue's answers may take (setting the client up, reading a move).
    static let answerBound: Duration = .seconds(5)
    static let unnoticed = "GeoClue's moves go unnoticed."

    func run() {
        Self.nameThisThread()
        Self.leaveSignalsToOtherThreads()
        let bus: DBusConnection
        do {
            bus = try connect()
        } catch {
            return log("--follow: \(Self.text(error)) \(Self.unnoticed)")
        }
        guard stop.attach(bus) else { return }
        defer { stop.detach() }
        var client: String?
        do {
            let vanished = try bus.subscribe(sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                             interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
                                             argument0: Provider.service)
            let path = try getClient(bus)
            client = path
            let (owner, updates) = try startClient(bus, path: path)
            if let ended = follow(bus, updates: updates, vanished: vanished, owner: owner) {
                client = nil   // nobody left to stop it
                log("--follow: \(ended) \(Self.unnoticed)")
            }
        } catch DBusError.cancelled {
            // The consumer ended during the set-up.
        } catch {
            log("--follow: cannot follow GeoClue: \(Self.text(error)) \(Self.unnoticed)")
        }
        if let client {
            // Flag-less: the consumer's end raised the flag. GeoClue also stops a client whose
            // connection closes, so a short wait is enough.
            _ = try? bus.callBlocking(destination: Provider.service, path: client, interface: Provider.clientInterface,
                                      member: "Stop", arguments: [], deadline: .after(Provider.stopBound), flag: nil)
        }
    }

    /// Waits for moves until the consumer ends (nil) or GeoClue does (why, for the note).
    private func follow(_ bus: DBusConnection, updates: DBusSignalSubscription, vanished: DBusSignalSubscription,
                        owner: String) -> String? {
        var gone: String?
        let ended = bus.listen {
            if stop.isRaised { return false }
            let moves = updates.drain()
            for arguments in moves {
                guard arguments.count == 2, let path = arguments[1].objectPath else { continue }
                if let fix = read(bus, location: path) { send(fix) }
            }
            if !moves.isEmpty { bus.wake() }   // what arrived during the reads is off the socket
            if vanished.drain().contains(where: { $0.count == 3 && $0[1].string == owner }) {
                gone = "GeoClue (\(Provider.service)) left the system bus."
                return false
            }
            return !stop.isRaised
        }
        if let ended { return "the connection to GeoClue ended (\(Self.text(ended)))" }
        return gone
    }

    /// The move at `path`, judged; nil when it cannot be read or is not sent.
    private func read(_ bus: DBusConnection, location path: String) -> Location? {
        guard let reply = try? call(bus, path: path, interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                                    arguments: [.string(Provider.locationInterface)]),
              let properties = reply.first?.dictionary?.mapValues(\.unwrapped),
              let fix = Provider.location(from: properties, arrivedAt: clock.date) else { return nil }
        return FixSelector.judgedWhileWatching(fix, for: request, now: clock.date)
    }

    private func getClient(_ bus: DBusConnection) throws(DBusError) -> String {
        let reply = try call(bus, path: Provider.managerPath, interface: Provider.managerInterface, member: "GetClient")
        guard let path = reply.first?.objectPath else { throw .typeMismatch("GeoClue's GetClient to answer an object path") }
        return path
    }

    /// Sets the client up and starts it: GeoClue's unique name (the sender of its signals:
    /// any connection may send one with the client's path) and the subscription to its moves,
    /// made before `Start`.
    private func startClient(_ bus: DBusConnection, path: String) throws -> (String, DBusSignalSubscription) {
        let level = GeoClueAccuracyLevel(for: request.desiredAccuracy)
        try set(bus, client: path, "DesktopId", .string(Provider.desktopID))
        try set(bus, client: path, "RequestedAccuracyLevel", .uint32(level.rawValue))
        try set(bus, client: path, "DistanceThreshold", .uint32(Provider.distanceThreshold(for: request.desiredAccuracy)))
        do {
            try set(bus, client: path, "TimeThreshold", .uint32(0))
        } catch where error.concernsOneMessage {
            // A GeoClue without TimeThreshold (before 2.4) has no time limit to lift.
        }
        let reply = try bus.callBlocking(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                         interface: "org.freedesktop.DBus", member: "GetNameOwner",
                                         arguments: [.string(Provider.service)], deadline: .after(Self.answerBound),
                                         flag: stop.flag)
        guard let owner = reply.first?.string, owner.hasPrefix(":") else {
            throw DBusError.typeMismatch("the bus to name GeoClue's owner with a unique name")
        }
        let updates = try bus.subscribe(sender: owner, path: path, interface: Provider.clientInterface, member: "LocationUpdated")
        _ = try call(bus, path: path, interface: Provider.clientInterface, member: "Start")
        return (owner, updates)
    }

    private func set(_ bus: DBusConnection, client: String, _ name: String, _ value: DBusValue) throws(DBusError) {
        _ = try call(bus, path: client, interface: "org.freedesktop.DBus.Properties", member: "Set",
                     arguments: [.string(Provider.clientInterface), .string(name), .variant(value)])
    }

    private func call(_ bus: DBusConnection, path: String, interface: String, member: String,
                      arguments: [DBusValue] = []) throws(DBusError) -> [DBusValue] {
        try bus.callBlocking(destination: Provider.service, path: path, interface: interface, member: member,
                             arguments: arguments, deadline: .after(Self.answerBound), flag: stop.flag)
    }

    /// Names the calling thread `threadName` (its `comm`; pthread_setname_np needs _GNU_SOURCE,
    /// which Swift's Glibc module lacks). Best effort.
    static func nameThisThread() {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = threadName.withCString { write(descriptor, $0, strlen($0)) }
    }

    /// Blocks the signals a process is sent (SIGUSR1, SIGTERM, SIGCHLD ...) on this thread, so
    /// that another thread takes them: they never interrupt this one's wait, which would wake
    /// it for nothing. Faults stay deliverable.
    static func leaveSignalsToOtherThreads() {
        var signals = sigset_t()
        sigfillset(&signals)
        for fault in [SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS] { sigdelset(&signals, fault) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// What went wrong, as GeoClue's user reads it.
    static func text(_ error: any Error) -> String {
        if case DBusError.timedOut? = error as? DBusError {
            return "GeoClue did not answer within \(answerBound.components.seconds) s."
        }
        let translated = Provider.translating(error, given: answerBound.seconds)
        return (translated as? any UserFacingError)?.message ?? "\(translated)"
    }
}
