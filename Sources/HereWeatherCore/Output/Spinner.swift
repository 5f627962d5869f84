import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress indicator on stderr (the run's error sink) while the program waits for a fix or the network:
/// a task redraws "⠋ waiting for a GPS fix…" every 100 ms with `\r`; `stop()` clears the line.
///
/// The front end starts one only when stderr is a terminal and the output is for people
/// (`SpinnerPolicy`). The permission prompt pauses it (`Spinner.paused`), so a question is
/// never drawn over.
public final class Spinner: Sendable {
    struct State {
        var message: String
        var frame = 0
        var drawn = false
        var paused = false
        var stopped = false
        var task: Task<Void, Never>?
    }

    static let unicodeFrames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    static let asciiFrames = ["|", "/", "-", "\\"]
    /// Return to the start of the line and erase it.
    static let clearLine = "\r\u{1B}[2K"

    /// The spinner currently on the terminal, for `paused`.
    private static let current = Mutex<Spinner?>(nil)

    private let state: Mutex<State>
    private let output: @Sendable (String) -> Void
    private let frames: [String]
    /// The characters drawn: ASCII frames and messages with `ascii`.
    private let charset: TextCharset

    /// A spinner showing `message` through `output` (the run's stderr sink); nothing is drawn
    /// until `start()`.
    public init(_ message: String, ascii: Bool = false, output: @escaping @Sendable (String) -> Void) {
        charset = ascii ? .ascii : .utf8
        state = Mutex(State(message: charset.fold(message)))
        self.output = output
        frames = ascii ? Self.asciiFrames : Self.unicodeFrames
    }

    /// A spinner showing `message` on file descriptor `descriptor` (a terminal).
    public convenience init(_ message: String, descriptor: Int32, ascii: Bool = false) {
        self.init(message, ascii: ascii) { Self.write($0, to: descriptor) }
    }

    /// Starts redrawing every 100 ms (the first frame after 100 ms, so quick steps show nothing).
    public func start() {
        Self.current.withLock { $0 = self }
        let task = Task.detached { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                redraw()
            }
        }
        state.withLock { $0.task = task }
    }

    /// Shows `message` from the next frame on.
    public func update(_ message: String) {
        let folded = charset.fold(message)
        state.withLock { $0.message = folded }
    }

    /// Stops redrawing and erases the line if anything was drawn. Safe to call twice.
    public func stop() {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.stopped = true
            if state.drawn { write(Self.clearLine) }
            state.drawn = false
            return state.task
        }
        task?.cancel()
        Self.current.withLock { if $0 === self { $0 = nil } }
    }

    /// Draws the next frame now (the task calls this; tests may too).
    func redraw() {
        state.withLock { state in
            guard !state.stopped, !state.paused else { return }
            let frame = frames[state.frame % frames.count]
            state.frame += 1
            state.drawn = true
            write(Self.clearLine + frame + " " + state.message)
        }
    }

    /// Runs `body` with the current spinner's line erased and its drawing paused, for
    /// anything else that writes to the terminal (the permission prompt).
    public static func paused<T>(_ body: () throws -> T) rethrows -> T {
        guard let spinner = current.withLock({ $0 }) else { return try body() }
        return try spinner.whilePaused(body)
    }

    /// Runs `body` with this spinner's line erased and its drawing paused.
    func whilePaused<T>(_ body: () throws -> T) rethrows -> T {
        setPaused(true)
        defer { setPaused(false) }
        return try body()
    }

    private func setPaused(_ paused: Bool) {
        state.withLock { state in
            state.paused = paused
            if paused && state.drawn {
                write(Self.clearLine)
                state.drawn = false
            }
        }
    }

    private func write(_ text: String) {
        output(text)
    }

    /// Writes all of `text` to `descriptor`, retrying interrupted writes; a failure is dropped
    /// (a progress line is not worth an error).
    private static func write(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return }
            written += result
        }
    }
}

/// When a spinner may be shown, and what it says.
public enum SpinnerPolicy {
    /// Only for people watching a terminal: stderr is a terminal, `TERM` is not `dumb`, and
    /// the output is the text report (not `--json`, `--format` or `--waybar`) without
    /// `--verbose` (whose request lines would be drawn over).
    public static func shouldShow(stderrIsTerminal: Bool, machineOutput: Bool, verbose: Bool,
                                  environment: [String: String]) -> Bool {
        stderrIsTerminal && !machineOutput && !verbose && environment["TERM"] != "dumb"
    }

    /// What the location step waits for, by the sources in play (in priority order).
    public static func locationMessage(sources: [LocationSource]) -> String {
        if sources.contains(.gpsd) { return "waiting for a GPS fix…" }
        if sources.contains(.geoclue) { return "asking GeoClue for the location…" }
        if sources.contains(.nmea) { return "reading the NMEA source…" }
        if sources.contains(.ip) { return "looking up the location by IP address…" }
        return "finding the location…"
    }

    /// What the weather step waits for.
    public static func weatherMessage(_ provider: WeatherProviderKind) -> String {
        "fetching weather from \(provider.displayName)…"
    }
}
