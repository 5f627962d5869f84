import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a fault happens: a `FixtureServer` that misbehaves, a peer that does not speak
/// HTTP, a port nothing answers on, or a name that cannot resolve.
final class FaultStage: @unchecked Sendable {
    let server: FixtureServer?
    private let closedPort: ClosedPort?
    private var peer: FakeTCPPeer?
    /// The base URL the service under test is configured with.
    let baseURL: String

    init(target: FaultTarget, fault: HTTPFault) throws {
        if let greeting = fault.peerGreeting(success: target.success) {
            let peer = try FakeTCPPeer(FakeTCPPeer.Behaviour(greeting: greeting, closes: false))
            self.peer = peer
            closedPort = nil
            server = nil
            baseURL = "http://127.0.0.1:\(peer.port)"
            return
        }
        switch fault {
        case .connectionRefused:
            let port = try ClosedPort()
            closedPort = port
            server = nil
            baseURL = "http://127.0.0.1:\(port.port)"
        case .dnsFailure:
            closedPort = nil
            server = nil
            baseURL = HTTPFault.unresolvableBaseURL
        default:
            let success = target.success
            let server = try FixtureServer.inspecting { fault.response(to: $0, success: success) }
            self.server = server
            closedPort = nil
            baseURL = server.baseURL
        }
    }

    /// Every request the server received, target and header values in one text each.
    var receivedText: [String] {
        (server?.receivedRequests ?? []).map { request in
            ([request.target] + request.headers.map { "\($0.key): \($0.value)" }).joined(separator: "\n")
        }
    }

    func stop() {
        server?.stop()
        peer?.stop()
    }
}

/// The files under a home's cache and state folders, byte for byte. The state folder's lock
/// file aside (the permissions' one lock file: a run may create it, empty); the cache's count:
/// a run that fails leaves no lock file for its key (issue 35 D32).
struct FolderSnapshot: Equatable {
    let files: [String: Data]

    init(home: URL) {
        var files: [String: Data] = [:]
        for folder in [".cache", ".local/state"] {
            let root = home.appendingPathComponent(folder).path
            for relative in FileManager.default.enumerator(atPath: root)?.compactMap({ $0 as? String }) ?? [] {
                let path = root + "/" + relative
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                      !(folder == ".local/state" && relative.hasSuffix(".lock")) else { continue }
                files[folder + "/" + relative] = FileManager.default.contents(atPath: path) ?? Data()
            }
        }
        self.files = files
    }

    /// Temporary files a write left behind.
    var temporaryFiles: [String] {
        files.keys.filter { $0.split(separator: "/").last?.hasPrefix(".here-weather.tmp.") == true }
    }

    /// The files that hold `text`.
    func files(containing text: String) -> [String] {
        let needle = Data(text.utf8)
        return files.filter { $0.value.range(of: needle) != nil }.map(\.key)
    }
}
