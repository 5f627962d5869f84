/// Text that is not valid TOML 1.0: where the problem is and what it is.
///
/// The reason never quotes the text, which may hold a secret (an API key someone forgot to quote).
public struct TOMLSyntaxError: Error, Equatable, CustomStringConvertible {
    /// 1-based line.
    public let line: Int
    /// 1-based column, counted in characters (Unicode scalars).
    public let column: Int
    /// What is wrong, e.g. "expected a value after =".
    public let reason: String

    public var description: String { reason }
}

/// Where something is written in a TOML document: 1-based line and column (in characters).
public struct TOMLPosition: Sendable, Equatable {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}
