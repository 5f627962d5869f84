import Foundation
import Testing
import HereWeatherCore
@testable import HereWeatherDBus

/// The D-Bus layer (sd-bus through dlopen) against a real, private dbus-daemon.
@Suite struct DBusConnectionTests {
    @Test func callsTheBusDaemonsOwnMethods() async throws {
        let bus = try await PrivateBus.started()
        defer { bus.stop() }
        let connection = try DBusConnection.connect(address: bus.address)
        let deadline = TransportDeadline.after(.seconds(10))
        let names = try await connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                              interface: "org.freedesktop.DBus", member: "ListNames", deadline: deadline)
        #expect(names.first?.strings?.contains("org.freedesktop.DBus") == true)
        let id = try await connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                           interface: "org.freedesktop.DBus", member: "GetId", deadline: deadline)
        #expect(id.first?.string?.count == 32)
        #expect(try connection.nameHasOwner("org.freedesktop.DBus"))
        #expect(try !connection.nameHasOwner("org.freedesktop.NetworkManager"))
    }

    @Test func readsPropertiesWithoutTheirVariants() async throws {
        let bus = try await PrivateBus.started()
        defer { bus.stop() }
        let connection = try DBusConnection.connect(address: bus.address)
        let deadline = TransportDeadline.after(.seconds(10))
        // dbus-daemon 1.14 has two properties on its own object: Features and Interfaces (as).
        let interfaces = try await connection.property(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                       interface: "org.freedesktop.DBus", name: "Interfaces", deadline: deadline)
        #expect(interfaces.strings != nil)
        let all = try await connection.properties(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                  interface: "org.freedesktop.DBus", deadline: deadline)
        #expect(all["Features"]?.strings != nil)
        #expect(all["Interfaces"] == interfaces)
    }

    @Test func errorRepliesAreThrownWithTheirNames() async throws {
        let bus = try await PrivateBus.started()
        defer { bus.stop() }
        let connection = try DBusConnection.connect(address: bus.address)
        let deadline = TransportDeadline.after(.seconds(10))
        await #expect(throws: DBusError.self) {
            _ = try await connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                          interface: "org.freedesktop.DBus", member: "NoSuchMethod", deadline: deadline)
        }
        do {
            _ = try await connection.call(destination: "org.freedesktop.NetworkManager", path: "/org/freedesktop/NetworkManager",
                                          interface: "org.freedesktop.NetworkManager", member: "GetDevices", deadline: deadline)
            Issue.record("a call to a name nobody owns answered")
        } catch let error as DBusError {
            #expect(error.isServiceUnknown, "\(error)")
        }
    }

    @Test func aSignalSubscribedBeforeItsCauseArrives() async throws {
        let bus = try await PrivateBus.started()
        defer { bus.stop() }
        let connection = try DBusConnection.connect(address: bus.address)
        let subscription = try connection.subscribe(sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                    interface: "org.freedesktop.DBus", member: "NameOwnerChanged")
        defer { subscription.cancel() }
        // A second connection gets a unique name: NameOwnerChanged(name, "", name).
        let second = try DBusConnection.connect(address: bus.address)
        _ = try second.nameHasOwner("org.freedesktop.DBus")
        let arguments = try await subscription.next(deadline: .after(.seconds(10)))
        #expect(arguments.count == 3)
        #expect(arguments.first?.string?.hasPrefix(":") == true)
        #expect(arguments.dropFirst().first?.string == "")
    }

    @Test func aCallNobodyAnswersEndsAtTheDeadline() async throws {
        let bus = try await PrivateBus.started()
        defer { bus.stop() }
        let (caller, silent) = try await Self.silentService(on: bus)
        let started = ContinuousClock.now
        do {
            _ = try await caller.call(destination: Self.silentName, path: "/", interface: "com.example.Silent", member: "Wait",
                                      deadline: .after(.milliseconds(300)))
            Issue.record("a call nobody answers returned")
        } catch let error as DBusError {
            #expect(error == .timedOut)
        }
        #expect(ContinuousClock.now - started < .seconds(30), "ended, not hung")
        withExtendedLifetime(silent) {}
    }

    @Test func cancellingTheTaskEndsAWaitingCallAndAWaitingSignal() async throws {
        let bus = try await PrivateBus.started()
        defer { bus.stop() }
        let (caller, silent) = try await Self.silentService(on: bus)
        let started = ContinuousClock.now
        let call = Task {
            try await caller.call(destination: Self.silentName, path: "/", interface: "com.example.Silent", member: "Wait",
                                  deadline: .after(.seconds(60)))
        }
        let subscription = try caller.subscribe(sender: nil, path: nil, interface: "com.example.Silent", member: "Never")
        let signal = Task { try await subscription.next(deadline: .after(.seconds(60))) }
        try await Task.sleep(for: .milliseconds(200))
        call.cancel()
        signal.cancel()
        for outcome in [await call.result.map { _ in () }, await signal.result.map { _ in () }] {
            guard case .failure(let error) = outcome else { Issue.record("a cancelled wait answered"); continue }
            #expect(error as? DBusError == .cancelled)
        }
        #expect(ContinuousClock.now - started < .seconds(30), "ended, not hung")
        withExtendedLifetime(silent) {}
    }

    @Test func cancellingASubscriptionEndsItsWait() async throws {
        let bus = try await PrivateBus.started()
        defer { bus.stop() }
        let connection = try DBusConnection.connect(address: bus.address)
        let subscription = try connection.subscribe(sender: nil, path: nil, interface: "com.example.Silent", member: "Never")
        let waiting = Task { try await subscription.next(deadline: .after(.seconds(60))) }
        try await Task.sleep(for: .milliseconds(100))
        subscription.cancel()
        await #expect(throws: DBusError.cancelled) { try await waiting.value }
    }

    /// The lengths of the bus IDs that `calls` concurrent `GetId` calls on `connection` answer.
    static func busIDLengths(calls: Int, on connection: DBusConnection, deadline: TransportDeadline) async throws -> [Int] {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<calls {
                group.addTask {
                    let reply = try await connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                          interface: "org.freedesktop.DBus", member: "GetId", deadline: deadline)
                    return reply.first?.string?.count ?? 0
                }
            }
            var lengths: [Int] = []
            while let length = try await group.next() { lengths.append(length) }
            return lengths
        }
    }

    @Test func manyCallsShareOneConnection() async throws {
        let bus = try await PrivateBus.started()
        defer { bus.stop() }
        let connection = try DBusConnection.connect(address: bus.address)
        let deadline = TransportDeadline.after(.seconds(20))
        let answers = try await Self.busIDLengths(calls: 16, on: connection, deadline: deadline)
        #expect(answers == Array(repeating: 32, count: 16))
    }

    /// Issue 22 item 4: a reply read by another thread wakes its waiter at once. 31 calls
    /// share one connection; the thread that polls reads the others' replies, and none of
    /// them may learn of its reply only when its own wait ran out (`stalledWakeUps`, counted
    /// inside the pump: a waiter whose message was read while it slept and nobody woke it).
    @Test func concurrentCallsAreWokenByTheThreadThatReadTheirReplies() async throws {
        let bus = try await PrivateBus.started()
        defer { bus.stop() }
        let connection = try DBusConnection.connect(address: bus.address)
        _ = try await connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                      interface: "org.freedesktop.DBus", member: "GetId", deadline: .after(.seconds(10)))
        let started = ContinuousClock.now
        let deadline = TransportDeadline.after(.seconds(30))
        let answers = try await Self.busIDLengths(calls: 31, on: connection, deadline: deadline)
        let elapsed = ContinuousClock.now - started
        #expect(answers == Array(repeating: 32, count: 31))
        #expect(connection.stalledWakeUps.load(ordering: .relaxed) == 0, "a waiter slept through its reply")
        print("31 concurrent D-Bus calls on one connection: \(elapsed)")
    }

    /// Issue 25 item 3: dbus-daemon lets a connection await 128 replies at once and fails the
    /// calls beyond (LimitsExceeded). `callEach` keeps 64 in flight from one thread, so 300
    /// access points are all read; with 200 in flight, the limit shows.
    @Test func callEachStaysUnderTheDaemonsPendingReplyLimit() async throws {
        let service = try await NetworkManagerService.started(fixture: "crowd-300.json")
        defer { service.stop() }
        let connection = try DBusConnection.connect(address: service.address)
        let deadline = TransportDeadline.after(.seconds(60))
        let list = try await connection.call(destination: "org.freedesktop.NetworkManager", path: "/org/freedesktop/NetworkManager/Devices/1",
                                             interface: "org.freedesktop.NetworkManager.Device.Wireless",
                                             member: "GetAllAccessPoints", deadline: deadline)
        let paths = try #require(list.first?.objectPaths)
        #expect(paths.count == 301)
        let calls = paths.map {
            DBusCall(destination: "org.freedesktop.NetworkManager", path: $0, interface: "org.freedesktop.DBus.Properties",
                     member: "GetAll", arguments: [.string("org.freedesktop.NetworkManager.AccessPoint")])
        }
        let batched = try await connection.callEach(calls, deadline: deadline)
        #expect(batched.count == 301)
        #expect(batched.allSatisfy { (try? $0.get().first?.dictionary?["HwAddress"]) != nil }, "every read answered")
        let strongest = try #require(try batched.last?.get().first?.dictionary)
        #expect(strongest["HwAddress"]?.string == "F4:94:5F:76:4B:73")

        let flooded = try await connection.callEach(calls, window: 200, deadline: deadline)
        let refused = flooded.filter {
            if case .failure(.remote(let name, _)) = $0 { return name == "org.freedesktop.DBus.Error.LimitsExceeded" }
            return false
        }
        #expect(!refused.isEmpty, "the daemon's limit is what the window keeps under")
    }

    @Test func noBusIsAClearError() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-bus-\(UUID().uuidString)").path
        do {
            _ = try DBusConnection.connect(address: "unix:path=\(missing)")
            Issue.record("connected to a bus that does not exist")
        } catch let error as DBusError {
            guard case .noBus(let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.contains("No such file"))
            #expect(error.message.contains("dbus"))
        }
    }

    // MARK: Helpers

    static let silentName = "com.example.Silent"

    /// A caller, and a connection that owns `silentName` but never reads its messages.
    static func silentService(on bus: PrivateBus) async throws -> (DBusConnection, DBusConnection) {
        let silent = try DBusConnection.connect(address: bus.address)
        let reply = try await silent.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                          interface: "org.freedesktop.DBus", member: "RequestName",
                                          arguments: [.string(silentName), .uint32(4)], deadline: .after(.seconds(10)))
        #expect(reply.first?.uint32 == 1)   // DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER
        return (try DBusConnection.connect(address: bus.address), silent)
    }
}
