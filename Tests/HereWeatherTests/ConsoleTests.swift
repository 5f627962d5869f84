import Foundation
import Testing
@testable import HereWeatherCore

/// The run's console: the one writer of stderr's lines, the progress line's frames and the
/// permission question, under one lock; one per run, nothing global.
@Suite struct ConsoleTests {
    static func console(_ output: CapturedOutput = CapturedOutput(), charset: TextCharset = .utf8) -> Console {
        Console(sink: output, charset: charset, isTerminal: true)
    }

    /// A line written while a frame is drawn erases the frame first, so the line starts at the
    /// left edge; the next frame is drawn after it.
    @Test func aLineErasesTheDrawnFrameFirst() {
        let output = CapturedOutput()
        let console = Self.console(output)
        let spinner = Spinner("waiting…", ascii: false, console: console)
        spinner.redraw()
        console.line("here-weather: warning: something")
        spinner.redraw()
        spinner.stop()
        #expect(output.text == Console.clearLine + "⠋ waiting…" + Console.clearLine + "here-weather: warning: something\n"
                + Console.clearLine + "⠙ waiting…" + Console.clearLine)
    }

    /// Lines are one line, control characters made spaces, and ASCII in a locale that is not
    /// UTF-8; warnings are in the one warning style.
    @Test func linesAreOneLineInTheLocalesCharacters() {
        let output = CapturedOutput()
        let console = Self.console(output, charset: .ascii)
        console.line("a\nb\u{1B}[2Jc °C")
        console.warn(["unknown key"])
        #expect(output.text == "a b [2Jc C\nhere-weather: warning: unknown key\n")
    }

    /// Two runs in one process (in-process tests, a later `--follow`) have a console each: a
    /// question on one holds only its own frames, and ending one's progress leaves the
    /// other's (a global "current spinner" paused and stopped whichever ran last).
    @Test func twoConsolesDoNotShareTheirProgressLines() {
        let first = CapturedOutput()
        let second = CapturedOutput()
        let one = Self.console(first)
        let other = Self.console(second)
        let spinner = Spinner("one…", ascii: true, console: one)
        let otherSpinner = Spinner("other…", ascii: true, console: other)
        otherSpinner.redraw()
        _ = one.ask("Allow? ") {
            otherSpinner.redraw()
            spinner.redraw()
            return nil
        }
        one.endProgress()
        otherSpinner.redraw()
        #expect(first.text == "Allow? ")
        #expect(second.text == Console.clearLine + "| other..." + Console.clearLine + "/ other..." + Console.clearLine + "- other...")
    }

    /// A spinner that has stopped draws nothing, even when a late frame comes.
    @Test func aStoppedSpinnerDrawsNoLateFrame() {
        let output = CapturedOutput()
        let console = Self.console(output)
        let spinner = Spinner("waiting…", ascii: true, console: console)
        spinner.stop()
        spinner.redraw()
        console.line("done")
        #expect(output.text == "done\n")
    }
}
