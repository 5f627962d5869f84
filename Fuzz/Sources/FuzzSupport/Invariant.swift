#if canImport(Glibc)
import Glibc
#endif

/// Stops the fuzzer with `message` when an invariant does not hold: libFuzzer reports the
/// trap as a crash and saves the input that caused it.
public func require(_ condition: Bool, _ message: @autoclosure () -> String,
                    file: StaticString = #fileID, line: UInt = #line) {
    guard !condition else { return }
    fatalError("invariant broken: \(message())", file: file, line: line)
}

/// Requires `value` to be a finite number, when there is one.
public func requireFinite(_ value: Double?, _ what: @autoclosure () -> String,
                          file: StaticString = #fileID, line: UInt = #line) {
    guard let value else { return }
    require(value.isFinite, "\(what()) is \(value)", file: file, line: line)
}
