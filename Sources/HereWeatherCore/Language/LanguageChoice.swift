/// Which language a run speaks, and which countries' customs decide its units and clock: the
/// one place this is decided (`Configuration.forRun`), from `--lang`, `[output] language` and
/// the environment, in that order.
///
/// The environment is read as gettext reads it: the locale for messages is the first set of
/// `LC_ALL`, `LC_MESSAGES`, `LANG`; in the C locale (`C`, `POSIX`, `C.UTF-8`) the language is
/// English and `LANGUAGE` is ignored; otherwise `LANGUAGE` (a ":"-separated list of
/// preferences) is tried first, then the locale's language. A language here-weather does not
/// speak falls back to English with a note for `--verbose`; named by `--lang` or the config
/// it is an error that lists the languages there are.
///
/// The country for "auto" units is `LC_ALL`'s, `LC_MEASUREMENT`'s or `LANG`'s, for the
/// "auto" clock `LC_ALL`'s, `LC_TIME`'s or `LANG`'s (as the C library reads those categories),
/// unless `--lang` or the config names one ("en_US", "de_AT"), which then decides both.
public struct LanguageChoice: Sendable, Equatable {
    public var locale: UserLocale
    /// What was decided and why, for `--verbose` ("language: de from LANG=de_DE.UTF-8").
    public var notes: [String]

    /// Where a name came from, for the error a name that is not a language makes.
    public enum Origin: Sendable {
        case commandLine
        case config
    }

    /// The choice for a run. `commandLine` (`--lang`) and `configured` (`[output] language`)
    /// must name a language (`catalogue(named:origin:)`); the environment may name anything.
    public static func resolve(environment: [String: String], configured: String? = nil,
                               commandLine: String? = nil) throws(LanguageError) -> LanguageChoice {
        func first(_ names: [String]) -> (variable: String, value: String)? {
            for name in names { if let value = environment[name], !value.isEmpty { return (name, value) } }
            return nil
        }
        let measurement = first(["LC_ALL", "LC_MEASUREMENT", "LANG"]).flatMap { LocaleName($0.value)?.territory }
        let time = first(["LC_ALL", "LC_TIME", "LANG"]).flatMap { LocaleName($0.value)?.territory }
        for (text, origin, label) in [(commandLine, Origin.commandLine, "--lang"), (configured, .config, "[output] language")] {
            guard let text else { continue }
            let (name, data) = try catalogue(named: text, origin: origin)
            let locale = UserLocale(language: data.code, measurementTerritory: name.territory ?? measurement,
                                    timeTerritory: name.territory ?? time)
            return LanguageChoice(locale: locale, notes: ["language: \(data.code) from \(label) \(text)"])
        }
        let messages = first(["LC_ALL", "LC_MESSAGES", "LANG"])
        let english = { (note: String) in
            LanguageChoice(locale: UserLocale(language: "en", measurementTerritory: measurement, timeTerritory: time),
                           notes: [note])
        }
        guard let messages else {
            return english("language: en: no LC_ALL, LC_MESSAGES or LANG: the C locale")
        }
        if LocaleName(messages.value)?.isC == true {
            return english("language: en: \(messages.variable)=\(messages.value) is the C locale")
        }
        var asked: [String] = []
        var candidates: [(String, String)] = []
        if let list = environment["LANGUAGE"], !list.isEmpty {
            candidates = list.split(separator: ":").map { ("LANGUAGE", String($0)) }
        } else {
            candidates = [(messages.variable, messages.value)]
        }
        for (variable, text) in candidates {
            asked.append("\(variable)=\(text)")
            if let data = LocaleName(text)?.catalogue() {
                return LanguageChoice(locale: UserLocale(language: data.code, measurementTerritory: measurement,
                                                         timeTerritory: time),
                                      notes: ["language: \(data.code) from \(variable)=\(text)"])
            }
        }
        return english("language: en: here-weather does not speak \(asked.joined(separator: ", ")) "
                       + "(it speaks \(available))")
    }

    /// Throws the error that lists the languages when `text` names none here-weather speaks.
    public static func check(_ text: String, origin: Origin) throws(LanguageError) {
        _ = try catalogue(named: text, origin: origin)
    }

    /// The catalogue a name given by a user names, or the error that lists the languages.
    static func catalogue(named text: String, origin: Origin) throws(LanguageError) -> (LocaleName, LanguageData) {
        guard let name = LocaleName(text), let data = name.catalogue() else {
            throw LanguageError(name: text, origin: origin)
        }
        return (name, data)
    }

    /// "de (Deutsch), en (English), fr (français)".
    public static var available: String {
        LanguageData.all.sorted { $0.code < $1.code }.map { "\($0.code) (\($0.name))" }.joined(separator: ", ")
    }

    /// Every catalogue's code, sorted.
    public static var codes: [String] { LanguageData.all.map(\.code).sorted() }
}

/// `--lang` (exit 64) or `[output] language` (exit 78) names a language here-weather does not speak.
public struct LanguageError: UserFacingError, Equatable {
    public var name: String
    public var origin: LanguageChoice.Origin

    public var message: String {
        let shown = ServiceText.printable(name)
        switch origin {
        case .commandLine:
            return "--lang \(shown): here-weather does not speak that language. Give one of "
                + "\(LanguageChoice.available), as a code or a locale name (pt_BR, pt_BR.UTF-8)."
        case .config:
            return "[output] language = \"\(shown)\" in the config file: here-weather does not speak that language. "
                + "Set one of \(LanguageChoice.available), or remove the key to follow the environment (LANG)."
        }
    }

    public var exitStatus: ExitStatus { origin == .commandLine ? .usage : .configuration }
}
