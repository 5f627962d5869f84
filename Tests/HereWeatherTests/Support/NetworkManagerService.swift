import Foundation
import HereWeatherCore

/// The NetworkManager stand-in (Tests/Services/network_manager.py, NetworkManager's
/// documented D-Bus interfaces in python3-dbus-next) on a private bus, serving a recorded
/// scan list from `Fixtures/wifi/`.
///
/// Its log holds one line per method call ("GetDevices", "RequestScan <device> []",
/// "ScanDone <device>"), for tests that check what was asked.
final class NetworkManagerService: @unchecked Sendable {
    let bus: PrivateBus
    let log: URL

    static let script = Fixtures.root.appendingPathComponent("Tests/Services/network_manager.py")

    /// A private bus with NetworkManager serving `Fixtures/wifi/<fixture>`.
    init(fixture: String, bus: PrivateBus? = nil) throws {
        self.bus = try bus ?? PrivateBus()
        log = self.bus.directory.appendingPathComponent("network-manager.log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: log.path])
        }
        try self.bus.launch(["/usr/bin/python3", Self.script.path, Fixtures.url("wifi/" + fixture).path, log.path],
                            readyLine: "ready")
    }

    /// `init` on a thread of its own, for async tests (starting Python takes a while).
    static func started(fixture: String) async throws -> NetworkManagerService {
        try await BlockingCall.run { Result { try NetworkManagerService(fixture: fixture) } }
    }

    /// The environment that points the binary at this bus.
    var environment: [String: String] { bus.environment }
    var address: String { bus.address }

    /// The method calls so far, one per line.
    var calls: [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func stop() { bus.stop() }
}
