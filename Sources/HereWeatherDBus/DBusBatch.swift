import CDBus
import HereWeatherCore

/// One method call, for `DBusConnection.callEach`.
public struct DBusCall: Sendable, Equatable {
    public var destination: String
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [DBusValue]

    public init(destination: String, path: String, interface: String, member: String, arguments: [DBusValue] = []) {
        self.destination = destination
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }
}

extension DBusConnection {
    /// dbus-daemon lets a connection await at most 128 replies at once (`max_replies_per_connection`
    /// on a system bus); calls beyond that fail at once. Half of it leaves room for the others.
    public static let batchWindow = 64

    /// Makes every one of `calls` from one thread, at most `window` awaiting their replies at
    /// once, and returns each one's outcome in order: its reply, its D-Bus error (`.remote`),
    /// or `.timedOut` for those the deadline left unanswered or unsent. Thrown: `.cancelled`,
    /// and `.noBus` when the connection ends.
    ///
    /// A thousand access points cost one thread and a few round trips' wait, not a thousand
    /// threads, and never exceed the daemon's limit.
    public func callEach(_ calls: [DBusCall], window: Int = DBusConnection.batchWindow,
                         deadline: TransportDeadline) async throws -> [Result<[DBusValue], DBusError>] {
        if Task.isCancelled { throw DBusError.cancelled }
        let flag = CancelFlag()
        return try await BlockingCall.run({
            Result { () throws(DBusError) in
                try self.callEachBlocking(calls, window: max(1, window), deadline: deadline, flag: flag)
            }.mapError { $0 as Error }
        }, onCancel: { flag.cancel(); self.wake() })
    }

    private func callEachBlocking(_ calls: [DBusCall], window: Int, deadline: TransportDeadline,
                                  flag: CancelFlag) throws(DBusError) -> [Result<[DBusValue], DBusError>] {
        var results = [Result<[DBusValue], DBusError>](repeating: .failure(.timedOut), count: calls.count)
        var waiting: [(index: Int, pending: PendingReply, slot: OpaquePointer?)] = []
        defer { withBus { _ in for call in waiting { hw_sd_bus_slot_unref(call.slot) } } }
        var next = 0
        while next < calls.count || !waiting.isEmpty {
            try withBus { _ throws(DBusError) in
                while waiting.count < window, next < calls.count {
                    let pending = PendingReply()
                    switch Result(catching: { () throws(DBusError) in try send(calls[next], to: pending, deadline: deadline) }) {
                    case .success(let slot): waiting.append((next, pending, slot))
                    case .failure(.noBus(let reason)): throw DBusError.noBus(reason: reason)
                    case .failure(let error): results[next] = .failure(error)
                    }
                    next += 1
                }
            }
            guard !waiting.isEmpty else { continue }
            do throws(DBusError) {
                try pump(deadline: deadline, flag: flag) { waiting.contains { $0.pending.reply != nil } }
            } catch .timedOut {
                return results   // the unanswered ones stay `.timedOut`
            }
            withBus { _ in
                waiting.removeAll { call in
                    guard call.pending.reply != nil else { return false }
                    results[call.index] = Result { () throws(DBusError) in try call.pending.take() }
                    hw_sd_bus_slot_unref(call.slot)
                    return true
                }
            }
        }
        return results
    }
}
