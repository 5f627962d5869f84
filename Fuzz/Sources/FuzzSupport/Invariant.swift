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

/// Requires `text` to be plain lines: no control characters but line breaks, no DEL or C1
/// controls (an escape sequence from a service would drive the user's terminal).
public func requirePlainText(_ text: String, _ what: @autoclosure () -> String,
                             file: StaticString = #fileID, line: UInt = #line) {
    let control = text.unicodeScalars.first { ($0.value < 0x20 && $0 != "\n") || (0x7F..<0xA0).contains($0.value) }
    require(control == nil, "\(what()) has the control character \(control.map { String($0.value, radix: 16) } ?? ""): \(text.debugDescription)",
            file: file, line: line)
}
