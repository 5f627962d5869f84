#if canImport(Glibc)
import Glibc
#endif

/// Whether something listens on a TCP port: a connect and a close, nothing sent.
///
/// The presence check for sources reached over TCP (gpsd): local, cheap and bounded, so a
/// source that is not there costs a run well under 50 ms and never a prompt.
public enum PortProbe {
    /// Whether `host:port` accepts a TCP connection within `bound`.
    public static func accepts(host: String, port: Int, within bound: Duration = .milliseconds(30)) async -> Bool {
        (try? await BlockingCall.run { .success(acceptsNow(host: host, port: port, within: bound)) }) ?? false
    }

    /// The same, blocking the calling thread for at most about `bound` (after name lookup).
    static func acceptsNow(host: String, port: Int, within bound: Duration) -> Bool {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0 else { return false }
        defer { freeaddrinfo(list) }
        let deadline = TransportDeadline.after(bound)
        var entry = list
        while let info = entry {
            entry = info.pointee.ai_next
            if connects(info.pointee, until: deadline) { return true }
        }
        return false
    }

    /// Whether one address accepts a connection before `deadline`.
    private static func connects(_ address: addrinfo, until deadline: TransportDeadline) -> Bool {
        let flags = Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let socket = Glibc.socket(address.ai_family, address.ai_socktype | flags, address.ai_protocol)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        if connect(socket, address.ai_addr, address.ai_addrlen) == 0 { return true }
        guard errno == EINPROGRESS else { return false }
        let remaining = deadline.remaining
        let milliseconds = Int32(max(0, remaining.wholeMilliseconds))
        var descriptor = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
        guard poll(&descriptor, 1, milliseconds) == 1 else { return false }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return false }
        return error == 0
    }
}
