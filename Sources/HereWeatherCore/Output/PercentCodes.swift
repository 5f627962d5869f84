/// The one parser for texts with %-codes (`--format`, `[output] format_error`): literal text,
/// `%x` codes looked up in a table, and `%%` for a percent sign.
public enum PercentCodes {
    /// A piece of a parsed text: text to copy, or a value to fill in.
    public enum Token<Code: Sendable & Equatable>: Sendable, Equatable {
        case literal(String)
        case code(Code)
    }

    /// Why a text could not be parsed.
    public enum Failure: Error, Equatable {
        /// `%` followed by a letter that is not in the table.
        case unknownCode(Character)
        /// A `%` at the very end.
        case loneTrailingPercent
    }

    /// `text` split into literals and the codes of `codes` (by the letter after `%`).
    public static func parse<Code>(_ text: String, codes: [Character: Code]) throws(Failure) -> [Token<Code>] {
        var tokens: [Token<Code>] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            guard character == "%" else {
                literal.append(character)
                continue
            }
            guard index < text.endIndex else { throw .loneTrailingPercent }
            let letter = text[index]
            index = text.index(after: index)
            if letter == "%" {
                literal.append("%")
                continue
            }
            guard let code = codes[letter] else { throw .unknownCode(letter) }
            if !literal.isEmpty { tokens.append(.literal(literal)) }
            literal = ""
            tokens.append(.code(code))
        }
        if !literal.isEmpty { tokens.append(.literal(literal)) }
        return tokens
    }

    /// The text with each code replaced by `value(code)`.
    public static func render<Code>(_ tokens: [Token<Code>], value: (Code) -> String) -> String {
        tokens.map { token in
            switch token {
            case .literal(let text): return text
            case .code(let code): return value(code)
            }
        }.joined()
    }
}
