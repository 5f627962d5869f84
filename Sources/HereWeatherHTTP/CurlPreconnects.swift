import CCurl
#if canImport(Glibc)
import Glibc
#endif
import HereWeatherCore

/// Where a transfer connects: the URL's host and port (`api.open-meteo.com:443`). Preconnected
/// sockets are kept under it, and only a request to the same host and port may take one.
struct CurlOrigin: Hashable, Sendable {
    /// Lower-cased, without IPv6 brackets (`ServiceURL.host`).
    let host: String
    let port: Int

    /// `url`'s origin; `nil` for a URL that is not http(s) or has no host.
    init?(_ url: String) {
        guard ServiceURL.isHTTP(url) else { return nil }
        let authority = ServiceURL(url)
        guard !authority.host.isEmpty else { return nil }
        let afterHost = authority.hostAndPort.hasPrefix("[")
            ? authority.hostAndPort.drop { $0 != "]" }.dropFirst()
            : authority.hostAndPort.drop { $0 != ":" }
        if afterHost.isEmpty {
            port = url.lowercased().hasPrefix("https://") ? 443 : 80
        } else {
            guard afterHost.hasPrefix(":"), let written = Int(afterHost.dropFirst()), (1...65535).contains(written) else { return nil }
            port = written
        }
        host = authority.host
    }

    /// The connect-only transfer's URL: plain http to the same host and port, so that libcurl
    /// makes the TCP connection (and fills its DNS cache, which the request then reads) and
    /// nothing else. No TLS: a connection libcurl made with TLS could not be handed on.
    var connectionURL: String {
        "http://" + (host.contains(":") ? "[\(host)]" : host) + ":\(port)/"
    }
}

/// A connected socket kept for a request to its origin, until `deadline`.
struct ParkedSocket {
    let descriptor: Int32
    let peer: sockaddr_storage
    let peerLength: socklen_t
    let deadline: TransportDeadline

    /// The connect-only transfer's socket, duplicated before libcurl closes its own.
    init?(takingFrom handle: UnsafeMutableRawPointer, deadline: TransportDeadline) {
        var peer = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let descriptor = hw_curl_take_socket(handle, &peer, &length)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        self.peer = peer
        self.peerLength = length
        self.deadline = deadline
    }

    func close() { _ = Glibc.close(descriptor) }
}

/// The preconnects of the process's multi handle (`CurlSession`), owned by its loop thread:
/// connect-only transfers in flight per origin, the sockets they left, and the requests held
/// while a preconnect to their origin is still connecting (so that the request takes that
/// connection instead of opening a second one beside it).
struct CurlPreconnects {
    private var inFlight: [CurlOrigin: Int] = [:]
    private var parked: [CurlOrigin: [ParkedSocket]] = [:]
    private var held: [CurlTransfer] = []

    mutating func started(_ origin: CurlOrigin) { inFlight[origin, default: 0] += 1 }

    /// Holds `transfer` when a preconnect to its origin is still connecting; true when held.
    mutating func hold(_ transfer: CurlTransfer) -> Bool {
        guard let origin = transfer.origin, inFlight[origin, default: 0] > 0 else { return false }
        held.append(transfer)
        return true
    }

    /// Whether a request to `origin` is held.
    func isHolding(_ origin: CurlOrigin) -> Bool { held.contains { $0.origin == origin } }

    /// Offers `transfer` a parked socket to its origin that is still connected and idle.
    mutating func offerSocket(to transfer: CurlTransfer) {
        guard let origin = transfer.origin else { return }
        while var sockets = parked[origin], !sockets.isEmpty {
            let socket = sockets.removeFirst()
            parked[origin] = sockets.isEmpty ? nil : sockets
            if hw_socket_is_idle(socket.descriptor) {
                transfer.offer(socket)
                return
            }
            socket.close()
        }
    }

    /// A preconnect to `origin` ended, leaving `socket` (`nil`: it failed); returns the requests
    /// held for it once none is in flight.
    mutating func ended(_ origin: CurlOrigin, leaving socket: ParkedSocket?) -> [CurlTransfer] {
        if let socket { parked[origin, default: []].append(socket) }
        let left = inFlight[origin, default: 1] - 1
        inFlight[origin] = left > 0 ? left : nil
        guard left <= 0 else { return [] }
        let released = held.filter { $0.origin == origin }
        held.removeAll { $0.origin == origin }
        return released
    }

    /// Closes the sockets past their deadline; returns the held requests that were cancelled
    /// or reached their own deadline (to be finished by the caller).
    mutating func sweep(now: TransportDeadline) -> [CurlTransfer] {
        for (origin, sockets) in parked {
            let (expired, kept) = (sockets.filter { $0.deadline <= now }, sockets.filter { $0.deadline > now })
            expired.forEach { $0.close() }
            parked[origin] = kept.isEmpty ? nil : kept
        }
        let ended = held.filter { $0.isCancelled || $0.deadline <= now }
        held.removeAll { $0.isCancelled || $0.deadline <= now }
        return ended
    }

    /// The nearest deadline of a held request, if any.
    var nearestHeldDeadline: TransportDeadline? { held.map(\.deadline).min() }
}
