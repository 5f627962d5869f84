import Foundation
import HereWeatherCore
import HereWeatherDBus

/// The GeoClue2 stand-in (Tests/Services/geoclue.py, GeoClue's documented D-Bus interface in
/// python3-dbus-next) on a private bus, sending the updates a fixture in
/// `Fixtures/geoclue/stand-in/` scripts. The real GeoClue runs in `GeoClueHarness`; this one
/// stages spoofers, unreadable updates, odd timestamps and a Stop that never answers.
///
/// Its log holds one line per method call ("GetClient", "Start", "Stop"). `move` makes it
/// send its started clients a new position; `vanish` kills it, leaving the bus up.
final class GeoClueService: @unchecked Sendable {
    let bus: PrivateBus
    let log: URL
    private let process: ServiceProcess

    static let script = Fixtures.root.appendingPathComponent("Tests/Services/geoclue.py")

    /// A private bus with GeoClue serving `Fixtures/geoclue/stand-in/<fixture>`.
    init(fixture: String) throws {
        bus = try PrivateBus()
        log = bus.directory.appendingPathComponent("geoclue.log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: log.path])
        }
        process = try bus.launch(["/usr/bin/python3", Self.script.path, Fixtures.url("geoclue/stand-in/" + fixture).path, log.path],
                       readyLine: "ready")
    }

    /// `init` on a thread of its own, for async tests (starting Python takes a while).
    static func started(fixture: String) async throws -> GeoClueService {
        try await BlockingCall.run { Result { try GeoClueService(fixture: fixture) } }
    }

    var environment: [String: String] { bus.environment }
    var address: String { bus.address }

    /// The method calls so far, one per line.
    var calls: [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Sends every started client a `LocationUpdated` to a new position (the stand-in's own
    /// `Move`, not GeoClue's); how many clients it told.
    func move(latitude: Double, longitude: Double, accuracy: Double) async throws -> UInt32 {
        let connection = try DBusConnection.connect(address: address)
        let reply = try await connection.call(destination: "org.freedesktop.GeoClue2", path: "/org/freedesktop/GeoClue2/StandIn",
                                              interface: "org.freedesktop.GeoClue2.StandIn", member: "Move",
                                              arguments: [.double(latitude), .double(longitude), .double(accuracy)],
                                              deadline: .after(.seconds(30)))
        return reply.first?.uint32 ?? 0
    }

    /// Moves every started client, and moves it again to `then` as it reads the first move:
    /// the second update arrives while the client waits for its read's answer.
    func moveTwice(_ first: (Double, Double, Double), then second: (Double, Double, Double)) async throws -> UInt32 {
        let connection = try DBusConnection.connect(address: address)
        let reply = try await connection.call(destination: "org.freedesktop.GeoClue2", path: "/org/freedesktop/GeoClue2/StandIn",
                                              interface: "org.freedesktop.GeoClue2.StandIn", member: "MoveTwice",
                                              arguments: [first.0, first.1, first.2, second.0, second.1, second.2].map { .double($0) },
                                              deadline: .after(.seconds(30)))
        return reply.first?.uint32 ?? 0
    }

    /// Kills the stand-in (SIGKILL), as GeoClue crashing would: its name leaves the bus.
    func vanish() { process.stop() }

    func stop() { bus.stop() }
}
