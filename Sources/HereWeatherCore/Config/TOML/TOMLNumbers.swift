/// TOML integers (decimal, 0x, 0o, 0b, with _ between digits), floats (with inf and nan), and
/// dates and times, which are checked but kept only as their kind: no key here takes one.
extension TOMLParser {
    mutating func numberOrDate() throws(TOMLSyntaxError) -> ConfigNode {
        if let kind = try dateOrTime() { return .other(kind) }
        let start = scanner.index
        while let byte = scanner.current, TOMLByte.isBareKey(byte) || byte == TOMLByte.plus || byte == TOMLByte.dot {
            scanner.advance()
        }
        guard let node = Self.number(scanner.bytes[start..<scanner.index]) else {
            throw scanner.error("not a valid number (write text in \"quotes\")", at: start)
        }
        return node
    }

    /// The integer or float `token` spells, or nil.
    static func number(_ token: ArraySlice<UInt8>) -> ConfigNode? {
        var body = token
        let negative = body.first == TOMLByte.minus
        let signed = negative || body.first == TOMLByte.plus
        if signed { body = body.dropFirst() }
        if body.elementsEqual("inf".utf8) { return .float(negative ? -.infinity : .infinity) }
        if body.elementsEqual("nan".utf8) { return .float(.nan) }

        if body.count > 2, body.first == UInt8(ascii: "0"), !signed {
            let radix: Int
            switch body[body.startIndex + 1] {
            case UInt8(ascii: "x"): radix = 16
            case UInt8(ascii: "o"): radix = 8
            case UInt8(ascii: "b"): radix = 2
            default: radix = 0
            }
            if radix != 0 {
                guard let digits = Self.digits(body.dropFirst(2), radix: radix) else { return nil }
                return Int(digits, radix: radix).map { .integer($0) }
            }
        }

        // Decimal: integer part, then an optional .fraction and e-exponent.
        var rest = body
        let integerPart = rest.prefix { $0 != TOMLByte.dot && $0 | 0x20 != UInt8(ascii: "e") }
        rest = rest.dropFirst(integerPart.count)
        guard let integer = Self.digits(integerPart, radix: 10),
              integer == "0" || !integer.hasPrefix("0") else { return nil }
        var text = (negative ? "-" : "") + integer
        guard !rest.isEmpty else { return Int(text).map { .integer($0) } }
        if rest.first == TOMLByte.dot {
            let fraction = rest.dropFirst().prefix { $0 | 0x20 != UInt8(ascii: "e") }
            guard let digits = Self.digits(fraction, radix: 10) else { return nil }
            text += "." + digits
            rest = rest.dropFirst(1 + fraction.count)
        }
        if !rest.isEmpty {
            var exponent = rest.dropFirst()
            var sign = ""
            if let first = exponent.first, first == TOMLByte.plus || first == TOMLByte.minus {
                sign = first == TOMLByte.minus ? "-" : ""
                exponent = exponent.dropFirst()
            }
            guard let digits = Self.digits(exponent, radix: 10) else { return nil }
            text += "e" + sign + digits
        }
        return Double(text).map { .float($0) }
    }

    /// The digits of `token` without its underscores, each of which must sit between two
    /// digits; nil if anything else is there.
    private static func digits(_ token: ArraySlice<UInt8>, radix: Int) -> String? {
        var digits: [UInt8] = []
        var previousWasDigit = false
        for byte in token {
            if byte == TOMLByte.underscore {
                guard previousWasDigit else { return nil }
                previousWasDigit = false
                continue
            }
            let valid = switch radix {
            case 16: TOMLByte.isHexDigit(byte)
            case 8: byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "7")
            case 2: byte == UInt8(ascii: "0") || byte == UInt8(ascii: "1")
            default: TOMLByte.isDigit(byte)
            }
            guard valid else { return nil }
            digits.append(byte)
            previousWasDigit = true
        }
        guard previousWasDigit else { return nil }
        return String(decoding: digits, as: UTF8.self)
    }

    /// A date, time or date-time at the cursor (RFC 3339 as TOML 1.0 has it): its kind, or nil
    /// when the cursor is not at one.
    private mutating func dateOrTime() throws(TOMLSyntaxError) -> String? {
        let start = scanner.index
        if pattern("dddd-dd-dd") {
            let year = number(at: 0, 4), month = number(at: 5, 2), day = number(at: 8, 2)
            guard (1...12).contains(month), (1...Self.days(inMonth: month, year: year)).contains(day) else {
                throw scanner.error("not a valid date", at: start)
            }
            scanner.advance(10)
            let separator = scanner.current.map { $0 | 0x20 }
            guard separator == UInt8(ascii: "t") || (separator == UInt8(ascii: " ") && pattern("dd:", at: 1)) else {
                return "date"
            }
            scanner.advance()
            try time(start: start)
            if scanner.current.map({ $0 | 0x20 }) == UInt8(ascii: "z") {
                scanner.advance()
                return "date-time"
            }
            if let sign = scanner.current, sign == TOMLByte.plus || sign == TOMLByte.minus {
                guard pattern("dd:dd", at: 1), number(at: 1, 2) < 24, number(at: 4, 2) < 60 else {
                    throw scanner.error("not a valid time zone offset (write Z or +HH:MM)", at: start)
                }
                scanner.advance(6)
                return "date-time"
            }
            return "local date-time"
        }
        if pattern("dd:") {
            try time(start: start)
            return "time"
        }
        return nil
    }

    /// HH:MM:SS with optional .fraction at the cursor.
    private mutating func time(start: Int) throws(TOMLSyntaxError) {
        guard pattern("dd:dd:dd"), number(at: 0, 2) < 24, number(at: 3, 2) < 60, number(at: 6, 2) <= 60 else {
            throw scanner.error("not a valid time (write HH:MM:SS)", at: start)
        }
        scanner.advance(8)
        if scanner.current == TOMLByte.dot {
            scanner.advance()
            guard let digit = scanner.current, TOMLByte.isDigit(digit) else {
                throw scanner.error("not a valid time (fractional seconds need digits)", at: start)
            }
            while let byte = scanner.current, TOMLByte.isDigit(byte) { scanner.advance() }
        }
    }

    /// Whether the bytes at the cursor (plus `offset`) match `shape`, where d is a digit.
    private func pattern(_ shape: StaticString, at offset: Int = 0) -> Bool {
        let pointer = shape.utf8Start
        for position in 0..<shape.utf8CodeUnitCount {
            guard let byte = scanner.peek(offset + position) else { return false }
            let expected = pointer[position]
            if expected == UInt8(ascii: "d") ? !TOMLByte.isDigit(byte) : byte != expected { return false }
        }
        return true
    }

    /// The decimal number of `count` digits at the cursor plus `offset`.
    private func number(at offset: Int, _ count: Int) -> Int {
        (0..<count).reduce(0) { $0 * 10 + Int((scanner.peek(offset + $1) ?? 0x30) - 0x30) }
    }

    private static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
