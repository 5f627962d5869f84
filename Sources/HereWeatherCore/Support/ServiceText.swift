/// Text a web service sent (an error's `message`, a failure `status`), made fit to quote in a
/// one-line error message.
///
/// Secrets come out first, before anything is shortened, so that no cut can leave part of
/// one behind. Control characters (line breaks, escape sequences, DEL) become spaces: a
/// service cannot break the message over lines or drive the terminal. Long texts are cut
/// (a weather service's message may end in a useful URL, so the default is generous).
enum ServiceText {
    /// Characters kept from a service's text by default; the rest becomes "…".
    static let maximumLength = 300

    /// `text` with every secret replaced by `[redacted]`, control characters as spaces,
    /// trimmed and at most `maximumLength` characters.
    static func quoted(_ text: String, secrets: [String] = [], maximumLength: Int = maximumLength) -> String {
        var result = text
        for secret in secrets where !secret.isEmpty {
            result = result.replacing(secret, with: "[redacted]")
        }
        let trimmed = oneLine(result).trimmingSpaces
        return trimmed.count > maximumLength ? String(trimmed.prefix(maximumLength)) + "…" : trimmed
    }

    /// `text` with each control character as a space.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(isControl(scalar) ? " " : scalar)
        }
        return String(scalars)
    }

    /// C0 controls (line breaks, tab, ESC), DEL and the C1 controls.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
    }
}

private extension String {
    var trimmingSpaces: String {
        let characters = drop { $0 == " " }
        return String(characters.reversed().drop { $0 == " " }.reversed())
    }
}
