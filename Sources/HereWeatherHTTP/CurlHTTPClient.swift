import CCurl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import HereWeatherCore
import Synchronization

/// The HTTP client: libcurl, every transfer on the process's one multi handle
/// (`CurlSession`), so that a run loads the CA bundle once and reuses connections.
///
/// libcurl starts as fast as the `curl` command and honours the request's deadline for the
/// whole exchange (name lookup, connect, TLS, body). Cancelling the task aborts the
/// transfer. Only http and https are allowed, redirects are followed up to 5 times unless
/// the request says not to (`HTTPRequest.followsRedirects`; from
/// an https request only to https: no downgrade), and bodies over the request's limit are
/// refused.
public struct CurlHTTPClient: HTTPClient {
    /// Sent with every request.
    public static let userAgent = HTTPRequest.defaultUserAgent

    /// The certificate authorities https requests trust.
    public let trust: CertificateTrust

    /// `trust`: the system's CAs unless the environment names others
    /// (`CertificateTrust.fromEnvironment`), or a test's own CA.
    public init(trust: CertificateTrust = CertificateTrust()) {
        self.trust = trust
    }

    public func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await CurlSession.shared.perform(CurlTransfer(request: request, trust: trust))
    }
}

/// The state of one transfer, shared with libcurl's callbacks through an unmanaged pointer.
/// Created by the caller, then used by `CurlSession`'s loop thread alone.
final class CurlTransfer: @unchecked Sendable {
    let request: HTTPRequest
    let host: String
    let trust: CertificateTrust
    /// Whether the request is https: its redirects may then only be https.
    let isSecure: Bool
    /// Resumed once, by `finish`; set before the transfer is handed to the loop thread.
    var continuation: CheckedContinuation<HTTPResponse, Error>?
    private var body: [UInt8] = []
    private var headers: [String: String] = [:]
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var bodyTooLarge = false
    /// Whether an HTTP response with a final (not 1xx) status line arrived: a protocol error
    /// after one is about its redirect, before one means the peer does not speak HTTP.
    private(set) var receivedResponse = false
    private let cancelled = Atomic<Bool>(false)
    /// Where it connects (`CurlPreconnects` keeps sockets under it).
    let origin: CurlOrigin?
    /// A connect-only transfer that opens a connection for a later request to `origin`.
    let isPreconnect: Bool
    /// The sockets libcurl opens for this transfer (`hw_curl_open_sockets_through`): a
    /// preconnected socket offered to it, until `release`, and the errno of a socket the
    /// system refused (0: none).
    let adoption: UnsafeMutablePointer<hw_curl_adoption> = {
        let adoption = UnsafeMutablePointer<hw_curl_adoption>.allocate(capacity: 1)
        adoption.initialize(to: hw_curl_adoption(offered: -1, adopted: -1, peer: sockaddr_storage(), peer_length: 0, refused_errno: 0))
        return adoption
    }()
    /// Whether the request was already sent again on a connection of its own.
    private(set) var connectedAfresh = false

    init(request: HTTPRequest, trust: CertificateTrust = CertificateTrust(), preconnectTo origin: CurlOrigin? = nil) {
        self.request = request
        self.host = ServiceURL(request.url).shown
        self.trust = trust
        self.isSecure = request.url.lowercased().hasPrefix("https://")
        self.origin = origin ?? CurlOrigin(request.url)
        self.isPreconnect = origin != nil
    }

    /// Starts over, to be sent again without an offered socket.
    func prepareToConnectAfresh() {
        connectedAfresh = true
        body = []
        headers = [:]
        bodyTooLarge = false
        receivedResponse = false
    }

    deinit { adoption.deallocate() }

    func cancel() { cancelled.store(true, ordering: .relaxed) }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Resumes the caller with `result`.
    func finish(_ result: Result<HTTPResponse, Error>) {
        continuation?.resume(with: result)
        continuation = nil
    }

    /// An easy handle set up for this transfer, ready to add to the multi handle.
    func makeHandle() -> Result<UnsafeMutableRawPointer, HTTPError> {
        let remaining = ContinuousClock.now.duration(to: request.deadline)
        let milliseconds = remaining.wholeMilliseconds
        guard milliseconds > 0 else { return .failure(HTTPError.timedOut(host)) }
        // Checked here, so that libcurl's "unsupported protocol" only ever means a refused
        // redirect or a peer that does not speak HTTP.
        guard ServiceURL.isHTTP(request.url) else { return .failure(HTTPError.invalidURL) }
        guard let handle = hw_curl_easy_init() else { return .failure(HTTPError.transferFailed("libcurl could not start (is libcurl4 installed?)")) }
        guard configure(handle, milliseconds: Int(milliseconds)) else {
            release(handle)
            return .failure(HTTPError.invalidURL)
        }
        return .success(handle)
    }

    /// Frees the easy handle and what it was given.
    func release(_ handle: UnsafeMutableRawPointer) {
        hw_curl_easy_cleanup(handle)
        hw_curl_slist_free_all(headerList)
        headerList = nil
        // An offered socket libcurl did not take (it reused a connection, or connected to
        // another address) is closed; one it took, it closed.
        if adoption.pointee.offered >= 0 {
            _ = close(adoption.pointee.offered)
            adoption.pointee.offered = -1
        }
    }

    /// The hosts reached without a proxy: the user's `no_proxy` (or `NO_PROXY`, as libcurl
    /// reads them), and always the loopback addresses, so that a loopback service's requests,
    /// keys included, never leave the machine through `ALL_PROXY` or `http_proxy`. Setting the
    /// option replaces libcurl's reading of the variables, hence the user's list first.
    static let noProxy: String = {
        let loopback = "localhost,127.0.0.0/8,::1"
        let user = [getenv("no_proxy"), getenv("NO_PROXY")].lazy.compactMap { $0.map { String(cString: $0) } }
            .first { !$0.isEmpty }
        guard let user else { return loopback }
        return user.filter { $0 != " " } == "*" ? "*" : user + "," + loopback
    }()

    /// Sets the transfer's options on `handle`; false when libcurl refuses the URL.
    private func configure(_ handle: UnsafeMutableRawPointer, milliseconds: Int) -> Bool {
        if isPreconnect { return configureConnectOnly(handle, milliseconds: milliseconds) }
        // Exactly the fields --verbose shows (`sentHeaders`: one Accept, one User-Agent).
        for header in request.sentHeaders {
            headerList = hw_curl_slist_append(headerList, "\(header.name): \(header.value)")
        }
        // No "Expect: 100-continue" before a larger body: it costs a round trip, or a second
        // with servers that ignore it.
        if request.body != nil { headerList = hw_curl_slist_append(headerList, "Expect:") }

        let context = Unmanaged.passUnretained(self).toOpaque()
        guard hw_curl_setopt_string(handle, CURLOPT_URL, request.url) == CURLE_OK else { return false }
        hw_curl_restrict_to_http(handle, isSecure)
        // A bundle alone (no CA directory) is loaded once per run: libcurl keeps it in the
        // multi handle's CA cache, which needs no directory. A hashed system directory instead
        // of the bundle (`CertificateTrust`): OpenSSL reads only the certificates a chain needs.
        if let bundle = trust.bundle {
            _ = hw_curl_setopt_string(handle, CURLOPT_CAINFO, bundle)
        } else if !trust.systemBundle {
            _ = hw_curl_setopt_string(handle, CURLOPT_CAINFO, nil)
        }
        _ = hw_curl_setopt_string(handle, CURLOPT_CAPATH, trust.directory)
        _ = hw_curl_setopt_string(handle, CURLOPT_NOPROXY, CurlTransfer.noProxy)
        _ = hw_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        hw_curl_open_sockets_through(handle, adoption)
        // A transfer ended while its name lookup still runs must not wait for getaddrinfo on
        // the one loop thread (libcurl would join the resolver thread, stalling every other
        // transfer): the lookup thread is left to finish on its own (libcurl 7.87 or later).
        _ = hw_curl_setopt_long(handle, CURLOPT_QUICK_EXIT, 1)
        _ = hw_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds)
        _ = hw_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
        _ = hw_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, request.followsRedirects ? 1 : 0)
        _ = hw_curl_setopt_long(handle, CURLOPT_MAXREDIRS, 5)
        // Decodes what the Accept-Encoding field (in the list) offers.
        _ = hw_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, HTTPRequest.acceptEncoding)
        _ = hw_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList)
        if request.method == "POST" {
            let body = [UInt8](request.body ?? Data())
            _ = hw_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, body.count)
            // Copied by libcurl: binary-safe with the size set first.
            _ = body.withUnsafeBytes { hw_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress)) }
        }
        _ = hw_curl_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, curlWriteBody)
        _ = hw_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        _ = hw_curl_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader)
        _ = hw_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        _ = hw_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
        _ = hw_curl_setopt_xferinfo_function(handle, curlProgress)
        _ = hw_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context)
        return true
    }

    /// The response, or the error for `code`, once libcurl is done with `handle`.
    func result(for code: CURLcode, handle: UnsafeMutableRawPointer) -> Result<HTTPResponse, Error> {
        guard code == CURLE_OK else { return .failure(error(for: code, handle: handle)) }
        var status = 0
        _ = hw_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return .success(HTTPResponse(status: status, headers: headers, body: Data(body)))
    }

    private func error(for code: CURLcode, handle: UnsafeMutableRawPointer) -> HTTPError {
        if bodyTooLarge { return .bodyTooLarge(limit: request.maxBodyBytes) }
        if cancelled.load(ordering: .relaxed) { return .cancelled }
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .cannotResolveHost(host)
        case CURLE_COULDNT_CONNECT:
            var osError = 0
            _ = hw_curl_getinfo_long(handle, CURLINFO_OS_ERRNO, &osError)
            if osError == Int(ECONNREFUSED) { return .connectionRefused(host) }
            // No socket: the system is out of descriptors or memory, not the network.
            let refused = adoption.pointee.refused_errno
            if refused == EMFILE || refused == ENFILE || refused == ENOMEM || refused == ENOBUFS {
                return .noResources("cannot connect to \(host): " + ResourceShortage.reason(refused == ENOBUFS ? ENOMEM : refused))
            }
            return .cannotConnect(host)
        case CURLE_OPERATION_TIMEDOUT: return .timedOut(host)
        // The request's own scheme is allowed (checked before the transfer), so after a
        // response this is its redirect to a scheme refused: plain http from https.
        case CURLE_UNSUPPORTED_PROTOCOL where receivedResponse:
            return isSecure ? .insecureRedirect(host) : .transferFailed("redirected to a scheme other than http(s)")
        // Before any response: the peer answered with something that is not HTTP (an SSH
        // banner, garbage, a 100 Continue and then a body), which libcurl reports as a
        // refused HTTP/0.9 answer or a weird reply.
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_WEIRD_SERVER_REPLY: return .notHTTP(host)
        case CURLE_URL_MALFORMAT: return .invalidURL
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE:
            return .tlsFailure(host)
        case CURLE_TOO_MANY_REDIRECTS: return .transferFailed("too many redirects")
        // libcurl refuses a header over 100 KB with this code; real exhaustion gives it too.
        case CURLE_OUT_OF_MEMORY: return .transferFailed("the response's headers were larger than libcurl accepts (100 KB), or memory ran out")
        default: return .transferFailed(String(cString: hw_curl_easy_strerror(code)))
        }
    }

    fileprivate func appendBody(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard body.count + bytes.count <= request.maxBodyBytes else {
            bodyTooLarge = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    fileprivate func appendHeader(_ line: String) {
        if line.hasPrefix("HTTP/") {  // a new response (after a redirect or a 1xx): start over
            headers = [:]
            let status = line.split(separator: " ", maxSplits: 2).dropFirst().first
            if let status, !status.hasPrefix("1") { receivedResponse = true }
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingWhitespace()
        headers[name] = value
    }
}

private func curlWriteBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
                           _ context: UnsafeMutableRawPointer?) -> Int {
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let accepted = data.withMemoryRebound(to: UInt8.self, capacity: length) {
        transfer.appendBody(UnsafeBufferPointer(start: $0, count: length))
    }
    return accepted ? length : 0
}

private func curlWriteHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
                             _ context: UnsafeMutableRawPointer?) -> Int {
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let line = data.withMemoryRebound(to: UInt8.self, capacity: length) {
        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
    transfer.appendHeader(line)
    return length
}

private func curlProgress(_ context: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloaded: curl_off_t,
                          _ uploadTotal: curl_off_t, _ uploaded: curl_off_t) -> Int32 {
    guard let context else { return 0 }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
}

extension Substring {
    func trimmingWhitespace() -> String {
        // Character.isWhitespace, because "\r\n" is one Character.
        guard let start = firstIndex(where: { !$0.isWhitespace }), let end = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[start...end])
    }
}
