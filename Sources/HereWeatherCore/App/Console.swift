import Synchronization

/// The run's standard error: the one writer of its error, warning and `--verbose` lines, of
/// the progress line's frames (`Spinner`) and of the permission question (`TerminalPrompt`).
///
/// Everything goes out under one lock and through one sink (`FileDescriptorOutput`'s write
/// loop for the process), so a line never lands inside a frame or a question: a line or a
/// question first erases a drawn frame, and no frame is drawn while a question waits for its
/// answer. A run has one console (its `CommandContext` makes it, its `RunSystem` carries it);
/// nothing is global.
public final class Console: Sendable {
    struct State {
        /// The progress line, while one runs.
        var spinner: SpinnerState?
        /// Questions waiting for an answer: no frame is drawn while there is one.
        var questions = 0
        /// Spinners started, for telling a stopped one's late frame from the current one's.
        var started = 0
    }

    struct SpinnerState {
        var id: Int
        var message: String
        var frames: [String]
        var frame = 0
        var drawn = false
    }

    /// Return to the start of the line and erase it.
    static let clearLine = "\r\u{1B}[2K"

    /// The characters of its lines: the locale's (`TextCharset.locale`; ASCII where the
    /// locale is not UTF-8).
    public let charset: TextCharset
    /// Whether standard error is a terminal (a question needs one, and so does a spinner).
    public let isTerminal: Bool
    /// Standard error (the process's: `FileDescriptorOutput(2)`; a test's capture).
    private let sink: any OutputSink
    /// What is on the line: the progress line, questions waiting. The one lock.
    private let state: Mutex<State>

    public init(sink: any OutputSink, charset: TextCharset, isTerminal: Bool) {
        self.sink = sink
        state = Mutex(State())
        self.charset = charset
        self.isTerminal = isTerminal
    }

    /// Writes `line` as one line: control characters in any text it echoes (a city name, a
    /// path, a config value) become spaces (`ServiceText.printable`), so no text can break the
    /// line or drive the terminal, and in a locale that is not UTF-8 it is ASCII.
    public func line(_ line: String) {
        write(charset.fold(ServiceText.printable(line)) + "\n")
    }

    /// Writes each warning (a bare message from Core) as one line in the one warning style:
    /// `here-weather: warning: ...` (`WarningStyle`).
    public func warn(_ warnings: [String]) {
        for warning in warnings { line(WarningStyle.line(warning)) }
    }

    /// Writes `text` as it is (a question, a prompt's own line), erasing a drawn frame first.
    /// A failure is dropped: standard error has nowhere to report its own.
    func write(_ text: String) {
        state.withLock { state in
            let erase = state.spinner?.drawn == true ? Self.clearLine : ""
            state.spinner?.drawn = false
            _ = sink.write(erase + text)
        }
    }

    /// Shows `question` and returns what `answer` reads (it blocks until the user answers),
    /// with no frame drawn from the question until the answer.
    func ask(_ question: String, answer: () -> String?) -> String? {
        state.withLock { $0.questions += 1 }
        defer { state.withLock { $0.questions -= 1 } }
        write(question)
        return answer()
    }

    // MARK: The progress line

    /// Starts the progress line showing `message` in `frames`, and returns its id. Any line
    /// already running ends (its frame erased).
    func startSpinner(_ message: String, frames: [String]) -> Int {
        state.withLock { state in
            erase(&state)
            state.started += 1
            state.spinner = SpinnerState(id: state.started, message: message, frames: frames)
            return state.started
        }
    }

    /// The progress line `id` shows `message` from its next frame on.
    func updateSpinner(_ id: Int, message: String) {
        state.withLock { state in
            if state.spinner?.id == id { state.spinner?.message = message }
        }
    }

    /// Draws the next frame of progress line `id`, unless it ended or a question waits.
    func drawFrame(_ id: Int) {
        state.withLock { state in
            guard var spinner = state.spinner, spinner.id == id, state.questions == 0 else { return }
            let frame = spinner.frames[spinner.frame % spinner.frames.count]
            spinner.frame += 1
            spinner.drawn = true
            state.spinner = spinner
            _ = sink.write(Self.clearLine + frame + " " + spinner.message)
        }
    }

    /// Ends progress line `id` (or whichever runs, for `nil`), erasing its frame if one is drawn.
    func stopSpinner(_ id: Int?) {
        state.withLock { state in
            guard let spinner = state.spinner, id == nil || spinner.id == id else { return }
            erase(&state)
        }
    }

    /// Ends the progress line, if one runs: before the run's last words (its error or its report).
    public func endProgress() {
        stopSpinner(nil)
    }

    private func erase(_ state: inout State) {
        if state.spinner?.drawn == true { _ = sink.write(Self.clearLine) }
        state.spinner = nil
    }
}
