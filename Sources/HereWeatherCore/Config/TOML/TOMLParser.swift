/// A TOML 1.0 parser: the document's tables, keys and headers. Values are read by the
/// extensions in TOMLValues.swift, TOMLStrings.swift and TOMLNumbers.swift.
///
/// Written for here-weather's config files so that the binary needs no C++ TOML library (and
/// none of the Foundation and ICU libraries that one brought in); it accepts and rejects what
/// the toml-test suite's TOML 1.0 cases say (Tests/HereWeatherTests/TOMLParserTests.swift).
struct TOMLParser {
    var scanner: TOMLScanner
    /// How deep the value being read sits: the tables of the current header, then one level
    /// per enclosing array or inline table.
    var depth = 0

    /// Deeper nesting than any config needs is refused rather than risking the stack. Arrays,
    /// inline tables and the parts of dotted keys and headers all count, together: each is a
    /// level of the tree the parser builds and every later walk over it.
    static let maximumDepth = 128

    /// Parses a whole document into its root table's members.
    static func parse(_ text: String) throws(TOMLSyntaxError) -> [ConfigMember] {
        var parser = TOMLParser(scanner: TOMLScanner(Array(text.utf8)))
        guard case .table(let members) = try parser.document() else { return [] }
        return members
    }

    /// Parses a document given as bytes, which must be UTF-8.
    static func parse(bytes: [UInt8]) throws(TOMLSyntaxError) -> [ConfigMember] {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw TOMLSyntaxError(line: 1, column: 1, reason: "the file is not UTF-8 text")
        }
        return try parse(text)
    }

    private mutating func document() throws(TOMLSyntaxError) -> ConfigNode {
        let root = TOMLTableBuilder(origin: .header)
        var table = root
        var section = 0
        while !scanner.isAtEnd {
            scanner.skipWhitespace()
            try scanner.skipComment()
            if scanner.isAtEnd || scanner.skipNewline() { continue }
            let start = scanner.index
            if scanner.current == TOMLByte.openBracket {
                section += 1
                depth = 0
                (table, depth) = try header(root: root, start: start)
            } else {
                let (key, value) = try keyValue()
                do {
                    try table.assign(key.names, value, section: section, at: key.positions)
                } catch {
                    throw scanner.error(error.reason, at: start)
                }
                try scanner.finishLine(after: "the value")
            }
        }
        return root.node
    }

    /// A `[table]` or `[[array of tables]]` header line; returns the table it opens and how
    /// deep that table is.
    private mutating func header(root: TOMLTableBuilder, start: Int) throws(TOMLSyntaxError) -> (TOMLTableBuilder, Int) {
        let isArray = scanner.peek(1) == TOMLByte.openBracket
        scanner.advance(isArray ? 2 : 1)
        scanner.skipWhitespace()
        let path = try key()
        scanner.skipWhitespace()
        guard scanner.skip(TOMLByte.closeBracket), !isArray || scanner.skip(TOMLByte.closeBracket) else {
            throw scanner.error(isArray ? "expected ]] to close the [[table]] header" : "expected ] to close the [table] header")
        }
        let table: TOMLTableBuilder
        do {
            table = isArray ? try root.appendTable(path.names, at: path.positions)
                : try root.openTable(path.names, at: path.positions)
        } catch {
            throw scanner.error(error.reason, at: start)
        }
        try scanner.finishLine(after: "the table header")
        return (table, path.names.count)
    }

    /// `key = value`, from the key to the end of the value.
    mutating func keyValue() throws(TOMLSyntaxError) -> (TOMLKey, ConfigNode) {
        let key = try key()
        scanner.skipWhitespace()
        guard scanner.skip(TOMLByte.equals) else {
            throw scanner.error("expected = after the key (keys with spaces or dots need quotes)")
        }
        scanner.skipWhitespace()
        // The value sits below the key's tables.
        depth += key.names.count
        defer { depth -= key.names.count }
        return (key, try value())
    }

    /// A key: bare or quoted names joined by dots, each with where it is written.
    mutating func key() throws(TOMLSyntaxError) -> TOMLKey {
        var key = TOMLKey()
        repeat {
            scanner.skipWhitespace()
            try checkDepth(depth + key.names.count + 1)
            key.positions.append(scanner.cursorPosition())
            key.names.append(try simpleKey())
            scanner.skipWhitespace()
        } while scanner.skip(TOMLByte.dot)
        return key
    }

    /// Throws at the cursor when `level` is deeper than `maximumDepth`.
    func checkDepth(_ level: Int) throws(TOMLSyntaxError) {
        guard level > Self.maximumDepth else { return }
        throw scanner.error("nested more than \(Self.maximumDepth) levels deep (arrays, inline tables and the parts of dotted keys together); a config needs a few")
    }

    private mutating func simpleKey() throws(TOMLSyntaxError) -> String {
        switch scanner.current {
        case TOMLByte.quote?:
            return try basicString()
        case TOMLByte.apostrophe?:
            return try literalString()
        default:
            let start = scanner.index
            while let byte = scanner.current, TOMLByte.isBareKey(byte) { scanner.advance() }
            guard scanner.index > start else {
                throw scanner.error("expected a key (letters, digits, _ and -, or a quoted string)")
            }
            return String(decoding: scanner.bytes[start..<scanner.index], as: UTF8.self)
        }
    }
}

/// A dotted key as written: its names, and where each name starts.
struct TOMLKey {
    var names: [String] = []
    var positions: [TOMLPosition] = []
}
