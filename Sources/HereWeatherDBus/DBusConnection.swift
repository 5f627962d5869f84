import CDBus
#if canImport(Glibc)
import Glibc
#endif
import HereWeatherCore
import Synchronization

/// A connection to a D-Bus bus through sd-bus (libsystemd, opened on first use).
///
/// Calls are async and run on a thread of their own (`BlockingCall`), never on one of Swift's
/// few cooperative threads. Every wait is bounded by the caller's deadline and ends promptly
/// when the task is cancelled. Several calls and signal waits may share one connection at
/// once: one lock guards sd-bus, one waiting thread at a time polls the socket, and it wakes
/// the others as soon as it has read a message (`pump`). Dropping the connection closes it
/// without waiting for anything (a wedged bus daemon costs no time at the end of a run).
public final class DBusConnection: @unchecked Sendable {
    /// The sd-bus connection; touched only with `lock` held.
    let bus: OpaquePointer
    let lock = BusLock()
    /// Raised to wake the thread that polls the socket (`wake`); -1 if no eventfd could be had.
    let wakeDescriptor: Int32
    /// Whether a thread is polling the socket (the others wait on `lock`); touched with `lock` held.
    var polling = false
    /// How many waits ended by their poll slice with the waiter's message already read by
    /// another thread (a lost wake-up: that waiter slept for nothing). Zero unless a wake-up is missed.
    let stalledWakeUps = Atomic<Int>(0)
    /// The longest single wait, so a cancellation that no wake-up announces is seen promptly.
    static let slice: Duration = .milliseconds(50)
    /// The bound of the waits in the calls without a deadline (`nameHasOwner`, `subscribe`).
    static let shortWait: Duration = .milliseconds(500)

    private init(bus: OpaquePointer) {
        self.bus = bus
        wakeDescriptor = hw_wake_open()
    }

    deinit {
        hw_sd_bus_close_unref(bus)
        if wakeDescriptor >= 0 { close(wakeDescriptor) }
    }

    /// The system bus (honours DBUS_SYSTEM_BUS_ADDRESS).
    public static func system() throws -> DBusConnection {
        guard hw_sd_is_available() else { throw DBusError.libraryMissing }
        var bus: OpaquePointer?
        let result = hw_sd_bus_open_system(&bus)
        guard result >= 0, let bus else { throw DBusError.noBus(reason: SystemError.text(-result)) }
        return DBusConnection(bus: bus)
    }

    /// The bus at `address` (`unix:path=/run/dbus/system_bus_socket`), for a private bus.
    public static func connect(address: String) throws -> DBusConnection {
        guard hw_sd_is_available() else { throw DBusError.libraryMissing }
        var bus: OpaquePointer?
        let result = hw_sd_bus_open_address(&bus, address)
        guard result >= 0, let bus else { throw DBusError.noBus(reason: "\(address): \(SystemError.text(-result))") }
        return DBusConnection(bus: bus)
    }

    /// Whether `name` has an owner on the bus (the service is running). Waits at most 0.5 s.
    public func nameHasOwner(_ name: String) throws -> Bool {
        let reply = try callBlocking(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                     interface: "org.freedesktop.DBus", member: "NameHasOwner",
                                     arguments: [.string(name)], deadline: .after(Self.shortWait), flag: nil)
        guard let owned = reply.first?.bool else { throw DBusError.typeMismatch("NameHasOwner to answer a boolean") }
        return owned
    }

    /// Calls a method and returns its reply's arguments; a D-Bus error reply is thrown as `.remote`.
    public func call(destination: String, path: String, interface: String, member: String,
                     arguments: [DBusValue] = [], deadline: TransportDeadline) async throws -> [DBusValue] {
        if Task.isCancelled { throw DBusError.cancelled }
        let flag = CancelFlag()
        return try await BlockingCall.run({
            Result { () throws(DBusError) in
                try self.callBlocking(destination: destination, path: path, interface: interface, member: member,
                                      arguments: arguments, deadline: deadline, flag: flag)
            }.mapError { $0 as Error }
        }, onCancel: { flag.cancel(); self.wake() })
    }

    /// One property (`org.freedesktop.DBus.Properties.Get`), without its variant wrapper.
    public func property(destination: String, path: String, interface: String, name: String,
                         deadline: TransportDeadline) async throws -> DBusValue {
        let reply = try await call(destination: destination, path: path, interface: "org.freedesktop.DBus.Properties",
                                   member: "Get", arguments: [.string(interface), .string(name)], deadline: deadline)
        guard let value = reply.first else { throw DBusError.typeMismatch("Properties.Get to answer a value") }
        return value.unwrapped
    }

    /// Every property of `interface` (`org.freedesktop.DBus.Properties.GetAll`), without variant wrappers.
    public func properties(destination: String, path: String, interface: String,
                           deadline: TransportDeadline) async throws -> [String: DBusValue] {
        let reply = try await call(destination: destination, path: path, interface: "org.freedesktop.DBus.Properties",
                                   member: "GetAll", arguments: [.string(interface)], deadline: deadline)
        guard let values = reply.first?.dictionary else { throw DBusError.typeMismatch("Properties.GetAll to answer a{sv}") }
        return values.mapValues(\.unwrapped)
    }

    /// Sets one property (`org.freedesktop.DBus.Properties.Set`); `value` is wrapped in a variant.
    public func setProperty(destination: String, path: String, interface: String, name: String,
                            value: DBusValue, deadline: TransportDeadline) async throws {
        let wrapped: DBusValue = if case .variant = value { value } else { .variant(value) }
        _ = try await call(destination: destination, path: path, interface: "org.freedesktop.DBus.Properties",
                           member: "Set", arguments: [.string(interface), .string(name), wrapped], deadline: deadline)
    }

    /// Subscribes before the call that triggers the signal; `next` waits for one.
    ///
    /// Returns once the bus has confirmed the match (at most 0.5 s), so a signal sent after
    /// this returns is never missed. `nil` for `sender` or `path` matches any; `argument0`
    /// matches the signal's first argument, a string (NameOwnerChanged's name: the bus daemon
    /// then sends only that name's changes, not every connection's coming and going).
    public func subscribe(sender: String?, path: String?, interface: String, member: String,
                          argument0: String? = nil) throws -> DBusSignalSubscription {
        var rule = "type='signal'"
        if let sender { rule += ",sender='\(sender)'" }
        if let path { rule += ",path='\(path)'" }
        rule += ",interface='\(interface)',member='\(member)'"
        if let argument0 { rule += ",arg0='\(argument0)'" }
        let subscription = DBusSignalSubscription(connection: self)
        let context = Unmanaged.passUnretained(subscription).toOpaque()
        try withBus { bus throws(DBusError) in
            var slot: OpaquePointer?
            let result = rule.withCString { hw_sd_bus_add_match_async(bus, &slot, $0, signalArrived, matchInstalled, context) }
            guard result >= 0 else {
                throw DBusError.remote(name: "org.freedesktop.DBus.Error.MatchRuleInvalid", message: "\(rule): \(SystemError.text(-result))")
            }
            subscription.slot = slot
        }
        do {
            try pump(deadline: .after(Self.shortWait), flag: nil) { subscription.installed != nil }
        } catch {
            subscription.cancel()
            throw error
        }
        if case .failure(let error) = subscription.installed {
            subscription.cancel()
            throw error
        }
        return subscription
    }

    /// Runs `body` with the sd-bus connection, holding the lock.
    func withBus<T, E: Error>(_ body: (OpaquePointer) throws(E) -> T) throws(E) -> T {
        try lock.withLock { () throws(E) -> T in try body(bus) }
    }

    /// A method call on the calling thread, waiting until `deadline`.
    func callBlocking(destination: String, path: String, interface: String, member: String,
                      arguments: [DBusValue], deadline: TransportDeadline, flag: CancelFlag?) throws(DBusError) -> [DBusValue] {
        let pending = PendingReply()
        let call = DBusCall(destination: destination, path: path, interface: interface, member: member, arguments: arguments)
        let slot = try withBus { bus throws(DBusError) -> OpaquePointer? in try send(call, to: pending, deadline: deadline) }
        defer { withBus { _ in hw_sd_bus_slot_unref(slot) } }
        try withExtendedLifetime(pending) { () throws(DBusError) in
            try pump(deadline: deadline, flag: flag) { pending.reply != nil }
        }
        return try withBus { _ throws(DBusError) in try pending.take() }
    }

    /// Sends `call` (with the lock held), its reply to land in `pending`; the slot, which
    /// cancels the call when released. Wakes the polling thread, which may have to write it.
    func send(_ call: DBusCall, to pending: PendingReply, deadline: TransportDeadline) throws(DBusError) -> OpaquePointer? {
        var message: OpaquePointer?
        let created = hw_sd_bus_message_new_method_call(bus, &message, call.destination, call.path, call.interface, call.member)
        guard created >= 0, let message else {
            throw DBusError.remote(name: "org.freedesktop.DBus.Error.InvalidArgs",
                                   message: "cannot call \(call.interface).\(call.member) on \(call.destination) \(call.path): \(SystemError.text(-created))")
        }
        defer { hw_sd_bus_message_unref(message) }
        try DBusMessage.append(call.arguments, to: message)
        // sd-bus's own timeout comes a second after ours, so ours is the one that fires.
        let remaining = max(.zero, deadline.remaining) + .seconds(1)
        var slot: OpaquePointer?
        let context = Unmanaged.passUnretained(pending).toOpaque()
        let sent = hw_sd_bus_call_async(bus, &slot, message, replyArrived, context, microseconds(remaining))
        guard sent >= 0 else { throw DBusError.noBus(reason: SystemError.text(-sent)) }
        if wakeDescriptor >= 0 { hw_wake_raise(wakeDescriptor) }
        return slot
    }

    private func microseconds(_ duration: Duration) -> UInt64 {
        UInt64(duration.components.seconds) * 1_000_000 + UInt64(duration.components.attoseconds / 1_000_000_000_000)
    }
}
