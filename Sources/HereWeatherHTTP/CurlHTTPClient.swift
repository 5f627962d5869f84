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

/// The HTTP client: libcurl's easy interface, one blocking transfer (a GET, or a POST with
/// its body) on a thread of its own.
///
/// libcurl starts as fast as the `curl` command and honours the request's deadline for the
/// whole exchange (name lookup, connect, TLS, body). Cancelling the task aborts the
/// transfer. Only http and https are allowed, redirects are followed up to 5 times (from
/// an https request only to https: no downgrade), and bodies over the request's limit are
/// refused.
public struct CurlHTTPClient: HTTPClient {
    /// Sent with every request.
    public static let userAgent = "here-weather/0.1 (+https://github.com/here-weather/here-weather)"

    private static let globalInit: CURLcode = hw_curl_global_init()

    /// A PEM file of certificate authorities to trust instead of the system's (tests with a
    /// local TLS server); `nil`: the system's.
    public let certificateAuthorities: String?

    public init(certificateAuthorities: String? = nil) {
        self.certificateAuthorities = certificateAuthorities
    }

    public func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        _ = Self.globalInit
        let transfer = CurlTransfer(request: request, certificateAuthorities: certificateAuthorities)
        return try await BlockingCall.run({ transfer.perform() }, onCancel: { transfer.cancel() })
    }
}

/// The state of one transfer, shared with libcurl's callbacks through an unmanaged pointer.
final class CurlTransfer: @unchecked Sendable {
    let request: HTTPRequest
    let host: String
    let certificateAuthorities: String?
    /// Whether the request is https: its redirects may then only be https.
    let isSecure: Bool
    private var body: [UInt8] = []
    private var headers: [String: String] = [:]
    private var bodyTooLarge = false
    /// Whether an HTTP response with a final (not 1xx) status line arrived: a protocol error
    /// after one is about its redirect, before one means the peer does not speak HTTP.
    private var receivedResponse = false
    private let cancelled = Atomic<Bool>(false)

    init(request: HTTPRequest, certificateAuthorities: String? = nil) {
        self.request = request
        self.host = ServiceURL(request.url).shown
        self.certificateAuthorities = certificateAuthorities
        self.isSecure = request.url.lowercased().hasPrefix("https://")
    }

    func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Runs the transfer to its end; called once, on one thread.
    func perform() -> Result<HTTPResponse, Error> {
        let remaining = ContinuousClock.now.duration(to: request.deadline)
        let milliseconds = remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
        guard milliseconds > 0 else { return .failure(HTTPError.timedOut(host)) }
        // Checked here, so that libcurl's "unsupported protocol" only ever means a refused
        // redirect or a peer that does not speak HTTP.
        guard ServiceURL.isHTTP(request.url) else { return .failure(HTTPError.invalidURL) }
        guard let handle = hw_curl_easy_init() else { return .failure(HTTPError.transferFailed("libcurl could not start (is libcurl4 installed?)")) }
        defer { hw_curl_easy_cleanup(handle) }

        var headerList: UnsafeMutablePointer<curl_slist>?
        headerList = hw_curl_slist_append(headerList, "Accept: application/json")
        for header in request.headers {
            headerList = hw_curl_slist_append(headerList, "\(header.name): \(header.value)")
        }
        // No "Expect: 100-continue" before a larger body: it costs a round trip, or a second
        // with servers that ignore it.
        if request.body != nil { headerList = hw_curl_slist_append(headerList, "Expect:") }
        defer { hw_curl_slist_free_all(headerList) }

        let context = Unmanaged.passUnretained(self).toOpaque()
        guard hw_curl_setopt_string(handle, CURLOPT_URL, request.url) == CURLE_OK else {
            return .failure(HTTPError.invalidURL)
        }
        hw_curl_restrict_to_http(handle, isSecure)
        if let certificateAuthorities { _ = hw_curl_setopt_string(handle, CURLOPT_CAINFO, certificateAuthorities) }
        _ = hw_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = hw_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(milliseconds))
        _ = hw_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(milliseconds))
        _ = hw_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
        _ = hw_curl_setopt_long(handle, CURLOPT_MAXREDIRS, 5)
        _ = hw_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")
        _ = hw_curl_setopt_string(handle, CURLOPT_USERAGENT, CurlHTTPClient.userAgent)
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

        let code = hw_curl_easy_perform(handle)
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
            return osError == Int(ECONNREFUSED) ? .connectionRefused(host) : .cannotConnect(host)
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

    fileprivate var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
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
