/// Text a web service sent, made fit to show: an error's reason in a one-line message, a
/// `Retry-After` value, a place name or condition on a line of the report.
///
/// Services put line breaks, stack traces, whole pages and escape sequences in such fields.
/// Secrets come out first, before anything is shortened, so that no cut can leave part of
/// one behind; control characters never reach the terminal, so a service can neither break
/// a message over lines nor drive the terminal.
public enum ServiceText {
    /// Quoted text is cut to this many characters by default (a weather service's message may
    /// end in a useful URL, so it is generous).
    public static let maxLength = 300

    /// `text` with every secret replaced by `[redacted]`, every run of whitespace and control
    /// characters as one space, the ends trimmed, and more than `maxLength` characters ending
    /// in "…".
    static func quoted(_ text: String, secrets: [String] = [], maxLength: Int = maxLength) -> String {
        cut(collapsed(redacted(text, secrets)), maxLength)
    }

    /// As `quoted`, without a final full stop: for text that ends a clause of a message, which
    /// supplies its own.
    public static func oneLine(_ text: String, secrets: [String] = [], maxLength: Int = maxLength) -> String {
        var result = collapsed(redacted(text, secrets))
        while result.hasSuffix(".") { result.removeLast() }
        return cut(result, maxLength)
    }

    private static func redacted(_ text: String, _ secrets: [String]) -> String {
        var result = text
        for secret in secrets where !secret.isEmpty {
            result = result.replacing(secret, with: "[redacted]")
        }
        return result
    }

    /// Every run of whitespace and control characters as one space, the ends trimmed.
    private static func collapsed(_ text: String) -> String {
        var result = ""
        var pendingSpace = false
        for character in text {
            if character.isWhitespace || character.unicodeScalars.allSatisfy(isControl) {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace { result.append(" ") }
            pendingSpace = false
            result.append(character)
        }
        return result
    }

    /// More than `maxLength` characters end in "…".
    private static func cut(_ text: String, _ maxLength: Int) -> String {
        text.count > maxLength ? String(text.prefix(maxLength)) + "…" : text
    }

    /// `text` with each control character as a space, otherwise as sent: for values shown on
    /// a line of the report (place names, conditions, alert titles).
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(isControl(scalar) ? " " : scalar)
        }
        return String(scalars)
    }

    /// How long a `Retry-After` value asks to wait, for a message: "120 s" for seconds, else
    /// the value itself (an HTTP date, "Wed, 21 Oct 2026 07:28:00 GMT").
    static func retryAfter(_ value: String) -> String {
        let text = oneLine(value)
        if let seconds = Int(text), seconds >= 0 { return "\(seconds) s" }
        return text
    }

    /// C0 controls (line breaks, tab, ESC), DEL and the C1 controls.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
    }
}
