/// A locale's name as the environment or a user writes it, read into its parts:
/// `de_DE.UTF-8@euro` (language de, territory DE), `pt-BR`, `zh_Hans_CN`, `C`, `POSIX`.
///
/// The codeset (after ".") and the modifier (after "@") say nothing about the language and are
/// dropped. `C` and `POSIX` (also `C.UTF-8`) are the C locale: English, no country.
public struct LocaleName: Sendable, Equatable {
    /// The language, in lower case ("de"); empty for the C locale.
    public var language: String
    /// The country, in upper case ("DE", "419"), when the name has one.
    public var territory: String?
    /// The script ("Hans"), when the name has one.
    public var script: String?

    /// Whether this is the C locale.
    public var isC: Bool { language.isEmpty }

    /// `nil` for an empty name or one whose parts are not letters (or a numeric region).
    public init?(_ text: String) {
        let name = text.prefix { $0 != "." && $0 != "@" }
        if name == "C" || name == "POSIX" {
            language = ""
            return
        }
        let parts = name.split(omittingEmptySubsequences: false) { $0 == "_" || $0 == "-" }
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            return nil
        }
        language = first.lowercased()
        for part in parts.dropFirst() {
            if part.count == 4, script == nil, territory == nil, part.allSatisfy({ $0.isASCII && $0.isLetter }) {
                script = part.prefix(1).uppercased() + part.dropFirst().lowercased()
            } else if territory == nil, (part.count == 2 && part.allSatisfy({ $0.isASCII && $0.isLetter }))
                        || (part.count == 3 && part.allSatisfy({ $0.isASCII && $0.isNumber })) {
                territory = part.uppercased()
            } else {
                return nil
            }
        }
    }

    /// The catalogue for this name: the language with its country where one is for it
    /// ("pt-BR"), else the language ("pt", "de"); Norwegian ("no") is Bokmål; Chinese is the
    /// simplified catalogue unless the name says traditional (Hant, TW, HK, MO). `nil` when
    /// here-weather does not speak it. The C locale is English.
    func catalogue() -> LanguageData? {
        if isC { return LanguageData.named("en") }
        if language == "zh" {
            let traditional = script == "Hant" || (script == nil && ["TW", "HK", "MO"].contains(territory ?? ""))
            return traditional ? nil : LanguageData.named("zh-CN")
        }
        if let territory, let regional = LanguageData.named(language + "-" + territory) { return regional }
        return LanguageData.named(language == "no" ? "nb" : language)
    }
}
