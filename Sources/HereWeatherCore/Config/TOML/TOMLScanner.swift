/// A cursor over the UTF-8 bytes of a TOML document: whitespace, comments, newlines, and
/// errors that carry a line and column.
struct TOMLScanner {
    let bytes: [UInt8]
    var index = 0
    /// The byte offset at which each line starts, for `position(at:)`.
    private let lineStarts: [Int]
    /// The last position `cursorPosition()` gave, with its offset: the next one on the same
    /// line counts on from it, so a long line of keys is not counted over and over.
    private var lastPosition: (offset: Int, position: TOMLPosition)?

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == TOMLByte.lineFeed { starts.append(offset + 1) }
        lineStarts = starts
    }

    var isAtEnd: Bool { index >= bytes.count }
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    func peek(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    /// Whether the bytes at the cursor are `text` (ASCII).
    func looksAt(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pointer = text.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] { return false }
        return true
    }

    mutating func advance(_ count: Int = 1) { index += count }

    /// Skips `byte` if it is at the cursor.
    mutating func skip(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    /// Skips spaces and tabs.
    mutating func skipWhitespace() {
        while let byte = current, byte == TOMLByte.space || byte == TOMLByte.tab { index += 1 }
    }

    /// Skips a newline (LF or CRLF) at the cursor.
    mutating func skipNewline() -> Bool {
        if current == TOMLByte.lineFeed { index += 1; return true }
        if current == TOMLByte.carriageReturn, peek(1) == TOMLByte.lineFeed { index += 2; return true }
        return false
    }

    /// Skips a comment at the cursor, up to (not including) its newline.
    mutating func skipComment() throws(TOMLSyntaxError) {
        guard current == TOMLByte.hash else { return }
        index += 1
        while let byte = current, byte != TOMLByte.lineFeed {
            if byte == TOMLByte.carriageReturn, peek(1) == TOMLByte.lineFeed { return }
            if TOMLByte.isControl(byte) { throw error("a control character in a comment") }
            index += 1
        }
    }

    /// Skips whitespace, comments and newlines (between the elements of an array).
    mutating func skipBlankLines() throws(TOMLSyntaxError) {
        while true {
            skipWhitespace()
            try skipComment()
            if !skipNewline() { return }
        }
    }

    /// Skips to the start of the next line, allowing only whitespace and a comment on the way.
    mutating func finishLine(after what: String) throws(TOMLSyntaxError) {
        skipWhitespace()
        try skipComment()
        if isAtEnd || skipNewline() { return }
        throw error("unexpected text after \(what) (one key = value or [table] per line; comments start with #)")
    }

    /// An error at byte `offset` (the cursor by default).
    func error(_ reason: String, at offset: Int? = nil) -> TOMLSyntaxError {
        let place = position(at: offset ?? index)
        return TOMLSyntaxError(line: place.line, column: place.column, reason: reason)
    }

    /// The line and column of the cursor (which only moves forward).
    mutating func cursorPosition() -> TOMLPosition {
        if let last = lastPosition, last.offset <= index,
           last.position.line >= lineStarts.count || index < lineStarts[last.position.line] {
            let column = bytes[last.offset..<index].reduce(last.position.column) { $1 & 0xC0 != 0x80 ? $0 + 1 : $0 }
            let position = TOMLPosition(line: last.position.line, column: column)
            lastPosition = (index, position)
            return position
        }
        let position = position(at: index)
        lastPosition = (index, position)
        return position
    }

    /// The line and column of byte `offset`: a binary search over the line starts, then the
    /// characters (UTF-8 lead bytes) before it on its line.
    func position(at offset: Int) -> TOMLPosition {
        let end = min(max(offset, 0), bytes.count)
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= end { low = middle } else { high = middle - 1 }
        }
        let column = bytes[lineStarts[low]..<end].reduce(1) { $1 & 0xC0 != 0x80 ? $0 + 1 : $0 }
        return TOMLPosition(line: low + 1, column: column)
    }
}

/// The ASCII bytes TOML's grammar names.
enum TOMLByte {
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22
    static let hash: UInt8 = 0x23
    static let apostrophe: UInt8 = 0x27
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let dot: UInt8 = 0x2E
    static let colon: UInt8 = 0x3A
    static let equals: UInt8 = 0x3D
    static let openBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D
    static let underscore: UInt8 = 0x5F
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D

    /// A control character TOML does not allow unescaped (tab is allowed).
    static func isControl(_ byte: UInt8) -> Bool { (byte < 0x20 && byte != tab) || byte == 0x7F }
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66) }
    static func isLetter(_ byte: UInt8) -> Bool { byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A }
    /// A character of a bare key: A-Z a-z 0-9 _ -.
    static func isBareKey(_ byte: UInt8) -> Bool { isDigit(byte) || isLetter(byte) || byte == underscore || byte == minus }
}
