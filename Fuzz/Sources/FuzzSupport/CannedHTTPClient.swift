#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HereWeatherCore

/// An `HTTPClient` that answers every request with the same response: the fuzz input as the
/// body. A real server per input would be a thousand times slower; the code under test is
/// what reads the response, not what fetches it (the tests cover that against a real server).
public struct CannedHTTPClient: HTTPClient {
    public let response: HTTPResponse

    public init(_ response: HTTPResponse) { self.response = response }

    /// For a provider that must have a client but will not use it (decoding a recording).
    public static let unused = CannedHTTPClient(HTTPResponse(status: 500, body: Data()))

    public func get(_ request: HTTPRequest) async throws -> HTTPResponse { response }
}
