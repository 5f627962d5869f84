/// Colour and glyphs for a terminal; plain text otherwise.
///
/// On only when stdout is a terminal and `NO_COLOR` is unset (https://no-color.org).
public struct TerminalStyle: Sendable {
    public let colour: Bool
    public let glyphs: Bool
    /// Draw charts (the hourly temperature and precipitation chart): on a terminal only, so
    /// piped output stays the plain tables.
    public let chart: Bool
    /// Columns the text may use (`TerminalWidth`): lines are cut or wrapped to fit.
    public let width: Int

    public init(colour: Bool, glyphs: Bool, chart: Bool = false, width: Int = TerminalWidth.standard) {
        self.colour = colour
        self.glyphs = glyphs
        self.chart = chart
        self.width = width
    }

    /// The style for a stream: `isTerminal` from `isatty`, `environment` for `NO_COLOR`,
    /// `width` from `TerminalWidth`.
    public static func forOutput(isTerminal: Bool, environment: [String: String],
                                 width: Int = TerminalWidth.standard) -> TerminalStyle {
        let noColour = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        // No TERM says nothing about colour (a cron job, a service): none, as with "dumb".
        let dumb = environment["TERM"].map { $0.isEmpty || $0 == "dumb" } ?? true
        return TerminalStyle(colour: isTerminal && !noColour && !dumb, glyphs: isTerminal && !noColour, chart: isTerminal,
                             width: width)
    }

    public static let plain = TerminalStyle(colour: false, glyphs: false)

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }

    /// A temperature coloured from blue (cold) to red (hot), by its value in °C.
    func temperature(_ text: String, celsius: Double?) -> String {
        guard let celsius else { return text }
        let code: String
        switch celsius {
        case ..<0: return wrap(text, "1;34")
        case ..<10: code = "36"
        case ..<20: code = "32"
        case ..<28: code = "33"
        default: code = "1;31"
        }
        return wrap(text, code)
    }

    /// An alert's label in bold, coloured by how severe the alert is: red for Extreme (or
    /// MeteoAlarm's red), orange for Severe (orange), yellow for Moderate (yellow); Minor and
    /// unknown stay plain bold.
    func alertLabel(_ text: String, _ alert: WeatherAlert) -> String {
        switch alert.severityRank {
        case 0: return wrap(text, "1;31")
        case 1: return wrap(text, "1;38;5;208")
        case 2: return wrap(text, "1;33")
        default: return bold(text)
        }
    }

    private func wrap(_ text: String, _ code: String) -> String {
        colour && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
