import CDBus
import HereWeatherCore
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The event loop shared by every waiter of a connection.
///
/// One waiting thread at a time (the poller) processes sd-bus's messages and polls the socket
/// with the lock released; the others sleep on the lock's condition. When the poller has read
/// messages it wakes them all at once: a reply it read for another thread is seen by that
/// thread now, not when its own wait would have ended (issue 22: 50 ms stalls). A thread that
/// sends a message, or whose wait is cancelled, raises `wakeDescriptor`, which the poller
/// polls beside the socket. When the poller's own wait is over it wakes the others, and one
/// of them takes the socket over.
extension DBusConnection {
    /// Processes incoming messages until `done` (checked with the lock held) is true, the
    /// deadline passes (`.timedOut`) or `flag` is raised (`.cancelled`).
    func pump(deadline: TransportDeadline, flag: CancelFlag?, until done: () -> Bool) throws(DBusError) {
        try lock.withLock { () throws(DBusError) in
            defer { lock.broadcast() }   // whoever waits on may take the socket over
            var sleptFullSlice = false
            while true {
                if done() {
                    if sleptFullSlice { stalledWakeUps.add(1, ordering: .relaxed) }
                    return
                }
                if flag?.isCancelled == true { throw DBusError.cancelled }
                guard !deadline.hasPassed else { throw DBusError.timedOut }
                if polling {
                    sleptFullSlice = !lock.wait(until: min(deadline, .after(Self.slice)))
                    continue
                }
                sleptFullSlice = try pollOnce(deadline: deadline, until: done)
            }
        }
    }

    /// As the poller (lock held): processes what arrived, one message at a time, then polls
    /// the socket and the wake-up descriptor with the lock released. Whether the poll ran its
    /// whole slice without either becoming ready.
    private func pollOnce(deadline: TransportDeadline, until done: () -> Bool) throws(DBusError) -> Bool {
        // One message at a time, checking after each: a flood of signals cannot keep a
        // waiter from seeing its answer, or its deadline.
        var processedAny = false
        while !done(), !deadline.hasPassed {
            let processed = hw_sd_bus_process(bus)
            guard processed >= 0 else { throw DBusError.noBus(reason: "the bus connection ended (\(SystemError.text(-processed)))") }
            if processed == 0 { break }
            processedAny = true
        }
        if processedAny { lock.broadcast() }
        if done() { return false }
        let remaining = deadline.remaining
        guard remaining > .zero else { return false }
        let descriptor = hw_sd_bus_get_fd(bus), events = hw_sd_bus_get_events(bus)
        guard descriptor >= 0, events >= 0 else { throw DBusError.noBus(reason: "the bus connection ended") }
        let milliseconds = Int32(max(1, min(remaining, Self.slice).wholeMilliseconds))
        var pollers = [pollfd(fd: descriptor, events: Int16(truncatingIfNeeded: events), revents: 0),
                       pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        let count: nfds_t = wakeDescriptor >= 0 ? 2 : 1
        polling = true
        let ready = lock.unlocked { poll(&pollers, count, milliseconds) }
        polling = false
        if wakeDescriptor >= 0, pollers[1].revents != 0 { hw_wake_drain(wakeDescriptor) }
        return ready == 0
    }

    /// Wakes every waiter: the poller through the descriptor, the others through the condition.
    func wake() {
        if wakeDescriptor >= 0 { hw_wake_raise(wakeDescriptor) }
        lock.withLock { lock.broadcast() }
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

    /// The reply's arguments, or its D-Bus error thrown as `.remote`; releases the reply.
    /// `.timedOut` when none arrived.
    func take() throws(DBusError) -> [DBusValue] {
        guard let reply else { throw DBusError.timedOut }
        self.reply = nil
        defer { hw_sd_bus_message_unref(reply) }
        if let name = hw_sd_bus_message_error_name(reply) {
            throw DBusError.remote(name: String(cString: name),
                                   message: hw_sd_bus_message_error_text(reply).map { String(cString: $0) } ?? "")
        }
        return try DBusMessage.readAll(reply)
    }

    deinit { if let reply { hw_sd_bus_message_unref(reply) } }
}

func replyArrived(_ message: OpaquePointer?, _ context: UnsafeMutableRawPointer?,
                  _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    guard let message, let context else { return 0 }
    let pending = Unmanaged<PendingReply>.fromOpaque(context).takeUnretainedValue()
    if pending.reply == nil { pending.reply = hw_sd_bus_message_ref(message) }
    return 1
}

func signalArrived(_ message: OpaquePointer?, _ context: UnsafeMutableRawPointer?,
                   _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    guard let message, let context else { return 0 }
    Unmanaged<DBusSignalSubscription>.fromOpaque(context).takeUnretainedValue().receive(message)
    return 0
}

func matchInstalled(_ message: OpaquePointer?, _ context: UnsafeMutableRawPointer?,
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
