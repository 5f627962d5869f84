import CDBus
#if canImport(Glibc)
import Glibc
#endif
import HereWeatherCore
import Synchronization

/// A connection to a D-Bus bus through sd-bus (libsystemd, opened on first use).
///
/// Calls are async and run on a thread of their own (`BlockingCall`), never on one of Swift's
/// few cooperative threads. Every wait is bounded by the caller's deadline and polls in
/// slices of at most 50 ms, so cancelling the task ends it promptly. Several calls and
/// signal waits may share one connection at once: one lock guards sd-bus, which is released
/// while the socket is polled, and whichever waiter reads a message hands it to its owner.
public final class DBusConnection: @unchecked Sendable {
    /// The sd-bus connection; touched only with `lock` held.
    private let bus: OpaquePointer
    private let lock = Mutex(())
    /// The longest single poll of the socket, so cancellation is seen promptly.
    static let slice: Duration = .milliseconds(50)
    /// The bound of the waits in the calls without a deadline (`nameHasOwner`, `subscribe`).
    static let shortWait: Duration = .milliseconds(500)

    private init(bus: OpaquePointer) { self.bus = bus }

    deinit { hw_sd_bus_close_unref(bus) }

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
                                     arguments: [.string(name)], deadline: .now + Self.shortWait, flag: nil)
        guard let owned = reply.first?.bool else { throw DBusError.typeMismatch("NameHasOwner to answer a boolean") }
        return owned
    }

    /// Calls a method and returns its reply's arguments; a D-Bus error reply is thrown as `.remote`.
    public func call(destination: String, path: String, interface: String, member: String,
                     arguments: [DBusValue] = [], deadline: ContinuousClock.Instant) async throws -> [DBusValue] {
        if Task.isCancelled { throw DBusError.cancelled }
        let flag = CancelFlag()
        return try await BlockingCall.run({
            Result { () throws(DBusError) in
                try self.callBlocking(destination: destination, path: path, interface: interface, member: member,
                                      arguments: arguments, deadline: deadline, flag: flag)
            }.mapError { $0 as Error }
        }, onCancel: { flag.cancel() })
    }

    /// One property (`org.freedesktop.DBus.Properties.Get`), without its variant wrapper.
    public func property(destination: String, path: String, interface: String, name: String,
                         deadline: ContinuousClock.Instant) async throws -> DBusValue {
        let reply = try await call(destination: destination, path: path, interface: "org.freedesktop.DBus.Properties",
                                   member: "Get", arguments: [.string(interface), .string(name)], deadline: deadline)
        guard let value = reply.first else { throw DBusError.typeMismatch("Properties.Get to answer a value") }
        return value.unwrapped
    }

    /// Every property of `interface` (`org.freedesktop.DBus.Properties.GetAll`), without variant wrappers.
    public func properties(destination: String, path: String, interface: String,
                           deadline: ContinuousClock.Instant) async throws -> [String: DBusValue] {
        let reply = try await call(destination: destination, path: path, interface: "org.freedesktop.DBus.Properties",
                                   member: "GetAll", arguments: [.string(interface)], deadline: deadline)
        guard let values = reply.first?.dictionary else { throw DBusError.typeMismatch("Properties.GetAll to answer a{sv}") }
        return values.mapValues(\.unwrapped)
    }

    /// Sets one property (`org.freedesktop.DBus.Properties.Set`); `value` is wrapped in a variant.
    public func setProperty(destination: String, path: String, interface: String, name: String,
                            value: DBusValue, deadline: ContinuousClock.Instant) async throws {
        let wrapped: DBusValue = if case .variant = value { value } else { .variant(value) }
        _ = try await call(destination: destination, path: path, interface: "org.freedesktop.DBus.Properties",
                           member: "Set", arguments: [.string(interface), .string(name), wrapped], deadline: deadline)
    }

    /// Subscribes before the call that triggers the signal; `next` waits for one.
    ///
    /// Returns once the bus has confirmed the match (at most 0.5 s), so a signal sent after
    /// this returns is never missed. `nil` for `sender` or `path` matches any.
    public func subscribe(sender: String?, path: String?, interface: String, member: String) throws -> DBusSignalSubscription {
        var rule = "type='signal'"
        if let sender { rule += ",sender='\(sender)'" }
        if let path { rule += ",path='\(path)'" }
        rule += ",interface='\(interface)',member='\(member)'"
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
            try pump(deadline: .now + Self.shortWait, flag: nil) { subscription.installed != nil }
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

    // MARK: The event loop

    /// Runs `body` with the sd-bus connection, holding the lock.
    func withBus<T>(_ body: (OpaquePointer) throws(DBusError) -> T) throws(DBusError) -> T {
        try lock.withLock { _ throws(DBusError) in try body(bus) }
    }

    /// Processes incoming messages until `done` (checked with the lock held) is true, the
    /// deadline passes (`.timedOut`) or `flag` is raised (`.cancelled`).
    func pump(deadline: ContinuousClock.Instant, flag: CancelFlag?, until done: () -> Bool) throws(DBusError) {
        while true {
            let (finished, descriptor, events) = try withBus { bus throws(DBusError) -> (Bool, Int32, Int32) in
                // One message at a time, checking after each: a flood of signals cannot keep
                // a waiter from seeing its answer, or its deadline.
                while !done(), ContinuousClock.now < deadline {
                    let processed = hw_sd_bus_process(bus)
                    guard processed >= 0 else { throw DBusError.noBus(reason: "the bus connection ended (\(SystemError.text(-processed)))") }
                    if processed == 0 { break }
                }
                if done() { return (true, 0, 0) }
                return (false, hw_sd_bus_get_fd(bus), hw_sd_bus_get_events(bus))
            }
            if finished { return }
            if flag?.isCancelled == true { throw DBusError.cancelled }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { throw DBusError.timedOut }
            guard descriptor >= 0, events >= 0 else { throw DBusError.noBus(reason: "the bus connection ended") }
            let wait = min(remaining, Self.slice)
            var poller = pollfd(fd: descriptor, events: Int16(truncatingIfNeeded: events), revents: 0)
            _ = poll(&poller, 1, Int32(max(1, wait.wholeMilliseconds)))
        }
    }

    /// A method call on the calling thread, waiting until `deadline`.
    func callBlocking(destination: String, path: String, interface: String, member: String,
                      arguments: [DBusValue], deadline: ContinuousClock.Instant, flag: CancelFlag?) throws(DBusError) -> [DBusValue] {
        let pending = PendingReply()
        let context = Unmanaged.passUnretained(pending).toOpaque()
        let slot = try withBus { bus throws(DBusError) -> OpaquePointer? in
            var message: OpaquePointer?
            let created = hw_sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
            guard created >= 0, let message else {
                throw DBusError.remote(name: "org.freedesktop.DBus.Error.InvalidArgs",
                                       message: "cannot call \(interface).\(member) on \(destination) \(path): \(SystemError.text(-created))")
            }
            defer { hw_sd_bus_message_unref(message) }
            try DBusMessage.append(arguments, to: message)
            // sd-bus's own timeout comes a second after ours, so ours is the one that fires.
            let remaining = max(.zero, ContinuousClock.now.duration(to: deadline)) + .seconds(1)
            var slot: OpaquePointer?
            let sent = hw_sd_bus_call_async(bus, &slot, message, replyArrived, context, microseconds(remaining))
            guard sent >= 0 else { throw DBusError.noBus(reason: SystemError.text(-sent)) }
            return slot
        }
        defer { lock.withLock { _ in hw_sd_bus_slot_unref(slot) } }
        try withExtendedLifetime(pending) { () throws(DBusError) in
            try pump(deadline: deadline, flag: flag) { pending.reply != nil }
        }
        guard let reply = pending.reply else { throw DBusError.timedOut }
        defer { hw_sd_bus_message_unref(reply) }
        if let name = hw_sd_bus_message_error_name(reply) {
            throw DBusError.remote(name: String(cString: name),
                                   message: hw_sd_bus_message_error_text(reply).map { String(cString: $0) } ?? "")
        }
        return try DBusMessage.readAll(reply)
    }

    private func microseconds(_ duration: Duration) -> UInt64 {
        UInt64(duration.components.seconds) * 1_000_000 + UInt64(duration.components.attoseconds / 1_000_000_000_000)
    }
}

/// Set by `onCancel`, read by the waiting thread.
final class CancelFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    func cancel() { raised.store(true, ordering: .relaxed) }
    var isCancelled: Bool { raised.load(ordering: .relaxed) }
}

/// Where sd-bus's callback leaves a method's reply; read and written with the connection's lock held.
final class PendingReply: @unchecked Sendable {
    /// A reference the reader releases.
    var reply: OpaquePointer?
}

private func replyArrived(_ message: OpaquePointer?, _ context: UnsafeMutableRawPointer?,
                          _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    guard let message, let context else { return 0 }
    let pending = Unmanaged<PendingReply>.fromOpaque(context).takeUnretainedValue()
    if pending.reply == nil { pending.reply = hw_sd_bus_message_ref(message) }
    return 1
}

private func signalArrived(_ message: OpaquePointer?, _ context: UnsafeMutableRawPointer?,
                           _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    guard let message, let context else { return 0 }
    Unmanaged<DBusSignalSubscription>.fromOpaque(context).takeUnretainedValue().receive(message)
    return 0
}

private func matchInstalled(_ message: OpaquePointer?, _ context: UnsafeMutableRawPointer?,
                            _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    guard let message, let context else { return 0 }
    let subscription = Unmanaged<DBusSignalSubscription>.fromOpaque(context).takeUnretainedValue()
    if let name = hw_sd_bus_message_error_name(message) {
        let text = hw_sd_bus_message_error_text(message).map { String(cString: $0) } ?? ""
        subscription.installed = .failure(.remote(name: String(cString: name), message: text))
    } else {
        subscription.installed = .success(())
    }
    return 1
}

/// `strerror` text for an errno value.
enum SystemError {
    static func text(_ code: Int32) -> String {
        if code == ENOSYS { return "libsystemd lacks a function this program needs" }
        return String(cString: strerror(code))
    }
}
