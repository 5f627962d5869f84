import Foundation
import Glibc

/// A TCP server on 127.0.0.1 that is not gpsd: it greets every connection with fixed bytes
/// (garbage, broken JSON, binary), then holds the connection open or closes it. Real gpsd
/// cannot be made to do this; a client must still end, with a clear error, by its deadline.
final class FakeTCPPeer: @unchecked Sendable {
    /// What the peer does once a client connects.
    struct Behaviour: Sendable {
        /// Sent at once.
        var greeting: [UInt8]
        /// Close the connection after the greeting (else hold it open until `stop`).
        var closes: Bool
    }

    let port: UInt16
    private let listener: Int32
    private let behaviour: Behaviour
    private let lock = NSLock()
    private var clients: [Int32] = []
    private var stopped = false
    private var listenerClosed = false

    init(_ behaviour: Behaviour) throws {
        self.behaviour = behaviour
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit { stop() }

    /// Closes the listener and every connection.
    func stop() {
        // The listener is shut down under the lock, and the accept loop closes it under the
        // lock: a shutdown never reaches a number since handed to another test's socket.
        let open: [Int32] = lock.withLock {
            guard !stopped else { return [] }
            stopped = true
            if !listenerClosed { shutdown(listener, Int32(SHUT_RDWR)) }
            defer { clients = [] }
            return clients
        }
        open.forEach { shutdown($0, Int32(SHUT_RDWR)); close($0) }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                lock.withLock {
                    listenerClosed = true
                    close(listener)
                }
                return
            }
            var sent = 0
            while sent < behaviour.greeting.count {
                let count = behaviour.greeting[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if count <= 0 { break }
                sent += count
            }
            if behaviour.closes {
                close(client)
                continue
            }
            let keep = lock.withLock { () -> Bool in
                if stopped { return false }
                clients.append(client)
                return true
            }
            if !keep { close(client) }
        }
    }
}
