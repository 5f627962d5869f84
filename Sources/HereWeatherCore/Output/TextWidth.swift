/// Text measured in terminal columns, and the ways text is made to fit a width: cut with an
/// ellipsis, wrapped (at spaces and between wide characters), or laid out as items that flow onto the next line.
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

    /// `text` wrapped into lines of at most `width` columns: at spaces, and between two wide
    /// characters (Chinese, Japanese and Korean run without spaces), never before a closing or
    /// after an opening mark ("、", "）", "（"). A number keeps its unit ("45 min", "30 分"), and a
    /// short word after an opening bracket keeps the next ("(in 30 min)").
    /// A piece wider than a line is cut (`ellipsis`).
    public static func wrap(_ text: String, _ width: Int, ellipsis: String = "…") -> [String] {
        var lines: [String] = []
        var line = ""
        for (joiner, piece) in pieces(text) {
            if !line.isEmpty, columns(line) + columns(joiner) + columns(piece) <= width {
                line += joiner + piece
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = cut(piece, width, ellipsis: ellipsis)
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The pieces a line may break between, each with what joins it to the one before: " " at a
    /// space, "" between two wide characters.
    static func pieces(_ text: String) -> [(joiner: String, piece: String)] {
        var words: [String] = []
        for word in text.split(separator: " ") {
            if let last = words.last, keepsTogether(last, word) || opensBriefly(last) {
                words[words.count - 1] += " " + word
            } else {
                words.append(String(word))
            }
        }
        var result: [(joiner: String, piece: String)] = []
        for word in words {
            var joiner = " "
            var piece = ""
            var previous: Character?
            for character in word {
                if let before = previous, canBreak(between: before, and: character) {
                    result.append((joiner, piece))
                    joiner = ""
                    piece = ""
                }
                piece.append(character)
                previous = character
            }
            result.append((joiner, piece))
        }
        return result
    }

    /// Whether `word`, a number, keeps `next`, its unit, on its line: a short word ("45 min",
    /// "4.9 m/s", "1.4 mm/h", also before a comma or a closing bracket: "45 min,", "30 min)")
    /// or wide characters ("30 分後"); not after a time ("17:35 et lever").
    static func keepsTogether(_ word: String, _ next: Substring) -> Bool {
        guard word.last?.isNumber == true, !word.contains(":"), let first = next.first, !first.isNumber else { return false }
        let unit = next.prefix { !unitEnds.contains($0) }
        return columns(first) == 2 || (!unit.isEmpty && unit.count <= 4)
    }

    /// Whether `word` opens a bracket with a word too short to end a line on ("(in", "(à",
    /// "[ab"): it stays with the next word, so "(in" is never left before "30 min)".
    static func opensBriefly(_ word: String) -> Bool {
        guard let first = word.first, "([".contains(first) else { return false }
        return word.count <= 4 && !word.contains(")") && !word.contains("]")
    }

    /// What may follow a unit in a sentence: "45 min, up to", "(in 30 min)".
    static let unitEnds: Set<Character> = [",", ";", ".", ")", "]", "，", "、", "）"]

    /// `lines` (from `wrap` at `width`) without a last line of one word when the line before
    /// has several: its last word moves down ("... from NWS Tampa Bay Ruskin" / "FL" becomes
    /// "... from NWS Tampa Bay" / "Ruskin FL"). Units stay whole ("45 min").
    public static func withoutWidow(_ lines: [String], width: Int) -> [String] {
        guard lines.count >= 2, let last = lines.last, pieces(last).count == 1 else { return lines }
        let before = pieces(lines[lines.count - 2])
        guard before.count >= 2, let moved = before.last, moved.joiner == " " else { return lines }
        let newLast = moved.piece + " " + last
        guard columns(newLast) <= width else { return lines }
        let kept = before.dropLast().enumerated().map { $0.offset == 0 ? $0.element.piece : $0.element.joiner + $0.element.piece }
        return lines.dropLast(2) + [kept.joined(), newLast]
    }

    /// Whether a line may break between two characters of a word: between two wide ones, unless
    /// the first opens ("（") or the second closes ("、", "）") or is a small kana.
    static func canBreak(between before: Character, and after: Character) -> Bool {
        columns(before) == 2 && columns(after) == 2 && !opening.contains(before) && !closing.contains(after)
    }

    static let opening: Set<Character> = ["（", "「", "『", "【", "〔", "《", "〈", "［", "｛"]
    static let closing: Set<Character> = ["、", "。", "，", "．", "）", "」", "』", "】", "〕", "》", "〉", "］", "｝", "！", "？",
                                          "：", "；", "・", "ー", "々", "ぁ", "ぃ", "ぅ", "ぇ", "ぉ", "っ", "ゃ", "ゅ", "ょ",
                                          "ァ", "ィ", "ゥ", "ェ", "ォ", "ッ", "ャ", "ュ", "ョ"]

    /// `items` joined by `separator` on as few lines as fit in `width` columns: an item that
    /// would pass the edge starts the next line (without the separator). An item wider than
    /// a whole line is wrapped (`wrap`: longer words in other languages than English must not be
    /// cut); only a piece wider than a line is cut (`ellipsis`). Empty items are left out.
    public static func flow(_ items: [String], separator: String, width: Int, ellipsis: String = "…") -> [String] {
        var lines: [String] = []
        var line = ""
        for item in items where !item.isEmpty {
            if !line.isEmpty, columns(line) + columns(separator) + columns(item) <= width {
                line += separator + item
                continue
            }
            if !line.isEmpty { lines.append(line) }
            guard columns(item) > width else {
                line = item
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
