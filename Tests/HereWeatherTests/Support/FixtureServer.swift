import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real HTTP/1.1 server on 127.0.0.1 that answers with recorded bodies, or misbehaves
/// on purpose (hangs, stalls mid-body, closes without answering, sends an endless body),
/// and remembers every request target it was sent.
final class FixtureServer: @unchecked Sendable {
    /// What to send for one request.
    struct Response: Sendable {
        enum Behaviour: Sendable, Equatable {
            case complete
            /// Read the request, never answer.
            case hang
            /// Send the headers and half the body, then go quiet.
            case stallMidBody
            /// Close the connection without a byte.
            case close
            /// Announce a body of this many bytes and stream it until the client hangs up.
            case huge(bytes: Int)
        }

        var status: Int
        var headers: [(String, String)] = [("Content-Type", "application/json")]
        var body: [UInt8]
        var behaviour: Behaviour = .complete

        static func json(_ status: Int = 200, _ body: String) -> Response {
            Response(status: status, body: Array(body.utf8))
        }

        static func fixture(_ path: String, status: Int = 200, headers: [(String, String)] = []) -> Response {
            let type = path.hasSuffix(".html") ? "text/html" : "application/json"
            return Response(status: status, headers: [("Content-Type", type)] + headers, body: Array(Fixtures.data(path)))
        }

        static let notFound = Response.json(404, #"{"error":"no such route"}"#)
        static let hang = Response(status: 200, body: [], behaviour: .hang)
    }

    /// One request as received: its target and its header fields (names lower-cased), its
    /// method and its body (as long as its Content-Length says).
    struct Request: Sendable {
        var target: String
        var headers: [String: String]
        var method = "GET"
        var body: [UInt8] = []
        /// The header lines as they came, in order ("Accept: application/json").
        var headerLines: [String] = []
    }

    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var received: [Request] = []
    private var stopped = false
    private var listenerClosed = false
    private let handler: @Sendable (Request) -> Response

    /// Starts a server whose `handler` maps a request target (path and query) to a response.
    convenience init(handler: @escaping @Sendable (String) -> Response) throws {
        try self.init(responder: { handler($0.target) })
    }

    /// Starts a server whose `handler` sees the headers too (User-Agent, If-Modified-Since).
    static func inspecting(_ handler: @escaping @Sendable (Request) -> Response) throws -> FixtureServer {
        try FixtureServer(responder: handler)
    }

    /// Starts a server that listens on every interface (0.0.0.0), so that it can be reached
    /// at a non-loopback address of this machine too.
    static func onEveryInterface(_ handler: @escaping @Sendable (Request) -> Response) throws -> FixtureServer {
        try FixtureServer(responder: handler, address: "0.0.0.0")
    }

    private init(responder: @escaping @Sendable (Request) -> Response, address listenAddress: String = "127.0.0.1") throws {
        self.handler = responder
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError.socket(errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(listenAddress)
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw ServerError.socket(code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = fd
        let server = WeakServer(self)
        let thread = Thread { Self.acceptLoop(listener: fd, server: server) }
        thread.start()
    }

    /// Serves `routes` by path (the query is ignored); anything else is a 404.
    convenience init(routes: [String: Response]) throws {
        try self.init { target in
            let path = String(target.split(separator: "?", maxSplits: 1).first ?? "")
            return routes[path] ?? .notFound
        }
    }

    enum ServerError: Error { case socket(Int32) }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Every request target received so far, in order.
    var requests: [String] {
        lock.lock(); defer { lock.unlock() }
        return received.map(\.target)
    }

    /// Every request received so far, with its headers, in order.
    var receivedRequests: [Request] {
        lock.lock(); defer { lock.unlock() }
        return received
    }

    var isStopped: Bool {
        lock.lock(); defer { lock.unlock() }
        return stopped
    }

    /// Stops accepting. The listener is shut down here and closed by the accept loop once it
    /// has left accept(); both happen under the lock, so a shutdown never reaches a
    /// descriptor number that has been closed and handed to another test's socket.
    func stop() {
        lock.lock(); defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        if !listenerClosed { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    deinit { stop() }

    /// The accept loop holds its server weakly, as does each connection's thread between
    /// requests: a server that no test holds any more is stopped by its `deinit`, so its
    /// socket and threads end with the test (before: every server a test did not stop kept
    /// its listener and a thread blocked in accept to the end of the run, about 400 of them
    /// in a full run, past the 1024 descriptors a default `ulimit -n` allows).
    private static func acceptLoop(listener: Int32, server weakServer: WeakServer) {
        while true {
            let client = accept(listener, nil, nil)
            let failure = errno
            guard let server = weakServer.value else {
                // Its deinit shut the listener down; nothing can reach the descriptor any more.
                if client >= 0 { close(client) }
                close(listener)
                return
            }
            if client < 0, failure == EINTR || failure == ECONNABORTED {
                // A connection given up before it was accepted is no reason to stop serving.
                continue
            }
            if client < 0 || server.isStopped {
                if client >= 0 { close(client) }
                server.closeListener()
                return
            }
            let thread = Thread {
                if weakServer.value?.serve(client) == true { waitUntilStopped(weakServer) }
                close(client)
            }
            thread.start()
        }
    }

    /// Closes the listener under the lock, so that `stop()` never shuts down a descriptor
    /// number that has been closed and handed to another test's socket.
    private func closeListener() {
        lock.lock()
        listenerClosed = true
        close(listener)
        lock.unlock()
    }

    /// Holds a connection open until the server is stopped or gone.
    private static func waitUntilStopped(_ server: WeakServer) {
        while let alive = server.value, !alive.isStopped { usleep(20_000) }
    }

    /// Answers one request on `client` (closed by the caller); true when the connection is
    /// to be held open, unanswered or half answered, until the server stops.
    private func serve(_ client: Int32) -> Bool {
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.containsHeaderEnd {
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { return false }
            request += buffer[0..<count]
        }
        let headEnd = request.headerEnd ?? request.count
        let head = String(decoding: request[..<headEnd], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        let parts = (lines.first ?? "").split(separator: " ")
        let target = parts.count >= 2 ? String(parts[1]) : "/"
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(request[min(headEnd + 4, request.count)...])
        let length = min(headers["content-length"].flatMap { Int($0) } ?? 0, 1 << 20)
        while body.count < length {
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { break }
            body += buffer[0..<count]
        }
        let received = Request(target: target, headers: headers, method: parts.first.map(String.init) ?? "GET", body: body,
                               headerLines: lines.dropFirst().map(String.init))
        lock.lock(); self.received.append(received); lock.unlock()
        let response = handler(received)
        switch response.behaviour {
        case .close:
            return false
        case .hang:
            return true
        case .huge(let bytes):
            let head = "HTTP/1.1 \(response.status) OK\r\nContent-Type: application/json\r\nContent-Length: \(bytes)\r\nConnection: close\r\n\r\n{\"padding\":\""
            guard send(client, Array(head.utf8)) else { return false }
            let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 64 << 10)
            var sent = 0
            while sent < bytes, !isStopped, send(client, chunk) { sent += chunk.count }
            return false
        case .complete, .stallMidBody:
            var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
            for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
            head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
            let body = response.behaviour == .complete ? response.body : Array(response.body.prefix(response.body.count / 2))
            send(client, Array(head.utf8) + body)
            return response.behaviour == .stallMidBody
        }
    }

    /// Writes all of `bytes`; `false` once the client has gone (no SIGPIPE: MSG_NOSIGNAL).
    @discardableResult
    private func send(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 302: return "Found"
        case 400: return "Bad Request"
        case 304: return "Not Modified"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }
}

private extension Array where Element == UInt8 {
    var containsHeaderEnd: Bool { headerEnd != nil }

    /// Where the blank line that ends the head starts.
    var headerEnd: Int? {
        guard count >= 4 else { return nil }
        for index in 0...(count - 4) where self[index] == 13 && self[index + 1] == 10 && self[index + 2] == 13 && self[index + 3] == 10 {
            return index
        }
        return nil
    }
}

/// The reference a server's own threads hold: weak, so that the server's life is its test's.
private final class WeakServer: @unchecked Sendable {
    weak var value: FixtureServer?
    init(_ server: FixtureServer) { value = server }
}
