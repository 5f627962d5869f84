/// The one short line a status bar shows when no report can be made: `--format` prints it
/// on stdout (the message still goes to stderr, and the exit status is the error's), and
/// `--waybar` uses it as `text`. A bar that runs the command then says what is wrong instead
/// of going blank.
///
/// `[output] format_error` sets it, with its own codes: `%c` the warning sign of
/// `[output] icons`, `%e` what is wrong in a few words ("no location"), `%E` the exit
/// status's code name ("no_location"), `%%` a percent sign. Not set: `%c %e`
/// ("⚠️ no location", the same as waybar's).
public struct FailureLine: Sendable, Equatable {
    /// What a code of `format_error` stands for.
    public enum Code: Sendable, Equatable { case mark, words, code }

    /// The format when `[output] format_error` is not set.
    public static let defaultFormat = "%c %e"
    /// The codes, for messages and docs.
    public static let codeHelp = "%c (a warning sign), %e (what is wrong, in a few words), %E (its code, e.g. no_location) or %%"
    static let codes: [Character: Code] = ["c": .mark, "e": .words, "E": .code]

    /// The text as written (for `config show`).
    public let text: String
    public let tokens: [PercentCodes.Token<Code>]

    /// Parses a `format_error` text; fails on an unknown code or a lone `%` at the end.
    public init(_ text: String) throws(PercentCodes.Failure) {
        self.text = text
        tokens = try PercentCodes.parse(text, codes: Self.codes)
    }

    /// The line for `error`, with the glyphs of `icons`.
    public func render(_ error: any UserFacingError, icons: GlyphSet) -> String {
        PercentCodes.render(tokens) { code in
            switch code {
            case .mark: return AlertText.mark(icons)
            case .words: return Self.words(error)
            case .code: return error.exitStatus.code
            }
        }
    }

    /// The line for `error` as `[output]` asks for it (its `format_error`, else the default).
    public static func render(_ error: any UserFacingError, output: Configuration.OutputSettings) -> String {
        let format = output.formatError ?? (try? FailureLine(defaultFormat))
        return output.charset.fold(format?.render(error, icons: output.icons) ?? words(error))
    }

    /// A few words for a bar, by exit status. Location switched off is "location off"; a
    /// source not allowed (yet) is "location not allowed", which the first run of a bar
    /// with no terminal to ask on meets before anything was ever switched off.
    static func words(_ error: any UserFacingError) -> String {
        switch error.exitStatus {
        case .noLocation: return "no location"
        case .notPermitted:
            switch error as? PermissionError {
            case .disabledByUser, .disabledByPolicy: return "location off"
            default: return "location not allowed"
            }
        case .serviceUnavailable: return "weather offline"
        case .configuration: return "config error"
        case .noInput: return "no input"
        case .usage: return "usage error"
        case .system: return "system limit"
        case .cannotCreate: return "write error"
        case .ioError: return "output error"
        case .checkFailed: return "check failed"
        case .ok: return "ok"
        }
    }
}
