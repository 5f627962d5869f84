#if canImport(Glibc)
import Glibc
#endif

/// How many columns the text report may use.
///
/// `COLUMNS` when it is set to a number (as `ls` and `man` read it, so a script can ask for
/// a width), else the terminal's own width when stdout is a terminal (`TIOCGWINSZ`), else
/// 80. Never less than `minimum`: below that no table can be read, and a line that wraps
/// is better than one cut to nothing.
public enum TerminalWidth {
    public static let standard = 80
    public static let minimum = 40
    /// Wider than any line the report makes; keeps a silly `COLUMNS` from mattering.
    public static let maximum = 1000

    /// The width for output on `descriptor` (stdout).
    public static func current(environment: [String: String], descriptor: Int32 = STDOUT_FILENO) -> Int {
        resolve(columnsVariable: environment["COLUMNS"], terminalColumns: terminalColumns(descriptor))
    }

    /// The rule, apart from the system: `COLUMNS`, then the terminal's width, then 80.
    public static func resolve(columnsVariable: String?, terminalColumns: Int?) -> Int {
        let asked = columnsVariable.flatMap { Int($0.trimmingSuffixSpaces) }.flatMap { $0 > 0 ? $0 : nil }
        let width = asked ?? terminalColumns ?? standard
        return min(maximum, max(minimum, width))
    }

    /// The terminal's width in columns, when `descriptor` is a terminal that knows it.
    public static func terminalColumns(_ descriptor: Int32) -> Int? {
        guard isatty(descriptor) == 1 else { return nil }
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
