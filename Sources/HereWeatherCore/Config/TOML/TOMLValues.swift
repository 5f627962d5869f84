/// TOML values: dispatch on the first character, arrays and inline tables.
extension TOMLParser {
    /// The value at the cursor.
    mutating func value() throws(TOMLSyntaxError) -> ConfigNode {
        switch scanner.current {
        case TOMLByte.quote?:
            return .string(scanner.looksAt("\"\"\"") ? try multilineBasicString() : try basicString())
        case TOMLByte.apostrophe?:
            return .string(scanner.looksAt("'''") ? try multilineLiteralString() : try literalString())
        case TOMLByte.openBracket?:
            return try array()
        case TOMLByte.openBrace?:
            return try inlineTable()
        case let byte? where TOMLByte.isDigit(byte) || byte == TOMLByte.plus || byte == TOMLByte.minus
            || byte == UInt8(ascii: "i") || byte == UInt8(ascii: "n"):
            return try numberOrDate()
        case UInt8(ascii: "t")? where scanner.looksAt("true"):
            scanner.advance(4)
            return .bool(true)
        case UInt8(ascii: "f")? where scanner.looksAt("false"):
            scanner.advance(5)
            return .bool(false)
        default:
            throw scanner.error("expected a value: a \"quoted string\", a number, true or false, [array] or {table}")
        }
    }

    /// `[ value, value, ... ]`, over several lines if need be, with an optional trailing comma.
    private mutating func array() throws(TOMLSyntaxError) -> ConfigNode {
        try enter()
        defer { depth -= 1 }
        scanner.advance()
        var elements: [ConfigNode] = []
        while true {
            try scanner.skipBlankLines()
            if scanner.skip(TOMLByte.closeBracket) { return .array(elements) }
            elements.append(try value())
            try scanner.skipBlankLines()
            if scanner.skip(TOMLByte.comma) { continue }
            if scanner.skip(TOMLByte.closeBracket) { return .array(elements) }
            throw scanner.error("expected , or ] in the array")
        }
    }

    /// `{ key = value, ... }` on one line, no trailing comma; finished once closed.
    private mutating func inlineTable() throws(TOMLSyntaxError) -> ConfigNode {
        try enter()
        defer { depth -= 1 }
        scanner.advance()
        let table = TOMLTableBuilder(origin: .header)
        scanner.skipWhitespace()
        if scanner.skip(TOMLByte.closeBrace) { return table.node }
        while true {
            scanner.skipWhitespace()
            let start = scanner.index
            let (key, value) = try keyValue()
            do {
                try table.assign(key.names, value, section: 0, at: key.positions)
            } catch {
                throw scanner.error(error.reason, at: start)
            }
            scanner.skipWhitespace()
            if scanner.skip(TOMLByte.comma) { continue }
            if scanner.skip(TOMLByte.closeBrace) { return table.node }
            throw scanner.error("expected , or } in the inline table (inline tables stay on one line)")
        }
    }

    /// One level deeper, into an array or inline table at the cursor.
    private mutating func enter() throws(TOMLSyntaxError) {
        try checkDepth(depth + 1)
        depth += 1
    }
}
