import CCurl
#if canImport(Glibc)
import Glibc
#endif
import HereWeatherCore
import Synchronization

/// The process's one libcurl multi handle, driven by one thread of its own: every transfer
/// of a run shares its connection cache, DNS cache and CA store.
///
/// Why one multi handle (measured with libcurl 7.88.1 and OpenSSL 3.0, Debian 12): the CA
/// bundle (139 certificates, ~235M instructions) is loaded once per connection unless libcurl's
/// CA cache keeps it, and that cache lives in a multi handle, so separate easy handles (even
/// sharing a `CURLSH`) each load it again. The cache also needs no CA directory
/// (`CURLOPT_CAPATH`), which Debian's libcurl sets by default (see `CurlTransfer.configure`).
/// Transfers to one host still open a connection each when they run at once: a second TLS
/// handshake costs ~6M instructions, while waiting for the first connection would cost a
/// round trip and the server's time on every HTTP/1.1 service. Measured (docs/benchmark.md)
/// through a relay adding 50 ms of round trip to a server taking 100 ms per answer:
/// `CURLMOPT_MAX_HOST_CONNECTIONS` 1 made OpenWeatherMap's run 106 ms slower, and
/// `CURLOPT_PIPEWAIT` (one connection over HTTP/2) made it 12 ms slower over HTTP/1.1.
final class CurlSession: @unchecked Sendable {
    static let shared = CurlSession()

    /// Transfers handed over by `start`, not yet added to the multi handle.
    private let submitted = Mutex<[CurlTransfer]>([])
    /// Created on the first transfer; `nil` when libcurl is missing or could not start.
    private let multi: UnsafeMutableRawPointer?
    /// Why `multi` is `nil`.
    private let startFailure: HTTPError
    /// Whether the loop thread runs. It enforces every deadline, so no transfer is handed over
    /// without it; a thread refused (at the process limit) is tried again by the next transfer.
    private let loopRunning = Mutex(false)
    /// Owned by the loop thread alone.
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// Owned by the loop thread alone: preconnected sockets and the requests waiting for them.
    private var preconnects = CurlPreconnects()
    /// Owned by the loop thread alone: transfers to add on its next turn (released by a
    /// preconnect's end, or to be sent again on a connection of their own).
    private var ready: [CurlTransfer] = []

    private init() {
        let initialised = hw_curl_global_init()
        multi = hw_curl_multi_init()
        startFailure = CurlSession.whyNoLibcurl(initialised: initialised)
    }

    /// Why libcurl gave no multi handle: not installed, or (out of descriptors or memory)
    /// installed but unable to load or start.
    private static func whyNoLibcurl(initialised: CURLcode) -> HTTPError {
        if !hw_curl_is_loaded() {
            let words = String(cString: hw_curl_load_error())
            if let code = [EMFILE, ENFILE, ENOMEM].first(where: { words.contains(String(cString: strerror($0))) }) {
                return .noResources("cannot load libcurl: " + ResourceShortage.reason(code))
            }
            if words.contains("failed to map segment") {  // the address space limit (ulimit -v)
                return .noResources("cannot load libcurl: " + ResourceShortage.reason(ENOMEM))
            }
            if !words.isEmpty, !words.contains(String(cString: strerror(ENOENT))) {
                return .transferFailed("libcurl could not be loaded: " + ServiceText.oneLine(words))
            }
        } else {
            return .noResources("libcurl could not start: "
                + (initialised == CURLE_OUT_OF_MEMORY ? "out of memory" : "too many open files, or out of memory"))
        }
        return .transferFailed("libcurl could not start (is libcurl4 installed?)")
    }

    /// Starts the loop thread unless it runs; the error when the system refuses a thread.
    private func startLoop() throws(HTTPError) {
        try loopRunning.withLock { (running: inout Bool) throws(HTTPError) in
            guard !running else { return }
            let code = BlockingCall.startThreadOrError { [unowned self] in self.loop() }
            guard code == 0 else { throw .noResources(ResourceShortage.thread(code)) }
            running = true
        }
    }

    /// Runs `transfer` to its end; cancelling the task ends it with `HTTPError.cancelled`.
    func perform(_ transfer: CurlTransfer) async throws -> HTTPResponse {
        guard multi != nil else { throw startFailure }
        try startLoop()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.continuation = continuation
                submitted.withLock { $0.append(transfer) }
                wake()
            }
        } onCancel: {
            transfer.cancel()
            wake()
        }
    }

    /// Starts `transfers`, connect-only ones (`CurlHTTPClient.preconnect`), without waiting
    /// for them; nothing happens when libcurl or its thread is not available.
    func preconnect(_ transfers: [CurlTransfer]) {
        guard multi != nil, !transfers.isEmpty, (try? startLoop()) != nil else { return }
        submitted.withLock { $0.append(contentsOf: transfers) }
        wake()
    }

    /// Ends the loop thread's wait (a transfer was submitted or cancelled); any thread.
    private func wake() {
        if let multi { _ = hw_curl_multi_wakeup(multi) }
    }

    /// The loop thread: adds submitted transfers, drives libcurl, and finishes each transfer
    /// that is done, cancelled or past its deadline.
    private func loop() {
        guard let multi else { return }
        while true {
            let incoming = ready + submitted.withLock({ pending in defer { pending = [] }; return pending })
            ready = []
            for transfer in incoming {
                if transfer.isCancelled { transfer.finish(.failure(HTTPError.cancelled)); continue }
                if transfer.isPreconnect {
                    // A request to the origin under way is connecting already.
                    guard let origin = transfer.origin, !isBusy(origin) else { continue }
                    preconnects.started(origin)
                } else {
                    if preconnects.hold(transfer) { continue }
                    preconnects.offerSocket(to: transfer)
                }
                add(transfer)
            }
            var running: Int32 = 0
            _ = hw_curl_multi_perform(multi, &running)
            var handle: UnsafeMutableRawPointer?
            var code = CURLE_OK
            while hw_curl_multi_next_done(multi, &handle, &code), let done = handle {
                end(done, with: code)
            }
            // libcurl checks a transfer's timeout only once it has a connection: one waiting
            // in its queue is ended here, at its deadline.
            let now = TransportDeadline.now
            for (handle, transfer) in active where transfer.isCancelled || transfer.deadline <= now {
                end(handle, with: transfer.isCancelled ? CURLE_ABORTED_BY_CALLBACK : CURLE_OPERATION_TIMEDOUT)
            }
            for transfer in preconnects.sweep(now: now) {
                transfer.finish(.failure(transfer.isCancelled ? HTTPError.cancelled : HTTPError.timedOut(transfer.host)))
            }
            if !ready.isEmpty { continue }
            _ = hw_curl_multi_poll(multi, pollTimeout(now: now))
        }
    }

    /// Makes `transfer`'s handle and adds it to the multi handle, or finishes it with the error.
    private func add(_ transfer: CurlTransfer) {
        guard let multi else { return }
        switch transfer.makeHandle() {
        case .success(let handle):
            active[handle] = transfer
            _ = hw_curl_multi_add_handle(multi, handle)
        case .failure(let error):
            transfer.finish(.failure(error))
        }
    }

    /// Whether a request to `origin` is under way or held.
    private func isBusy(_ origin: CurlOrigin) -> Bool {
        active.values.contains { !$0.isPreconnect && $0.origin == origin } || preconnects.isHolding(origin)
    }

    /// Removes `handle` from the multi handle and finishes its transfer with `code`: a
    /// preconnect leaves its socket for the requests to its origin; a request whose offered
    /// socket turned out dead is sent again on a connection of its own.
    private func end(_ handle: UnsafeMutableRawPointer, with code: CURLcode) {
        guard let multi, let transfer = active.removeValue(forKey: handle) else { return }
        if transfer.isPreconnect, let origin = transfer.origin {
            let socket = code == CURLE_OK ? ParkedSocket(takingFrom: handle, deadline: transfer.deadline) : nil
            _ = hw_curl_multi_remove_handle(multi, handle)
            transfer.release(handle)
            ready += preconnects.ended(origin, leaving: socket)
            return
        }
        if transfer.shouldConnectAfresh(after: code) {
            _ = hw_curl_multi_remove_handle(multi, handle)
            transfer.release(handle)
            transfer.prepareToConnectAfresh()
            ready.append(transfer)
            return
        }
        let result = transfer.result(for: code, handle: handle)
        _ = hw_curl_multi_remove_handle(multi, handle)
        transfer.release(handle)
        transfer.finish(result)
    }

    /// Milliseconds until the nearest deadline, at most a second (libcurl shortens it to its
    /// own timers; a wake-up ends it early); with no transfer and none held, as long as
    /// libcurl allows (24 days): the thread then waits for the next `wake` alone, so that a
    /// `--follow` between fetches does not wake every second (issue 31).
    func pollTimeout(now: TransportDeadline) -> Int32 {
        let deadlines = active.values.map(\.deadline) + [preconnects.nearestHeldDeadline].compactMap { $0 }
        guard let nearest = deadlines.map({ now.duration(to: $0) }).min() else { return Int32.max }
        let milliseconds = nearest.wholeMilliseconds + 1
        return Int32(max(1, min(1000, milliseconds)))
    }
}
