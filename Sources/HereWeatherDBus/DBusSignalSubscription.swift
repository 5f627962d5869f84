import CDBus
import HereWeatherCore

/// One signal match on a `DBusConnection`: the signals that arrived, in order, until cancelled.
public final class DBusSignalSubscription: @unchecked Sendable {
    private let connection: DBusConnection
    // The fields below are touched only with the connection's lock held (sd-bus calls
    // `receive` and the install callback from inside its event loop).
    /// The match; releasing it removes the match.
    var slot: OpaquePointer?
    /// The bus's answer to AddMatch; nil until it arrives.
    var installed: Result<Void, DBusError>?
    private var queue: [[DBusValue]] = []
    private var cancelled = false

    init(connection: DBusConnection) { self.connection = connection }

    deinit { cancel() }

    /// The next signal's arguments, waiting until `deadline` (`.timedOut`); `.cancelled` after `cancel()`.
    public func next(deadline: TransportDeadline) async throws -> [DBusValue] {
        if Task.isCancelled { throw DBusError.cancelled }
        let flag = CancelFlag()
        return try await BlockingCall.run({
            Result { () throws(DBusError) in try self.nextBlocking(deadline: deadline, flag: flag) }.mapError { $0 as Error }
        }, onCancel: { flag.cancel(); self.connection.wake() })
    }

    /// Removes the match; waiting `next` calls end with `.cancelled`.
    public func cancel() {
        connection.withBus { _ in
            cancelled = true
            if let slot { hw_sd_bus_slot_unref(slot) }
            slot = nil
        }
        connection.wake()
    }

    private func nextBlocking(deadline: TransportDeadline, flag: CancelFlag) throws(DBusError) -> [DBusValue] {
        try connection.pump(deadline: deadline, flag: flag) { !queue.isEmpty || cancelled }
        return try connection.withBus { _ throws(DBusError) in
            guard !queue.isEmpty else { throw DBusError.cancelled }
            return queue.removeFirst()
        }
    }

    /// The signals that arrived and were not taken yet, oldest first, without waiting (for
    /// `DBusConnection.listen`).
    public func drain() -> [[DBusValue]] {
        connection.withBus { _ in
            defer { queue = [] }
            return queue
        }
    }

    /// Called by sd-bus, with the connection's lock held, for each matching signal.
    func receive(_ message: OpaquePointer) {
        guard !cancelled, let arguments = try? DBusMessage.readAll(message) else { return }
        queue.append(arguments)
    }
}
