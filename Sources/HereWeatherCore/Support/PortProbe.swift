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

    /// What a connect to `host:port` met.
    public enum Outcome: Equatable, Sendable {
        case accepted
        case refused
        /// The name did not resolve.
        case unresolved
        case hostUnreachable
        case networkUnreachable
        /// Neither accepted nor refused by the deadline.
        case noAnswer
        /// Another error (`errno`), for messages.
        case failed(Int32)
    }

    /// Connects to each address of `host:port` in turn until one accepts, waiting at most until
    /// `deadline` on `clock` (in real slices of at most 100 ms, so a test clock's advance or
    /// `cancelled` is seen within one), then closes it: nothing is sent. Blocks the calling
    /// thread. The answer is the first address that accepted, else the most telling failure:
    /// a refusal, then no route to the host, to its network, no answer.
    public static func attempt(host: String, port: Int, until deadline: ContinuousClock.Instant,
                               on clock: any RunClock, cancelled: () -> Bool = { false }) -> Outcome {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0 else { return .unresolved }
        defer { freeaddrinfo(list) }
        var outcomes: [Outcome] = []
        var entry = list
        while let info = entry {
            entry = info.pointee.ai_next
            let outcome = attempt(info.pointee, until: deadline, on: clock, cancelled: cancelled)
            if outcome == .accepted { return .accepted }
            outcomes.append(outcome)
        }
        let telling: [Outcome] = [.refused, .hostUnreachable, .networkUnreachable, .noAnswer]
        return telling.first(where: outcomes.contains) ?? outcomes.first ?? .unresolved
    }

    /// One address's outcome.
    private static func attempt(_ address: addrinfo, until deadline: ContinuousClock.Instant,
                                on clock: any RunClock, cancelled: () -> Bool) -> Outcome {
        let flags = Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let socket = Glibc.socket(address.ai_family, address.ai_socktype | flags, address.ai_protocol)
        guard socket >= 0 else { return .failed(errno) }
        defer { close(socket) }
        var code: Int32 = 0
        if Glibc.connect(socket, address.ai_addr, address.ai_addrlen) != 0 {
            code = errno
            if code == EINPROGRESS {
                var descriptor = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
                while true {
                    let remaining = clock.now.duration(to: deadline)
                    guard remaining > .zero, !cancelled() else { return .noAnswer }
                    let slice = Int32(max(1, min(remaining, .milliseconds(100)).wholeMilliseconds))
                    let ready = poll(&descriptor, 1, slice)
                    if ready == 1 { break }
                    if ready < 0 && errno != EINTR { return .failed(errno) }
                }
                var length = socklen_t(MemoryLayout<Int32>.size)
                guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return .failed(errno) }
            }
        }
        switch code {
        case 0: return .accepted
        case ECONNREFUSED: return .refused
        case EHOSTUNREACH: return .hostUnreachable
        case ENETUNREACH: return .networkUnreachable
        case ETIMEDOUT: return .noAnswer
        default: return .failed(code)
        }
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
