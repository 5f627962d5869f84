#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The bytes libFuzzer hands a target.
public struct FuzzInput {
    public let bytes: UnsafeBufferPointer<UInt8>

    public init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        bytes = UnsafeBufferPointer(start: data, count: size)
    }

    public var data: Data { Data(bytes) }

    /// The first byte chooses among `choices` (`scripts/fuzz` writes it in front of each
    /// seed); the rest is the body. `nil` for an empty input.
    public func split<T>(choosingFrom choices: [T]) -> (T, Data)? {
        guard let first = bytes.first, !choices.isEmpty else { return nil }
        return (choices[Int(first) % choices.count], Data(bytes.dropFirst()))
    }
}
