/// TOML's four kinds of strings: "basic" (with escapes), 'literal', and their """multi-line"""
/// '''forms'''.
extension TOMLParser {
    /// `"text"` on one line, with escapes.
    mutating func basicString() throws(TOMLSyntaxError) -> String {
        scanner.advance()
        var text: [UInt8] = []
        while true {
            guard let byte = scanner.current, byte != TOMLByte.lineFeed, byte != TOMLByte.carriageReturn else {
                throw scanner.error("the string is not closed on its line (use \"\"\" for a multi-line string)")
            }
            switch byte {
            case TOMLByte.quote:
                scanner.advance()
                return String(decoding: text, as: UTF8.self)
            case TOMLByte.backslash:
                try escape(into: &text)
            default:
                try append(byte, to: &text)
            }
        }
    }

    /// `'text'` on one line, taken as written.
    mutating func literalString() throws(TOMLSyntaxError) -> String {
        scanner.advance()
        var text: [UInt8] = []
        while true {
            guard let byte = scanner.current, byte != TOMLByte.lineFeed, byte != TOMLByte.carriageReturn else {
                throw scanner.error("the string is not closed on its line (use ''' for a multi-line string)")
            }
            if byte == TOMLByte.apostrophe {
                scanner.advance()
                return String(decoding: text, as: UTF8.self)
            }
            try append(byte, to: &text)
        }
    }

    /// `"""text"""`, with escapes and line-ending backslashes.
    mutating func multilineBasicString() throws(TOMLSyntaxError) -> String {
        try multiline(delimiter: TOMLByte.quote) { parser, text throws(TOMLSyntaxError) in
            guard parser.scanner.current == TOMLByte.backslash else { return false }
            var probe = parser.scanner
            probe.advance()
            probe.skipWhitespace()
            if probe.skipNewline() {
                // A line-ending backslash: drop it and all whitespace and newlines after it.
                parser.scanner = probe
                while true {
                    parser.scanner.skipWhitespace()
                    if !parser.scanner.skipNewline() { break }
                }
            } else {
                try parser.escape(into: &text)
            }
            return true
        }
    }

    /// `'''text'''`, taken as written.
    mutating func multilineLiteralString() throws(TOMLSyntaxError) -> String {
        try multiline(delimiter: TOMLByte.apostrophe) { _, _ in false }
    }

    /// The body of a multi-line string; `special` handles what it recognises at the cursor
    /// (escapes) and returns whether it did.
    private mutating func multiline(
        delimiter: UInt8, special: (inout TOMLParser, inout [UInt8]) throws(TOMLSyntaxError) -> Bool
    ) throws(TOMLSyntaxError) -> String {
        scanner.advance(3)
        _ = scanner.skipNewline()  // a newline right after the opening delimiter is not part of the text
        var text: [UInt8] = []
        while true {
            guard let byte = scanner.current else {
                throw scanner.error("the multi-line string is not closed")
            }
            if byte == delimiter {
                var run = 0
                while scanner.peek(run) == delimiter { run += 1 }
                if run >= 3 {
                    // Up to two delimiter characters may end the text right before the closing three.
                    guard run <= 5 else { throw scanner.error("too many quotes at the end of the multi-line string", at: scanner.index + 5) }
                    text += repeatElement(delimiter, count: run - 3)
                    scanner.advance(run)
                    return String(decoding: text, as: UTF8.self)
                }
                text += repeatElement(delimiter, count: run)
                scanner.advance(run)
            } else if try special(&self, &text) {
                continue
            } else if byte == TOMLByte.lineFeed {
                text.append(byte)
                scanner.advance()
            } else if scanner.skipNewline() {
                text += [TOMLByte.carriageReturn, TOMLByte.lineFeed]
            } else {
                try append(byte, to: &text)
            }
        }
    }

    /// Appends a byte of string text, refusing control characters.
    private mutating func append(_ byte: UInt8, to text: inout [UInt8]) throws(TOMLSyntaxError) {
        guard !TOMLByte.isControl(byte) else {
            throw scanner.error("a control character in a string (write it as an escape such as \\t or \\u0007)")
        }
        text.append(byte)
        scanner.advance()
    }

    /// A backslash escape at the cursor: \b \t \n \f \r \" \\ \uXXXX \UXXXXXXXX.
    private mutating func escape(into text: inout [UInt8]) throws(TOMLSyntaxError) {
        let start = scanner.index
        scanner.advance()
        let simple: UInt8?
        switch scanner.current {
        case UInt8(ascii: "b")?: simple = 0x08
        case UInt8(ascii: "t")?: simple = TOMLByte.tab
        case UInt8(ascii: "n")?: simple = TOMLByte.lineFeed
        case UInt8(ascii: "f")?: simple = 0x0C
        case UInt8(ascii: "r")?: simple = TOMLByte.carriageReturn
        case TOMLByte.quote?: simple = TOMLByte.quote
        case TOMLByte.backslash?: simple = TOMLByte.backslash
        case UInt8(ascii: "u")?: simple = nil
        case UInt8(ascii: "U")?: simple = nil
        default: throw scanner.error("an unknown escape in a string (\\\\ writes a backslash)", at: start)
        }
        if let simple {
            text.append(simple)
            scanner.advance()
            return
        }
        let count = scanner.current == UInt8(ascii: "u") ? 4 : 8
        scanner.advance()
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let byte = scanner.current, TOMLByte.isHexDigit(byte), let digit = UInt32(String(UnicodeScalar(byte)), radix: 16) else {
                throw scanner.error("\\u needs 4 and \\U 8 hexadecimal digits", at: start)
            }
            value = value << 4 | digit
            scanner.advance()
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw scanner.error("the escape names no Unicode character", at: start)
        }
        text += Array(String(Character(scalar)).utf8)
    }
}
