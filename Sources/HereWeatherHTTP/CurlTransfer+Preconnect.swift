import CCurl
#if canImport(Glibc)
import Glibc
#endif
import HereWeatherCore

extension CurlHTTPClient {
    /// Opens TCP connections to `url`'s host and port for the requests that follow
    /// (`CurlPreconnects`): DNS and TCP only, no byte sent. Skipped when a proxy variable is
    /// set (the request would go to the proxy, not to the host).
    public func preconnect(to url: String, connections: Int, until deadline: ContinuousClock.Instant) {
        guard let origin = CurlOrigin(url), !Self.proxyIsSet else { return }
        let realDeadline = TransportDeadline(deadline, on: clock)
        let transfers = (0..<max(0, min(connections, 4))).map { _ in
            CurlTransfer(request: HTTPRequest(url: origin.connectionURL, deadline: deadline), deadline: realDeadline,
                         trust: trust, preconnectTo: origin)
        }
        CurlSession.shared.preconnect(transfers)
    }

    /// Whether any of the proxy variables libcurl reads is set.
    static let proxyIsSet: Bool = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"].contains { (name: String) in
        guard let value = getenv(name) else { return false }
        return value.pointee != 0
    }
}

/// A request's side of a preconnect (`CurlPreconnects`): the socket offered to it, and the
/// connect-only transfer that makes one.
extension CurlTransfer {
    /// Offers `socket` to the next handle made (libcurl takes it when it connects to its peer).
    func offer(_ socket: ParkedSocket) {
        adoption.pointee.offered = socket.descriptor
        adoption.pointee.adopted = -1
        adoption.pointee.peer = socket.peer
        adoption.pointee.peer_length = socket.peerLength
    }

    /// Whether libcurl took the offered socket for this transfer.
    var usesOfferedSocket: Bool { adoption.pointee.adopted >= 0 }

    /// Whether a failure with `code` on an offered socket should be tried once more on a
    /// connection of its own: the socket died between its check and the handshake (the
    /// server closed it), before any response. A preconnect never fails the run.
    func shouldConnectAfresh(after code: CURLcode) -> Bool {
        let connectionFailures = [CURLE_SSL_CONNECT_ERROR, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING,
                                  CURLE_COULDNT_CONNECT]
        return usesOfferedSocket && !connectedAfresh && !receivedResponse && !isCancelled
            && connectionFailures.contains(code) && !deadline.hasPassed
    }

    /// A connect-only transfer: name lookup and TCP connect, no proxy, nothing sent.
    func configureConnectOnly(_ handle: UnsafeMutableRawPointer, milliseconds: Int) -> Bool {
        guard hw_curl_setopt_string(handle, CURLOPT_URL, request.url) == CURLE_OK else { return false }
        hw_curl_restrict_to_http(handle, false)
        _ = hw_curl_setopt_long(handle, CURLOPT_CONNECT_ONLY, 1)
        _ = hw_curl_setopt_string(handle, CURLOPT_PROXY, "")
        _ = hw_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = hw_curl_setopt_long(handle, CURLOPT_QUICK_EXIT, 1)
        _ = hw_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds)
        _ = hw_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
        return true
    }
}
