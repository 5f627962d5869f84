/// Text a web service sent, made fit to show: an error's reason in a one-line message, a
/// `Retry-After` value, a place name or condition on a line of the report. `printable` is
/// also the one rule for text the user gave that a message echoes (a `--city` name, a path,
/// a config value): every line written to stderr passes through it.
///
/// Services put line breaks, stack traces, whole pages and escape sequences in such fields.
/// Secrets come out first, before anything is shortened, so that no cut can leave part of
/// one behind; control characters never reach the terminal, so a service can neither break
/// a message over lines nor drive the terminal. Format characters (bidi embeddings, overrides
/// and isolates, zero-width spaces, byte order marks) are removed, so that a service cannot
/// reverse or hide the text around its own (an unclosed U+202E turned a temperature round in
/// a status bar), and line and paragraph separators (U+2028, U+2029) count as controls.
public enum ServiceText {
    /// Quoted text is cut to this many characters by default (a weather service's message may
    /// end in a useful URL, so it is generous).
    public static let maxLength = 300

    /// `text` with every secret replaced by `[redacted]`, every run of whitespace and control
    /// characters as one space, format characters removed, the ends trimmed, and more than `maxLength` characters ending
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

    /// Every run of whitespace and control characters as one space, format characters removed,
    /// the ends trimmed.
    private static func collapsed(_ text: String) -> String {
        var result = ""
        var pendingSpace = false
        for character in printable(text) {
            if character.isWhitespace {
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

    /// `text` with each control character as a space and each format character removed,
    /// otherwise as sent: for values shown on a line of the report (place names, conditions,
    /// alert titles) and for every message line.
    public static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) || isFormat($0) }) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isFormat(scalar) {
            scalars.append(isControl(scalar) ? " " : scalar)
        }
        return String(scalars)
    }

    /// How long a `Retry-After` value asks to wait, for a message: "120 s" for seconds, the
    /// time in UTC for an HTTP date ("2026-10-21 07:28 UTC"); `nil` for anything else, which
    /// is not shown at all (`RetryAfter`).
    static func retryAfter(_ value: String) -> String? {
        RetryAfter(value)?.text
    }

    /// C0 controls (line breaks, tab, ESC), DEL, the C1 controls, and the line and paragraph
    /// separators U+2028 and U+2029.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// Format characters (general category Cf): the bidi embeddings, overrides and isolates
    /// (U+202A-202E, U+2066-2069), the bidi marks, zero-width spaces, the byte order mark, the
    /// soft hyphen, tags. Not the zero-width joiner and non-joiner (U+200C, U+200D): Persian
    /// and Indic place names are spelt with them, and they reorder nothing.
    static func isFormat(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value >= 0xAD else { return false }
        return scalar.properties.generalCategory == .format && scalar.value != 0x200C && scalar.value != 0x200D
    }
}
