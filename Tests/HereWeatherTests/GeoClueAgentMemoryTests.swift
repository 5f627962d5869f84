import Foundation
import Synchronization
import Testing
@testable import HereWeatherCore

/// Remembering that GeoClue had no agent (issue 22 item 5): the rule, the state file, and the
/// gate that learns and, in the zero-config chain, skips. In-process, on a `TestClock`, with a
/// GeoClue that fails as the real one does without an agent.
@Suite struct GeoClueAgentMemoryTests {
    /// A GeoClue that fails with `error` (or gives a fix), and a bus whose names and user
    /// connections the test sets.
    final class ScriptedGeoClue: LocationSourceProvider, GeoClueAgentWatch {
        let outcome: Mutex<Result<Location, GeoClueError>>
        let requests = Atomic<Int>(0)
        let names = Mutex<Set<String>?>([":1.1", ":1.7"])
        let users = Mutex<Set<String>>([])

        init(_ outcome: Result<Location, GeoClueError>) {
            self.outcome = Mutex(outcome)
        }

        var source: LocationSource { .geoclue }
        func isPresent() async -> Bool { true }
        func requestLocation(_ request: LocationRequest) async throws -> Location {
            requests.add(1, ordering: .relaxed)
            return try outcome.withLock { $0 }.get()
        }
        func busNames() async -> Set<String>? { names.withLock { $0 } }
        func userConnections(among names: Set<String>) async -> Set<String>? { users.withLock { $0 }.intersection(names) }
    }

    /// The machine's boot and session, as the test sets them.
    final class Machine: Sendable {
        let state = Mutex<(boot: String?, session: String?)>(("boot-a", "3"))
        func situation(_ date: Date) -> GeoClueAgentSituation {
            let (boot, session) = state.withLock { $0 }
            return GeoClueAgentSituation(date: date, bootID: boot, session: session)
        }
    }

    final class Notes: Sendable {
        let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var text: String { lines.withLock { $0.joined(separator: "\n") } }
    }

    static func memory() throws -> GeoClueAgentMemory {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("geoclue-memory-\(UUID().uuidString)")
        return GeoClueAgentMemory(path: directory.path + "/here-weather/geoclue-no-agent.json")
    }

    static let tampa = Location(coordinate: Coordinate(latitude: 27.95, longitude: -82.46), horizontalAccuracy: 25,
                                timestamp: Date(timeIntervalSince1970: 1_795_000_000), source: .geoclue)

    static func gate(_ geoClue: ScriptedGeoClue, _ memory: GeoClueAgentMemory, clock: TestClock, machine: Machine,
                     skips: Bool = true, notes: Notes = Notes()) -> GeoClueAgentGate {
        GeoClueAgentGate(base: geoClue, memory: memory, watch: geoClue, situation: { machine.situation($0) },
                         clock: clock, skips: skips, log: { notes.add($0) })
    }

    /// Whether a request through `gate` reached GeoClue; else it failed at once, as remembered.
    static func reaches(_ gate: GeoClueAgentGate, _ geoClue: ScriptedGeoClue) async -> Bool {
        let before = geoClue.requests.load(ordering: .relaxed)
        do {
            _ = try await gate.requestLocation(LocationRequest(start: .now))
        } catch GeoClueError.rememberedNoAgent(let path, _) {
            #expect(path == gate.memory.path)
        } catch {}
        return geoClue.requests.load(ordering: .relaxed) > before
    }

    /// The first run learns from GetClient's silence; the next ones skip GeoClue (asking it
    /// nothing) until a day has passed on the run's clock: not at 24 h less a second, at 24 h.
    @Test func aMissingAgentIsLearnedAndSkippedForADay() async throws {
        let clock = TestClock()
        let memory = try Self.memory()
        let geoClue = ScriptedGeoClue(.failure(.noAgent(seconds: 10)))
        let notes = Notes()
        let gate = Self.gate(geoClue, memory, clock: clock, machine: Machine(), notes: notes)
        await #expect(throws: GeoClueError.noAgent(seconds: 10)) { try await gate.requestLocation(LocationRequest(start: .now)) }
        #expect(geoClue.requests.load(ordering: .relaxed) == 1, "nothing learned yet: asked")
        let remembered = try #require(memory.load(now: clock.date))
        #expect(remembered == GeoClueAgentMemory.Remembered(reason: .getClientUnanswered, since: clock.date, bootID: "boot-a",
                                                             session: "3", busNames: [":1.1", ":1.7"]))
        #expect(notes.text.contains("remembered in \(memory.path)"), "\(notes.text)")

        let until = clock.date.addingTimeInterval(86_400)
        await #expect(throws: GeoClueError.rememberedNoAgent(path: memory.path, until: until)) {
            try await gate.requestLocation(LocationRequest(start: .now))
        }
        #expect(geoClue.requests.load(ordering: .relaxed) == 1, "skipped: GeoClue not asked")
        #expect(notes.text.contains("GeoClue skipped: it had no agent for your user"), "\(notes.text)")
        #expect(await gate.isPresent(), "still present: it fails at once, so that the chain can say why")
        clock.advance(86_399)
        #expect(await Self.reaches(gate, geoClue) == false, "still within the day")
        clock.advance(1)
        #expect(await Self.reaches(gate, geoClue), "a day has passed")
        #expect(notes.text.contains("a day has passed"), "\(notes.text)")
        #expect(GeoClueError.rememberedNoAgent(path: memory.path, until: until).message.contains("demos/agent"))
    }

    /// A new boot, a new login, or a new connection of the user's on the bus (an agent may have
    /// started) ends the memory at once; a new connection of someone else's does not.
    @Test func aNewBootLoginOrUserConnectionTriesAgain() async throws {
        let clock = TestClock()
        let memory = try Self.memory()
        let machine = Machine()
        let geoClue = ScriptedGeoClue(.failure(.noAgent(seconds: 10)))
        let gate = Self.gate(geoClue, memory, clock: clock, machine: machine)
        _ = try? await gate.requestLocation(LocationRequest(start: .now))

        geoClue.names.withLock { $0 = [":1.1", ":1.7", ":1.9"] }   // someone else's (users is empty)
        #expect(await gate.verdict() == .skip(until: clock.date.addingTimeInterval(86_400)))
        geoClue.users.withLock { $0 = [":1.9"] }
        #expect(await gate.verdict() == .tryAgain("a new connection of your user is on the system bus (a GeoClue agent may have started)"))
        geoClue.users.withLock { $0 = [] }

        machine.state.withLock { $0.boot = "boot-b" }
        #expect(await gate.verdict() == .tryAgain("the machine has booted since"))
        machine.state.withLock { $0 = ("boot-a", "4") }
        #expect(await gate.verdict() == .tryAgain("this is another login session"))
        machine.state.withLock { $0 = ("boot-a", "3") }
        #expect(await Self.reaches(gate, geoClue) == false, "the same boot and login again: skipped")
    }

    /// Only GeoClue's no-agent answers are learned: a short wait proves nothing, a refusal by
    /// geoclue.conf is no missing agent, and a fix forgets what was learned.
    @Test(arguments: [
        (GeoClueError.noAgent(seconds: 10), GeoClueAgentMemory.Reason?.some(.getClientUnanswered)),
        (.noAgent(seconds: 3), .getClientUnanswered),
        (.noAgent(seconds: 2.9), nil),
        (.noAgent(seconds: 0), nil),
        (.notAllowed(reason: "'here-weather' disallowed, no agent for UID 1000"), .refusedNoAgent),
        (.notAllowed(reason: "'here-weather' disallowed by configuration for UID 1000"), nil),
        (.noFix(seconds: 10, seen: 0), nil),
        (.notRunning, nil),
    ] as [(GeoClueError, GeoClueAgentMemory.Reason?)])
    func onlyANoAgentAnswerIsLearned(error: GeoClueError, learned: GeoClueAgentMemory.Reason?) async throws {
        let clock = TestClock()
        let memory = try Self.memory()
        let geoClue = ScriptedGeoClue(.failure(error))
        // Not skipping (as with --source geoclue), so that the second request reaches GeoClue.
        let gate = Self.gate(geoClue, memory, clock: clock, machine: Machine(), skips: false)
        _ = try? await gate.requestLocation(LocationRequest(start: .now))
        #expect(memory.load(now: clock.date)?.reason == learned)

        geoClue.outcome.withLock { $0 = .success(Self.tampa) }
        _ = try await gate.requestLocation(LocationRequest(start: .now))
        #expect(memory.load(now: clock.date) == nil, "GeoClue answered: forgotten")
        #expect(!FileManager.default.fileExists(atPath: memory.path))
    }

    /// Explicit GeoClue (`--source geoclue`, configured sources, `[location.geoclue]
    /// permission`) learns, but is never skipped.
    @Test func anExplicitGeoClueIsStillAsked() async throws {
        let clock = TestClock()
        let memory = try Self.memory()
        let geoClue = ScriptedGeoClue(.failure(.noAgent(seconds: 10)))
        let gate = Self.gate(geoClue, memory, clock: clock, machine: Machine(), skips: false)
        _ = try? await gate.requestLocation(LocationRequest(start: .now))
        #expect(memory.load(now: clock.date) != nil)
        #expect(await Self.reaches(gate, geoClue))
    }

    /// What a run writes, a run reads back.
    @Test func theFileRoundTrips() throws {
        let memory = try Self.memory()
        let since = Date(timeIntervalSince1970: 1_795_000_000.5)
        for names in [Set([":1.1", ":1.42"]), nil] as [Set<String>?] {
            let remembered = GeoClueAgentMemory.Remembered(reason: .refusedNoAgent, since: since, bootID: "b", session: nil,
                                                           busNames: names)
            memory.save(remembered)
            #expect(memory.load(now: since) == remembered)
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: memory.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        memory.forget()
        memory.forget()   // nothing to forget: no error
        #expect(memory.load(now: since) == nil)
    }

    /// A file this program would not have written is no memory (GeoClue is asked again), never
    /// an error: garbage, another version or reason, a date after now (a clock set back) or
    /// beyond any date, names that are not bus unique names, too many of them.
    @Test(arguments: [
        "not json at all",
        "",
        "{}",
        #"{"version":2,"reason":"getclient-unanswered","since":1795000000}"#,
        #"{"version":1,"reason":"tired","since":1795000000}"#,
        #"{"version":1,"reason":"getclient-unanswered","since":"yesterday"}"#,
        #"{"version":1,"reason":"getclient-unanswered","since":1795000001}"#,
        #"{"version":1,"reason":"getclient-unanswered","since":1e300}"#,
        #"{"version":1,"reason":"getclient-unanswered","since":4102444800}"#,
        #"{"version":1,"reason":"getclient-unanswered","since":1795000000,"bus_names":["org.freedesktop.DBus"]}"#,
        #"{"version":1,"reason":"getclient-unanswered","since":1795000000,"bus_names":":1.1"}"#,
        #"{"version":1,"reason":"getclient-unanswered","since":1795000000,"bus_names":[":1.1",7]}"#,
        #"{"version":1,"reason":"getclient-unanswered","since":1795000000,"bus_names":[":1.1\n"]}"#,
    ])
    func anOddFileIsNoMemory(text: String) throws {
        let memory = try Self.memory()
        try FileManager.default.createDirectory(atPath: (memory.path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: memory.path, atomically: true, encoding: .utf8)
        #expect(memory.load(now: Date(timeIntervalSince1970: 1_795_000_000)) == nil)
    }

    @Test func tooManyNamesAndOddFilesAreNoMemory() throws {
        let memory = try Self.memory()
        let directory = (memory.path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let names = (0..<513).map { "\":1.\($0)\"" }.joined(separator: ",")
        try #"{"version":1,"reason":"getclient-unanswered","since":1795000000,"bus_names":[\#(names)]}"#
            .write(toFile: memory.path, atomically: true, encoding: .utf8)
        #expect(memory.load(now: now) == nil, "513 names")
        try FileManager.default.removeItem(atPath: memory.path)

        // A FIFO where the file belongs: not read (no hang), no memory.
        #expect(mkfifo(memory.path, 0o600) == 0)
        #expect(memory.load(now: now) == nil)
        memory.save(GeoClueAgentMemory.Remembered(reason: .getClientUnanswered, since: now, bootID: nil, session: nil, busNames: nil))
        #expect(memory.load(now: now)?.reason == .getClientUnanswered, "the FIFO is replaced atomically")
        try FileManager.default.removeItem(atPath: memory.path)

        // A folder: no memory, and saving over it fails quietly.
        try FileManager.default.createDirectory(atPath: memory.path, withIntermediateDirectories: true)
        #expect(memory.load(now: now) == nil)
        memory.save(GeoClueAgentMemory.Remembered(reason: .getClientUnanswered, since: now, bootID: nil, session: nil, busNames: nil))
        #expect(memory.load(now: now) == nil)
    }

    /// The boot comes from /proc, the login from `XDG_SESSION_ID` (else the audit session);
    /// odd files are no value.
    @Test func theSituationIsReadFromTheMachine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("situation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let boot = directory.appendingPathComponent("boot_id").path
        let session = directory.appendingPathComponent("sessionid").path
        try "0f6c9b1e-2d1c-4c8e-9a55-1b2c3d4e5f60\n".write(toFile: boot, atomically: true, encoding: .utf8)
        try "4294967295".write(toFile: session, atomically: true, encoding: .utf8)
        let date = Date(timeIntervalSince1970: 1_795_000_000)
        let unset = GeoClueAgentSituation.current(date: date, environment: [:], bootIDPath: boot, sessionPath: session)
        #expect(unset == GeoClueAgentSituation(date: date, bootID: "0f6c9b1e-2d1c-4c8e-9a55-1b2c3d4e5f60", session: nil))
        try "12".write(toFile: session, atomically: true, encoding: .utf8)
        #expect(GeoClueAgentSituation.current(date: date, environment: [:], bootIDPath: boot, sessionPath: session).session == "audit:12")
        #expect(GeoClueAgentSituation.current(date: date, environment: ["XDG_SESSION_ID": "c2"], bootIDPath: boot,
                                              sessionPath: session).session == "c2")
        #expect(GeoClueAgentSituation.current(date: date, environment: [:], bootIDPath: directory.path + "/missing",
                                              sessionPath: directory.path).bootID == nil)
    }
}
