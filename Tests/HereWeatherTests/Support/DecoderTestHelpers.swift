import Foundation
@testable import HereWeatherCore

/// An HTTP client for providers that must never touch the network (recordings, URLs).
struct UnusedHTTPClient: HTTPClient {
    struct Touched: Error {}
    func get(_ request: HTTPRequest) async throws -> HTTPResponse { throw Touched() }
}

/// Whether `value` is present and within `tolerance` of `expected`.
func approx(_ value: Double?, _ expected: Double, _ tolerance: Double = 1e-9) -> Bool {
    guard let value else { return false }
    return abs(value - expected) <= tolerance
}

func instant(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }
