/// Joins whole messages into one line of sentences: the one place several failures become
/// one error line.
///
/// Each message keeps its own ending (a full stop is added where one is missing), and they
/// follow one another after a space: never glued with ";" after a full stop (".;").
public enum Sentences {
    /// `parts` as sentences on one line; blank parts are left out.
    public static func join(_ parts: [String]) -> String {
        parts.map(trimmed).filter { !$0.isEmpty }.map(ended).joined(separator: " ")
    }

    /// `text` ending in ".", "!" or "?" (a full stop added when it ends otherwise).
    static func ended(_ text: String) -> String {
        guard let last = text.last, !".!?".contains(last) else { return text }
        return text + "."
    }

    static func trimmed(_ text: String) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
