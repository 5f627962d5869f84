import Synchronization

/// An HTTP client that reports each request exactly as sent (its header fields as
/// `HTTPRequest.sentHeaders` gives them), with secrets redacted, and how it ended: what
/// `--verbose` prints.
///
/// Requests run at once (the weather beside its alerts), so each exchange has a number, and
/// every line of it starts with it ("[2] GET ...", "[2] -> HTTP 200 ..."): lines of
/// exchanges that overlap can be told apart.
public struct LoggingHTTPClient: HTTPClient {
    public let base: any HTTPClient
    /// Values never to show (API keys, tokens), besides the query parameters that hold keys.
    public let secrets: [String]
    public let log: @Sendable (String) -> Void
    private let exchanges = ExchangeCounter()

    /// Query parameters whose values are always redacted.
    static let secretParameters: Set<String> = ["appid", "token", "key", "api_key", "apikey", "access_key"]

    public init(base: any HTTPClient, secrets: [String], log: @escaping @Sendable (String) -> Void) {
        self.base = base
        self.secrets = secrets.filter { !$0.isEmpty }
        self.log = log
    }

    public func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        let number = "[\(exchanges.next())]"
        var lines = ["\(number) \(request.method) \(redact(request.url))"]
        for header in request.sentHeaders {
            let secret = header.name.lowercased() == "authorization"
            lines.append("\(number)   \(header.name): \(secret ? "[redacted]" : redact(header.value))")
        }
        if let body = request.body {
            lines.append("\(number)   body: " + (request.loggedBody.map(redact) ?? "\(body.count) bytes"))
        }
        for line in lines { log(line) }
        let started = ContinuousClock.now
        do {
            let response = try await base.get(request)
            log("\(number) -> HTTP \(response.status), \(response.body.count) bytes, \(milliseconds(since: started)) ms")
            return response
        } catch let error as HTTPError {
            log("\(number) -> failed after \(milliseconds(since: started)) ms: \(error.summary)")
            throw error
        }
    }

    public func preconnect(to url: String, connections: Int, until deadline: ContinuousClock.Instant) {
        base.preconnect(to: url, connections: connections, until: deadline)
    }

    /// `url` with secret query values and every known secret replaced by `[redacted]`.
    public func redact(_ url: String) -> String {
        var text = url
        if let question = text.firstIndex(of: "?") {
            let query = text[text.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false)
            let cleaned = query.map { item -> String in
                let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, Self.secretParameters.contains(parts[0].lowercased()) else { return String(item) }
                return "\(parts[0])=[redacted]"
            }
            text = String(text[...question]) + cleaned.joined(separator: "&")
        }
        for secret in secrets {
            text = text.replacing(secret, with: "[redacted]")
            text = text.replacing(URLText.encode(secret), with: "[redacted]")
        }
        return text
    }

    private func milliseconds(since start: ContinuousClock.Instant) -> Int64 {
        let elapsed = ContinuousClock.now - start
        return elapsed.wholeMilliseconds
    }
}

/// The numbers of a run's HTTP exchanges, from 1.
final class ExchangeCounter: Sendable {
    private let last = Atomic<Int>(0)

    func next() -> Int {
        last.add(1, ordering: .relaxed).newValue
    }
}
