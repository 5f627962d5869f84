/// A number written in decimal, as people and web services write coordinates and seconds:
/// an optional sign, digits with an optional fraction, an optional exponent (`-82.46`,
/// `.5`, `1e3`). Swift's `Double(String)` also reads hexadecimal (`0x10` is 16), `inf` and
/// `nan`, which are no coordinate or timeout anyone meant: they are refused here.
public enum DecimalText {
    /// The value of `text`, or `nil` for anything but a finite decimal number.
    public static func number<S: StringProtocol>(_ text: S) -> Double? {
        guard isDecimal(text.utf8) else { return nil }
        return Double(String(text)).flatMap { $0.isFinite ? $0 : nil }
    }

    /// Whether the bytes spell `[+-]?(digits[.digits?] | .digits)([eE][+-]?digits)?`.
    static func isDecimal<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var index = bytes.startIndex
        func peek() -> UInt8? { index < bytes.endIndex ? bytes[index] : nil }
        func digits() -> Int {
            var count = 0
            while let byte = peek(), (0x30...0x39).contains(byte) {
                count += 1
                index = bytes.index(after: index)
            }
            return count
        }
        if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index = bytes.index(after: index) }
        var mantissa = digits()
        if peek() == UInt8(ascii: ".") {
            index = bytes.index(after: index)
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index = bytes.index(after: index)
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index = bytes.index(after: index) }
            guard digits() > 0 else { return false }
        }
        return index == bytes.endIndex
    }
}
