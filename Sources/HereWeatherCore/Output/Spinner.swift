import Synchronization

/// A one-line progress indicator on the run's console while the program waits for a fix or
/// the network: a task draws "⠋ waiting for a GPS fix…" every 100 ms with `\r`; `stop()`
/// clears the line.
///
/// The front end starts one only when stderr is a terminal and the output is for people
/// (`SpinnerPolicy`). Its frames go through the `Console`, whose lock keeps them apart from
/// lines and from the permission question (no frame is drawn while a question waits).
public final class Spinner: Sendable {
    static let unicodeFrames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    static let asciiFrames = ["|", "/", "-", "\\"]

    private let console: Console
    private let id: Int
    /// The characters drawn: ASCII frames and messages with `ascii`.
    private let charset: TextCharset
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// A spinner showing `message` on `console`; nothing is drawn until `start()`.
    public init(_ message: String, ascii: Bool, console: Console) {
        charset = ascii ? .ascii : .utf8
        self.console = console
        id = console.startSpinner(charset.fold(message), frames: ascii ? Self.asciiFrames : Self.unicodeFrames)
    }

    /// Starts drawing every 100 ms (the first frame after 100 ms, so quick steps show nothing).
    public func start() {
        let started = Task.detached { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                redraw()
            }
        }
        task.withLock { $0 = started }
    }

    /// Shows `message` from the next frame on.
    public func update(_ message: String) {
        console.updateSpinner(id, message: charset.fold(message))
    }

    /// Stops drawing and erases the line if anything was drawn. Safe to call twice.
    public func stop() {
        console.stopSpinner(id)
        task.withLock { $0 }?.cancel()
    }

    /// Draws the next frame now (the task calls this; tests may too).
    func redraw() {
        console.drawFrame(id)
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
