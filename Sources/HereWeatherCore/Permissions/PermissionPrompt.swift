#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the permission question is asked: the terminal, or a test's script.
///
/// Calls block until the user answers; `TerminalPermissionAuthorizer` makes them on a
/// thread of their own.
public protocol PermissionPrompt: Sendable {
    /// Whether a person can answer: input and output are both terminals.
    var isInteractive: Bool { get }
    /// Shows `question` (no newline added) and returns the line typed, without its line
    /// ending; `nil` at end of input.
    func ask(_ question: String) -> String?
    /// Shows one line of information (a newline is added).
    func tell(_ line: String)
}

extension PermissionPrompt {
    /// Shows a warning (a bare message) in the one warning style (`WarningStyle`).
    public func warn(_ message: String) { tell(WarningStyle.line(message)) }
}

/// The real prompt: the question and its lines go out through the run's `Console` (stderr),
/// the answer is read from `input` (stdin); interactive only when both are terminals, so
/// status bars, cron and pipes are never asked.
public struct TerminalPrompt: PermissionPrompt {
    public let console: Console
    public let input: Int32

    /// The longest answer read; the rest of a longer line is discarded.
    static let maximumAnswer = 256

    public init(console: Console, input: Int32) {
        self.console = console
        self.input = input
    }

    public var isInteractive: Bool { console.isTerminal && isatty(input) == 1 }

    public func ask(_ question: String) -> String? {
        // No spinner draws over the question while the user reads and answers it.
        console.ask(question) { readAnswer() }
    }

    private func readAnswer() -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(input, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else {
                // End of input: a partial line still counts as an answer.
                if line.isEmpty { return nil }
                break
            }
            if byte == UInt8(ascii: "\n") { break }
            if line.count < Self.maximumAnswer { line.append(byte) }
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }

    public func tell(_ line: String) {
        console.write(line + "\n")
    }
}
