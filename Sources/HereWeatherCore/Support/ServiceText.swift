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
    static func quoted(_ text: String, secrets: [String], maximumLength: Int = maximumLength) -> String {
        var result = text
        for secret in secrets where !secret.isEmpty {
            result = result.replacing(secret, with: "[redacted]")
        }
        var scalars = String.UnicodeScalarView()
        for scalar in result.unicodeScalars {
            scalars.append(isControl(scalar) ? " " : scalar)
        }
        let trimmed = String(scalars).trimmingSpaces
        return trimmed.count > maximumLength ? String(trimmed.prefix(maximumLength)) + "…" : trimmed
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
