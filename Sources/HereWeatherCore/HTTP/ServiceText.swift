/// Text a web service sent (an error's reason, a `Retry-After` value), made fit to quote in a
/// one-line message: services put line breaks, stack traces and whole pages in such fields.
enum ServiceText {
    /// Quoted text is cut to this many characters.
    static let maxLength = 200

    /// `text` on one line: every run of whitespace and control characters becomes one space,
    /// the ends are trimmed (and a final full stop, which the message supplies), and more than
    /// `maxLength` characters end in "…".
    static func oneLine(_ text: String) -> String {
        var result = ""
        var pendingSpace = false
        for character in text {
            if character.isWhitespace || character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace { result.append(" ") }
            pendingSpace = false
            result.append(character)
        }
        while result.hasSuffix(".") { result.removeLast() }
        return result.count > maxLength ? String(result.prefix(maxLength)) + "…" : result
    }

    /// How long a `Retry-After` value asks to wait, for a message: "120 s" for seconds, else
    /// the value itself (an HTTP date, "Wed, 21 Oct 2026 07:28:00 GMT").
    static func retryAfter(_ value: String) -> String {
        let text = oneLine(value)
        if let seconds = Int(text), seconds >= 0 { return "\(seconds) s" }
        return text
    }
}
