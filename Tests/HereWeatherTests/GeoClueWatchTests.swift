import Foundation
import Glibc
import HereWeatherCore
@testable import HereWeatherDBus
import Synchronization
import Testing

/// GeoClue's moves while `--follow` runs (issue 31 part 3, `GeoClueLocationProvider.watch`),
/// against the GeoClue stand-in on a private bus, which a test moves with its `Move`: each
/// move that meets the request comes out in order, a worse one does not, the consumer ending
/// sends `Stop` and closes the connection, GeoClue or the bus going away ends the stream with
/// one note, and while nothing moves the watch sleeps in `poll` with no timeout. In-process,
/// through `GeoClueAgentGate` as a run builds it. Serialized: the idle test reads the watch's
/// thread by name.
@Suite(.serialized) struct GeoClueWatchTests {
    static let oslo = Coordinate(latitude: 59.9139, longitude: 10.7522)
    static let bergen = Coordinate(latitude: 60.3913, longitude: 5.3221)
    static let trondheim = Coordinate(latitude: 63.4305, longitude: 10.3951)
    /// A bound that tells "ended" from "hung", not a timing.
    static let bound: Duration = .seconds(60)

    /// What a watch sent and said, read by the test as it comes.
    final class Watched: Sendable {
        let fixes = Mutex<[Location]>([])
        let notes = Mutex<[String]>([])
        let ended = Atomic<Bool>(false)
        /// The consumer: a task that records every fix until the stream ends or it is cancelled.
        let consumer = Mutex<Task<Void, Never>?>(nil)

        init(_ watch: LocationWatch) {
            let stream = watch.start { [self] line in notes.withLock { $0.append(line) } }
            let task = Task { [self] in
                for await fix in stream { fixes.withLock { $0.append(fix) } }
                ended.store(true, ordering: .relaxed)
            }
            consumer.withLock { $0 = task }
        }

        var count: Int { fixes.withLock { $0.count } }
        var hasEnded: Bool { ended.load(ordering: .relaxed) }

        func stopConsuming() { consumer.withLock { $0 }?.cancel() }
    }

    /// The watch as a run gets it: the GeoClue source behind its agent gate.
    static func watch(_ address: String, accuracy: DesiredAccuracy = .threeKilometres) throws -> LocationWatch {
        let provider = GeoClueLocationProvider(connect: { try DBusConnection.connect(address: address) }, clock: ContinuousClock())
        let memory = GeoClueAgentMemory(path: FileManager.default.temporaryDirectory
            .appendingPathComponent("geoclue-watch-\(UUID().uuidString)/geoclue-no-agent.json").path)
        let gate = GeoClueAgentGate(base: provider, memory: memory, watch: provider,
                                    situation: { GeoClueAgentSituation(date: $0, bootID: nil, session: nil) },
                                    clock: ContinuousClock(), skips: true)
        return try #require(gate.watch(LocationRequest(desiredAccuracy: accuracy, start: .now)))
    }

    /// Waits (at most `bound`) until `condition` holds; whether it did.
    static func eventually(_ condition: () -> Bool) async throws -> Bool {
        let end = ContinuousClock.now + bound
        while !condition() {
            guard ContinuousClock.now < end else { return false }
            try await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    /// Two moves come out in order with their coordinates and accuracy, after the fix GeoClue
    /// gives at Start; a move worse than the desired 3 km (50 km) is not sent. The client
    /// asked for 1 km moves at any time, and the consumer's end stopped it.
    @Test func movesComeInOrderAndAWorseFixIsNotSent() async throws {
        let service = try await GeoClueService.started(fixture: "follow-oslo.json")
        defer { service.stop() }
        let watched = Watched(try Self.watch(service.address))
        defer { watched.stopConsuming() }
        try #require(try await Self.eventually { watched.count == 1 }, "no first fix: \(service.calls)")
        #expect(service.calls.contains("DistanceThreshold 1000"), "\(service.calls)")
        #expect(service.calls.contains("TimeThreshold 0"), "\(service.calls)")
        #expect(try await service.move(latitude: Self.bergen.latitude, longitude: Self.bergen.longitude, accuracy: 30) == 1)
        try #require(try await Self.eventually { watched.count == 2 })
        #expect(try await service.move(latitude: Self.trondheim.latitude, longitude: Self.trondheim.longitude, accuracy: 50_000) == 1)
        #expect(try await service.move(latitude: Self.trondheim.latitude, longitude: Self.trondheim.longitude, accuracy: 20) == 1)
        try #require(try await Self.eventually { watched.count >= 3 })
        let fixes = watched.fixes.withLock { $0 }
        #expect(fixes.map(\.coordinate) == [Self.oslo, Self.bergen, Self.trondheim])
        #expect(fixes.map(\.horizontalAccuracy) == [25, 30, 20], "the 50 km fix is not sent")
        #expect(fixes.allSatisfy { $0.source == .geoclue && $0.meetsDesiredAccuracy })
        #expect(watched.notes.withLock { $0 }.isEmpty)
        watched.stopConsuming()
        #expect(try await Self.eventually { service.calls.contains("Stop") }, "\(service.calls)")
    }

    /// A move that arrives while the watch reads the one before (the stand-in moves again as
    /// its first position is read) comes out too, at once: it was read off the socket during
    /// that read, and waiting in `poll` would have kept it until the next message on the bus.
    @Test func aMoveDuringTheReadOfAnotherIsNotHeldBack() async throws {
        let service = try await GeoClueService.started(fixture: "follow-oslo.json")
        defer { service.stop() }
        let watched = Watched(try Self.watch(service.address))
        defer { watched.stopConsuming() }
        try #require(try await Self.eventually { watched.count == 1 })
        let told = try await service.moveTwice((Self.bergen.latitude, Self.bergen.longitude, 30),
                                               then: (Self.trondheim.latitude, Self.trondheim.longitude, 20))
        #expect(told == 1)
        #expect(try await Self.eventually { watched.count == 3 }, "\(service.calls)")
        #expect(watched.fixes.withLock { $0 }.map(\.coordinate) == [Self.oslo, Self.bergen, Self.trondheim])
    }

    /// The consumer ending, cancelled or by dropping the stream after its first fix, sends
    /// `Stop` and closes the watch's own connection (its name leaves the bus); the stream
    /// says nothing of it.
    @Test(arguments: [true, false]) func theConsumerEndingStopsTheClient(cancelled: Bool) async throws {
        let service = try await GeoClueService.started(fixture: "follow-oslo.json")
        defer { service.stop() }
        let names = try DBusConnection.connect(address: service.address)
        let before = try await Self.connections(names)
        let notes = Mutex<[String]>([])
        let watch = try Self.watch(service.address)
        let (release, released) = AsyncStream<Void>.makeStream()
        let consumer = Task { () -> Location? in
            // The stream lives in the task alone: returning drops it (once the test has seen
            // the watch's connection).
            for await fix in watch.start({ line in notes.withLock { $0.append(line) } }) where !cancelled {
                for await _ in release { break }
                return fix
            }
            return nil
        }
        defer { consumer.cancel() }
        try #require(try await Self.eventually { service.calls.contains("Read Latitude") }, "\(service.calls)")
        let watching = try await Self.connections(names).subtracting(before)
        #expect(watching.count == 1, "the watch's own connection: \(watching)")
        if cancelled {
            consumer.cancel()
        } else {
            released.yield()
            #expect(await consumer.value?.coordinate == Self.oslo)
        }
        #expect(try await Self.eventually { service.calls.contains("Stop") }, "\(service.calls)")
        var left = false
        _ = try await Self.eventually {
            left = (try? names.nameHasOwner(watching.first ?? ":none")) == false
            return left
        }
        #expect(left, "the watch's connection was closed")
        #expect(notes.withLock { $0 }.isEmpty)
    }

    /// GeoClue leaving the bus (killed) ends the stream, with one note that says so.
    @Test func geoClueLeavingEndsTheStream() async throws {
        let service = try await GeoClueService.started(fixture: "follow-oslo.json")
        defer { service.stop() }
        let watched = Watched(try Self.watch(service.address))
        defer { watched.stopConsuming() }
        try #require(try await Self.eventually { watched.count == 1 })
        service.vanish()
        try #require(try await Self.eventually { watched.hasEnded }, "the stream goes on after GeoClue left")
        let notes = watched.notes.withLock { $0 }
        #expect(notes.count == 1, "\(notes)")
        #expect(notes.first?.contains("GeoClue (org.freedesktop.GeoClue2) left the system bus. GeoClue's moves go unnoticed.") == true, "\(notes)")
    }

    /// The bus daemon dying closes the connection: the stream ends, with one note.
    @Test func theConnectionEndingEndsTheStream() async throws {
        let service = try await GeoClueService.started(fixture: "follow-oslo.json")
        defer { service.stop() }
        let watched = Watched(try Self.watch(service.address))
        defer { watched.stopConsuming() }
        try #require(try await Self.eventually { watched.count == 1 })
        service.bus.signalDaemon(SIGKILL)
        try #require(try await Self.eventually { watched.hasEnded }, "the stream goes on after the bus closed")
        let notes = watched.notes.withLock { $0 }
        #expect(notes.count == 1, "\(notes)")
        #expect(notes.first?.hasPrefix("--follow: the connection to GeoClue ended (") == true, "\(notes)")
    }

    /// No GeoClue on the bus: the stream ends at once, its note saying why.
    @Test func noGeoClueEndsTheStreamWithANote() async throws {
        let bus = try await PrivateBus.started()
        defer { bus.stop() }
        let watched = Watched(try Self.watch(bus.address))
        try #require(try await Self.eventually { watched.hasEnded })
        let notes = watched.notes.withLock { $0 }
        #expect(notes.count == 1, "\(notes)")
        #expect(notes.first?.hasPrefix("--follow: cannot follow GeoClue: GeoClue is not running on the system bus") == true, "\(notes)")
        #expect(watched.count == 0)
    }

    /// While nothing moves, the watch's thread sleeps in `poll` with no timeout: no timer,
    /// and no wake-up at all over an idle second (its voluntary context switches unchanged;
    /// strace on it while idle shows no system call at all), and no signal can interrupt it.
    @Test func anIdleWatchSleepsInPollWithNoTimeout() async throws {
        let service = try await GeoClueService.started(fixture: "follow-oslo.json")
        defer { service.stop() }
        let watch = try Self.watch(service.address)
        // Started from a thread that blocks no signal (Swift's pool threads block most): the
        // watch's thread must block them itself, not inherit it.
        let watched = try await BlockingCall.run { () -> Result<Watched, Error> in
            var none = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, nil)
            return .success(Watched(watch))
        }
        defer { watched.stopConsuming() }
        try #require(try await Self.eventually { watched.count == 1 })
        var thread: String?
        _ = try await Self.eventually {
            thread = Self.threads(named: GeoClueFollower.threadName).first { Self.isInPollForever($0) }
            return thread != nil
        }
        let seen = Self.threads(named: GeoClueFollower.threadName).map { Self.syscall($0) }
        let task = try #require(thread, "no \(GeoClueFollower.threadName) thread blocked in poll with no timeout: \(seen)")
        let switches = Self.voluntarySwitches(task)
        try await Task.sleep(for: .seconds(1))
        #expect(Self.voluntarySwitches(task) == switches, "the idle watch woke up")
        #expect(Self.isInPollForever(task), "\(Self.syscall(task))")
        // The process's signals (follow's SIGUSR1 and SIGTERM) go to other threads: they
        // never interrupt this wait.
        let blocked = Self.statusField("SigBlk:", of: task).flatMap { UInt64($0, radix: 16) } ?? 0
        for signal in [SIGUSR1, SIGTERM, SIGINT, SIGCHLD] {
            #expect(blocked & (1 << UInt64(signal - 1)) != 0, "signal \(signal) is not blocked: \(String(blocked, radix: 16))")
        }
    }

    /// GeoClue is asked for moves of the desired accuracy, 1 km at most (the default cell of
    /// `coordinate_decimals`); `any` and `best` name no distance.
    @Test func theDistanceThresholdFollowsTheDesiredAccuracy() {
        let thresholds = [DesiredAccuracy.threeKilometres, .within(metres: 1000), .within(metres: 100), .within(metres: 10),
                          .within(metres: 0.2), .any, .best].map(GeoClueLocationProvider.distanceThreshold(for:))
        #expect(thresholds == [1000, 1000, 100, 10, 1, 1000, 1000])
    }

    /// A watched fix is judged alone: within the desired accuracy (marked as meeting it), any
    /// real fix for `any`, every fix of known accuracy for `best`; not a worse one, nor one of
    /// unknown accuracy for `best`, nor one older than max age.
    @Test func aWatchedFixIsJudgedAlone() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func fix(_ accuracy: Double?, age: TimeInterval = 0) -> Location {
            Location(coordinate: Self.oslo, horizontalAccuracy: accuracy, timestamp: now.addingTimeInterval(-age), source: .geoclue)
        }
        func judged(_ fix: Location, _ accuracy: DesiredAccuracy) -> Location? {
            FixSelector.judgedWhileWatching(fix, for: LocationRequest(desiredAccuracy: accuracy, maxAge: .seconds(300), start: .now),
                                            now: now)
        }
        #expect(judged(fix(25), .threeKilometres)?.meetsDesiredAccuracy == true)
        #expect(judged(fix(3025), .threeKilometres) == nil)
        #expect(judged(fix(nil), .threeKilometres) == nil)
        #expect(judged(fix(nil), .any) != nil)
        #expect(judged(fix(50_000), .best)?.meetsDesiredAccuracy == true)
        #expect(judged(fix(nil), .best) == nil)
        #expect(judged(fix(25, age: 301), .threeKilometres) == nil)
    }

    // MARK: - Reading the bus and /proc

    /// The unique names on the bus.
    static func connections(_ bus: DBusConnection) async throws -> Set<String> {
        let reply = try await bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                       interface: "org.freedesktop.DBus", member: "ListNames", deadline: .after(.seconds(30)))
        return Set((reply.first?.strings ?? []).filter { $0.hasPrefix(":") })
    }

    /// This process's threads (`/proc/self/task/TID`) whose name is `name`.
    static func threads(named name: String) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.map { "/proc/self/task/\($0)" }.filter {
            (try? String(contentsOfFile: $0 + "/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines) == name
        }
    }

    static func syscall(_ task: String) -> String {
        (try? String(contentsOfFile: task + "/syscall", encoding: .utf8))?.trimmingCharacters(in: .newlines) ?? "unreadable"
    }

    /// Whether the thread is blocked in poll(2) with a timeout of -1 (or ppoll(2) with none).
    static func isInPollForever(_ task: String) -> Bool {
        let fields = syscall(task).split(separator: " ")
        guard fields.count >= 4 else { return false }
        #if arch(x86_64)
        // poll's timeout is an int: -1 reads as 0xffffffff.
        return (fields[0] == "7" && fields[3] == "0xffffffff") || (fields[0] == "271" && fields[3] == "0x0")
        #else
        return fields[0] == "73" && fields[3] == "0x0"
        #endif
    }

    static func voluntarySwitches(_ task: String) -> String? {
        statusField("voluntary_ctxt_switches:", of: task)
    }

    /// A field of the thread's `status`, its value without spaces.
    static func statusField(_ name: String, of task: String) -> String? {
        let status = (try? String(contentsOfFile: task + "/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").first { $0.hasPrefix(name) }
            .map { $0.dropFirst(name.count).trimmingCharacters(in: .whitespaces) }
    }
}
