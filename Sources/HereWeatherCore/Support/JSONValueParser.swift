/// Reads JSON text (RFC 8259) into a `JSONValue`, byte by byte.
///
/// `JSONDecoder` decoding into `JSONValue`'s `Decodable` conformance tries each kind in turn
/// and throws on every miss; on a weather body (thousands of numbers) that took most of a
/// cached run's time. This parser reads each value once.
struct JSONValueParser {
    /// Deeper nesting than any service sends is refused rather than risking the stack.
    static let maximumDepth = 256

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The document in `bytes`; throws `JSONValue.ParseError` when it is not exactly one JSON value.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONValue.ParseError) -> JSONValue {
        var parser = JSONValueParser(bytes)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("more text after the JSON value") }
        return value
    }

    /// A parse error at the cursor, with its line and column (1-based, in bytes).
    private func failure(_ reason: String = "not valid JSON") -> JSONValue.ParseError {
        let end = min(index, bytes.count)
        var line = 1
        var lineStart = 0
        for offset in 0..<end where bytes[offset] == 0x0A {
            line += 1
            lineStart = offset + 1
        }
        return JSONValue.ParseError(line: line, column: end - lineStart + 1, reason: reason)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    private mutating func expect(_ word: StaticString) throws(JSONValue.ParseError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw failure() }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw failure() }
        index += count
    }

    private mutating func value(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw failure("nested more than \(Self.maximumDepth) levels deep") }
        guard let byte = current else { throw failure() }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func object(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure() }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure() }
            index += 1
            skipWhitespace()
            members[key] = try value(depth: depth + 1)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ",")?: index += 1
            case UInt8(ascii: "}")?: index += 1; return .object(members)
            default: throw failure()
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ",")?: index += 1
            case UInt8(ascii: "]")?: index += 1; return .array(elements)
            default: throw failure()
            }
        }
    }

    /// A number as JSON writes it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    private mutating func number() throws(JSONValue.ParseError) -> Double {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, isDigit(first) else { throw failure() }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if current == UInt8(ascii: ".") {
            index += 1
            guard try requireDigit() else { throw failure() }
        }
        if let byte = current, byte | 0x20 == UInt8(ascii: "e") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard try requireDigit() else { throw failure() }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        // Too large for a Double (1e999): refused, as JSONDecoder does, rather than infinity.
        guard let value = Double(text), value.isFinite else { throw failure() }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private mutating func skipDigits() {
        while let byte = current, isDigit(byte) { index += 1 }
    }

    private mutating func requireDigit() throws(JSONValue.ParseError) -> Bool {
        guard let byte = current, isDigit(byte) else { return false }
        skipDigits()
        return true
    }

    private mutating func string() throws(JSONValue.ParseError) -> String {
        index += 1
        let start = index
        // The common case: no escapes, so the text is the bytes as they are.
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw failure() }
            index += 1
        }
        var text = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while true {
            guard let byte = current, byte >= 0x20 else { throw failure() }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = String(validating: text, as: UTF8.self) else { throw failure() }
                return string
            case UInt8(ascii: "\\"):
                try escape(into: &text)
            default:
                text.append(byte)
            }
        }
    }

    private mutating func escape(into text: inout [UInt8]) throws(JSONValue.ParseError) {
        guard let byte = current else { throw failure() }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(byte)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by an escaped low one.
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw failure()
                }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw failure() }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let character = Unicode.Scalar(scalar) else { throw failure() }
            text.append(contentsOf: Array(String(Character(character)).utf8))
        default:
            throw failure()
        }
    }

    private mutating func hex4() throws(JSONValue.ParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x37
            case 0x61...0x66: digit = byte - 0x57
            default: throw failure()
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
