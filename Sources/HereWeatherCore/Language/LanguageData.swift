/// One language as compiled in: its catalogue's messages and CLDR's conventions for it, as
/// string literals read in place, and its plural rule. Written by `scripts/catalogue generate`
/// from po/ and CLDR into `Generated/` (one file per language; `LanguageData.all` lists them).
///
/// `messages` holds one message per line in po/here-weather.pot's order (`Message`'s raw
/// values); a message with plural forms has them on its line separated by U+001E, in the
/// order of the language's `pluralForm`. `conventions` holds `key=value` lines in a fixed
/// order (`LocaleConventions`).
struct LanguageData: Sendable {
    /// The catalogue's code: "en", "de", "pt-BR", "zh-CN".
    let code: String
    /// The language's name in itself ("Deutsch"), from CLDR.
    let name: String
    let messages: StaticString
    let conventions: StaticString
    /// The plural form (an index into a message's forms) for a count, by CLDR's rule.
    let pluralForm: @Sendable (Int) -> Int

    /// The language with catalogue `code`, exactly as written ("pt-BR").
    static func named(_ code: String) -> LanguageData? {
        all.first { $0.code == code }
    }

    /// The bytes of a literal, in place.
    static func bytes(_ text: StaticString) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// The literal's lines (without their line breaks), as byte ranges.
    static func lineRanges(_ text: StaticString) -> [Range<Int>] {
        let bytes = bytes(text)
        var ranges: [Range<Int>] = []
        var start = 0
        for index in bytes.indices where bytes[index] == 0x0A {
            ranges.append(start..<index)
            start = index + 1
        }
        if start < bytes.count { ranges.append(start..<bytes.count) }
        return ranges
    }
}
