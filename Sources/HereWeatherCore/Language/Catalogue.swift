/// The words of one language: its messages, filled in.
///
/// A message is one of po/here-weather.pot's entries (`Message`). Placeholders are gettext's
/// (c-format): `%s` a text, `%d` a count, `%1$s` a numbered one, so that a translation may put
/// them in another order; `%%` is a percent sign. A message with plural forms has one `%d`, the
/// count, as its first argument, and the form is chosen by the language's CLDR rule.
///
/// Made once per run (`UserLocale`): the message lines are found by one pass over the
/// language's literal, read in place.
public struct Catalogue: Sendable, Equatable {
    let data: LanguageData
    /// The byte range of each message's line, by `Message` raw value.
    let lines: [Range<Int>]

    init(_ data: LanguageData) {
        self.data = data
        lines = LanguageData.lineRanges(data.messages)
    }

    public static func == (left: Catalogue, right: Catalogue) -> Bool { left.data.code == right.data.code }

    /// The catalogue's code ("de").
    public var code: String { data.code }

    /// The message's forms as written: one, or one per plural form.
    func forms(_ message: Message) -> [Substring] {
        guard message.rawValue < lines.count else { return [""] }
        let range = lines[message.rawValue]
        let line = String(decoding: UnsafeBufferPointer(rebasing: LanguageData.bytes(data.messages)[range]), as: UTF8.self)
        return line.split(separator: "\u{1E}", omittingEmptySubsequences: false)
    }

    /// `message` with its placeholders filled in with `arguments`, in English's order.
    func text(_ message: Message, _ arguments: [String]) -> String {
        Self.fill(forms(message)[0], arguments)
    }

    /// `message` in the plural form for `count`; `%d` is the count, the other placeholders
    /// `arguments` in English's order.
    func text(_ message: Message, count: Int, _ arguments: [String]) -> String {
        let forms = forms(message)
        let form = forms[min(max(0, data.pluralForm(count)), forms.count - 1)]
        return Self.fill(form, [String(count)] + arguments)
    }

    /// `template` with `%s`, `%d`, `%N$s`, `%N$d` replaced by `arguments` (numbered from 1, or
    /// in the order they come) and `%%` by "%". A placeholder without an argument is left out.
    static func fill(_ template: Substring, _ arguments: [String]) -> String {
        guard template.contains("%") else { return String(template) }
        var result = ""
        var next = 0
        var index = template.startIndex
        while index < template.endIndex {
            let character = template[index]
            index = template.index(after: index)
            guard character == "%", index < template.endIndex else {
                result.append(character)
                continue
            }
            if template[index] == "%" {
                result.append("%")
                index = template.index(after: index)
                continue
            }
            var number: Int?
            var cursor = index
            var digits = 0
            while cursor < template.endIndex, let digit = template[cursor].wholeNumberValue, template[cursor].isASCII {
                digits = digits * 10 + digit
                cursor = template.index(after: cursor)
            }
            if cursor > index, cursor < template.endIndex, template[cursor] == "$" {
                number = digits
                index = template.index(after: cursor)
            }
            guard index < template.endIndex, template[index] == "s" || template[index] == "d" else {
                result.append("%")
                continue
            }
            index = template.index(after: index)
            let position = number.map { $0 - 1 } ?? next
            next += 1
            if arguments.indices.contains(position) { result += arguments[position] }
        }
        return result
    }
}
