import Foundation
import HereWeatherCore

/// The GeoClue2 stand-in (Tests/Services/geoclue.py, GeoClue's documented D-Bus interface in
/// python3-dbus-next) on a private bus, sending the updates a fixture in
/// `Fixtures/geoclue/stand-in/` scripts. The real GeoClue runs in `GeoClueHarness`; this one
/// stages spoofers, unreadable updates, odd timestamps and a Stop that never answers.
///
/// Its log holds one line per method call ("GetClient", "Start", "Stop").
final class GeoClueService: @unchecked Sendable {
    let bus: PrivateBus
    let log: URL

    static let script = Fixtures.root.appendingPathComponent("Tests/Services/geoclue.py")

    /// A private bus with GeoClue serving `Fixtures/geoclue/stand-in/<fixture>`.
    init(fixture: String) throws {
        bus = try PrivateBus()
        log = bus.directory.appendingPathComponent("geoclue.log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: log.path])
        }
        try bus.launch(["/usr/bin/python3", Self.script.path, Fixtures.url("geoclue/stand-in/" + fixture).path, log.path],
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

    func stop() { bus.stop() }
}
