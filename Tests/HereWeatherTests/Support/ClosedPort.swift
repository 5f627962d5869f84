import Foundation
import Glibc

/// A TCP port on 127.0.0.1 that is bound but not listening: connecting is refused (as with
/// gpsd not running), and no other socket can take the port while this one holds it.
///
/// Stopping a server to free its port was racy: a parallel test could bind the freed port at
/// once, and the run then met that test's server instead of a refusal (seen as a 72 s
/// "gpsd not running" run).
final class ClosedPort: @unchecked Sendable {
    let port: UInt16
    private let descriptor: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        descriptor = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard fd >= 0, bound else {
            let code = errno
            if fd >= 0 { close(fd) }   // no deinit runs for an object whose init threw before `port` was set
            throw FixtureServer.ServerError.socket(code)
        }
        port = UInt16(bigEndian: address.sin_port)
    }

    /// `http://127.0.0.1:PORT`: a base URL whose every request is refused.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    deinit { close(descriptor) }
}
