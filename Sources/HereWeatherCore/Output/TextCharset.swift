/// The characters the text output may use: any (`utf8`), or only ASCII (`ascii`) for a
/// terminal whose locale is not UTF-8 (`LANG=C`, a Latin-1 locale).
///
/// `locale(_:)` decides it for a run (`OutputSettings.forLocale`); the renderers (text report,
/// hourly chart, `--format`, waybar's text and tooltip, `where`) take it and draw their own
/// symbols in it, so columns are measured on what is printed. `[output] icons = "ascii"`
/// changes only the glyphs (conditions, wind arrows, bars): in a UTF-8 locale the words and
/// names keep their letters ("晴れ", "Zürich"). `doctor` and the spinner, English only, are
/// ASCII with ASCII icons too (`choose`). In ASCII: "°C" is "C" ("°F" "F"), "°" after a coordinate is dropped,
/// "·" is "-", "≈" is "~", "±" is "+/-", "…" is "...", block bars are `_,-~=+*#`, and text from
/// elsewhere (a place name, a service's words) is folded: accented Latin letters lose their
/// accents ("Zürich" "Zurich"), anything else becomes "?". JSON output is always UTF-8.
public enum TextCharset: Sendable, Equatable {
    case utf8
    case ascii

    /// The set for `doctor`'s checks and the spinner (English, mostly glyphs): ASCII when `icons`
    /// is `ascii` or the locale is not UTF-8.
    public static func choose(environment: [String: String], icons: GlyphSet) -> TextCharset {
        icons == .ascii ? .ascii : locale(environment)
    }

    /// The locale's set, as the C library picks the locale for characters: `LC_ALL`, else
    /// `LC_CTYPE`, else `LANG` (the first one set and not empty). UTF-8 when its codeset (after
    /// the ".", before any "@") is UTF-8 ("C.UTF-8", "en_US.utf8"); ASCII otherwise, and when
    /// none is set: that is the C locale.
    public static func locale(_ environment: [String: String]) -> TextCharset {
        let name = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
        guard let dot = name.firstIndex(of: ".") else { return .ascii }
        let codeset = name[name.index(after: dot)...].prefix { $0 != "@" }.lowercased()
        return codeset == "utf-8" || codeset == "utf8" ? .utf8 : .ascii
    }

    /// The degree sign after a coordinate ("27.95°N"); none in ASCII ("27.95N").
    public var degree: String { self == .utf8 ? "°" : "" }
    /// Between items on a line: " · ", or " - ".
    public var separator: String { self == .utf8 ? " · " : " - " }
    /// Before an estimate: "≈", or "~".
    public var approximately: String { self == .utf8 ? "≈" : "~" }
    /// Before an accuracy: "±", or "+/-".
    public var plusMinus: String { self == .utf8 ? "±" : "+/-" }
    /// At the end of cut text or a waiting message: "…", or "...".
    public var ellipsis: String { self == .utf8 ? "…" : "..." }

    /// The temperature unit's symbol: "°C", or "C" in ASCII.
    public func temperatureSymbol(_ units: Units) -> String {
        self == .utf8 ? units.temperatureSymbol : units.temperatureSymbol.replacing("°", with: "")
    }

    /// `text` in this set: unchanged in UTF-8; in ASCII each character that is not ASCII is
    /// replaced (`asciiFallback`).
    public func fold(_ text: String) -> String {
        guard self == .ascii, !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        var folded = ""
        for character in text {
            if character.isASCII { folded.append(character) } else { folded += Self.asciiFallback(character) }
        }
        return folded
    }

    /// `text` with its glyphs in ASCII and its words as they are: what `icons = "ascii"` does to
    /// a format's own text in a UTF-8 locale ("🌡️" and "🌬️" of wttr.in's presets left out).
    public static func asciiGlyphs(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        var result = ""
        for character in text {
            guard let first = character.unicodeScalars.first else { continue }
            let glyph = (first.properties.isEmoji && !first.isASCII && first.value > 0xFF) || (0x2190...0x21FF).contains(first.value)
            if glyph { result += asciiFallback(character) } else { result.append(character) }
        }
        return result
    }

    /// The symbols the output uses, in ASCII. The condition emoji are their ASCII glyphs
    /// (`Condition.glyph`); a wind arrow is the compass point the wind comes from, as ASCII
    /// `%w` writes it ("↙4.9m/s" is "NE 4.9m/s"); the thermometer and wind face of wttr.in's
    /// presets are left out. Keys are single scalars: a variation selector is dropped first.
    static let symbols: [Unicode.Scalar: String] = [
        "°": "", "·": "-", "≈": "~", "±": "+/-", "…": "...", "–": "-", "—": "-", "\u{2212}": "-", "‘": "'", "’": "'",
        "“": "\"", "”": "\"", "→": "->", "←": "<-", "×": "x", "≤": "<=", "≥": ">=",
        "µ": "u", "\u{A0}": " ", "\u{2009}": " ", "\u{202F}": " ",
        "↓": "N ", "↙": "NE ", "↖": "SE ", "↑": "S ", "↗": "SW ", "↘": "NW ",
        "☀": "o", "🌙": ")", "⛅": "m", "☁": "mmm", "🌫": "=", "🌧": "/", "🌨": "x", "❄": "*", "⛈": "!/",
        "💨": "~", "⚠": "!", "🌡": "", "🌬": "",
        "🌑": "@", "🌒": ")", "🌓": "D", "🌔": "0", "🌕": "O", "🌖": "0", "🌗": "C", "🌘": "(",
    ]

    /// Letters named in Unicode other than "LETTER X WITH ...", in lower case ("Þ" is "Th").
    static let letterNames: [String: String] = ["SHARP S": "ss", "DOTLESS I": "i", "ETH": "d", "THORN": "th", "LONG S": "s",
                                                "ENG": "ng"]

    /// One character in ASCII: a known symbol's stand-in; a Latin letter without its marks,
    /// read from its Unicode name ("LATIN SMALL LETTER U WITH DIAERESIS" is "u", "LATIN
    /// CAPITAL LETTER AE" is "AE"); a mark alone nothing; anything else "?". A character is
    /// read by its first scalar: "é" written as "e" and a combining accent is "e".
    static func asciiFallback(_ character: Character) -> String {
        guard let first = character.unicodeScalars.first else { return "" }
        if let symbol = symbols[first] { return symbol }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return ""
        case .spaceSeparator: return " "
        default: break
        }
        guard let name = first.properties.name, name.hasPrefix("LATIN ") else { return "?" }
        let small = name.contains(" SMALL ")
        guard let marker = name.firstRange(of: " LETTER ") ?? name.firstRange(of: " LIGATURE ") else { return "?" }
        let rest = name[marker.upperBound...]
        let letters = String(rest.prefix { $0 != " " })
        if let known = letterNames.first(where: { rest.hasPrefix($0.key) }) {
            return small ? known.value : known.value.prefix(1).uppercased() + known.value.dropFirst()
        }
        guard (1...2).contains(letters.count), letters.allSatisfy({ $0 >= "A" && $0 <= "Z" }) else { return "?" }
        return small ? letters.lowercased() : letters
    }
}

extension Configuration.OutputSettings {
    /// These settings for a run in `environment`: the locale's characters (`TextCharset.locale`);
    /// in a locale that is not UTF-8 the glyphs are ASCII too.
    public func forLocale(_ environment: [String: String]) -> Configuration.OutputSettings {
        var settings = self
        settings.charset = TextCharset.locale(environment)
        if settings.charset == .ascii { settings.icons = .ascii }
        return settings
    }
}
