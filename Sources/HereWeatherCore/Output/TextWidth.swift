/// Text measured in terminal columns, and the ways text is made to fit a width: cut with an
/// ellipsis, wrapped at spaces, or laid out as items that flow onto the next line.
///
/// A terminal gives most characters one column; emoji and East Asian wide characters two
/// ("☀️", "🌧️", "雨"); combining marks, variation selectors and joiners none (they belong to
/// the character before them). Every width in the text report is measured with this, so
/// a column of emoji lines up with a column of letters.
public enum TextWidth {
    /// The columns `text` takes on a terminal. ANSI colour sequences (`ESC [ ... m`) take none.
    public static func columns(_ text: String) -> Int {
        var total = 0
        var inEscape = false
        for character in text {
            if inEscape {
                if character.isLetter { inEscape = false }
                continue
            }
            if character == "\u{1B}" {
                inEscape = true
                continue
            }
            total += columns(character)
        }
        return total
    }

    /// The columns one character (a grapheme cluster) takes: 0, 1 or 2.
    static func columns(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x20 || (0x7F..<0xA0).contains(first.value) { return 0 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        // An emoji shown as an emoji: by default, or asked for with VS16 (U+FE0F).
        if first.properties.isEmojiPresentation { return 2 }
        if first.properties.isEmoji && scalars.contains("\u{FE0F}") && first.value > 0xFF { return 2 }
        return isWide(first.value) ? 2 : 1
    }

    /// East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth.txt, W and F).
    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// `text` padded on the right with spaces to `width` columns.
    public static func pad(_ text: String, _ width: Int) -> String {
        let used = columns(text)
        return used >= width ? text : text + String(repeating: " ", count: width - used)
    }

    /// `text` cut to at most `width` columns, ending in `ellipsis` ("…", or "..." in ASCII)
    /// when anything was cut. Plain text only: a colour sequence would be counted by its
    /// characters.
    public static func cut(_ text: String, _ width: Int, ellipsis: String = "…") -> String {
        guard columns(text) > width else { return text }
        guard width > 0 else { return "" }
        let mark = columns(ellipsis) <= width ? ellipsis : String(ellipsis.prefix(width))
        var kept = ""
        var used = 0
        for character in text {
            let size = columns(character)
            if used + size > width - columns(mark) { break }
            kept.append(character)
            used += size
        }
        return kept.trimmingSuffixSpaces + mark
    }

    /// `text` wrapped at spaces into lines of at most `width` columns. A word longer than a
    /// line is cut (`ellipsis`).
    public static func wrap(_ text: String, _ width: Int, ellipsis: String = "…") -> [String] {
        flow(text.split(separator: " ").map(String.init), separator: " ", width: width, ellipsis: ellipsis)
    }

    /// `items` joined by `separator` on as few lines as fit in `width` columns: an item that
    /// would pass the edge starts the next line (without the separator). An item wider than
    /// a whole line is wrapped at its spaces (longer words in other languages than English must
    /// not be cut); only a word wider than a line is cut (`ellipsis`). Empty items are left out.
    public static func flow(_ items: [String], separator: String, width: Int, ellipsis: String = "…") -> [String] {
        var lines: [String] = []
        var line = ""
        for item in items where !item.isEmpty {
            if !line.isEmpty, columns(line) + columns(separator) + columns(item) <= width {
                line += separator + item
                continue
            }
            if !line.isEmpty { lines.append(line) }
            guard columns(item) > width, item.contains(" ") else {
                line = cut(item, width, ellipsis: ellipsis)
                continue
            }
            let wrapped = wrap(item, width, ellipsis: ellipsis)
            lines += wrapped.dropLast()
            line = wrapped.last ?? ""
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
