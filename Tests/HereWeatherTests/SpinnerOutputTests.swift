import Foundation
import Testing
@testable import HereWeatherCore
#if canImport(Glibc)
import Glibc
#endif

/// The spinner: drawn on a terminal and erased before output; never when stderr is not a
/// terminal or the output is for programs.
@Suite struct SpinnerOutputTests {
    static let spinnerMarks = ["\r", "\u{1B}[", "⠋", "⠙", "…"]

    @Test func drawsAFrameAndErasesItOnStop() throws {
        let terminal = try PseudoTerminal()
        let spinner = Spinner("fetching weather from Open-Meteo…", ascii: false, console: Self.console(terminal))
        spinner.redraw()
        spinner.update("next step…")
        spinner.redraw()
        spinner.stop()
        spinner.redraw()  // after stop: nothing
        let screen = try terminal.screen()
        #expect(screen == Console.clearLine + "⠋ fetching weather from Open-Meteo…"
                + Console.clearLine + "⠙ next step…" + Console.clearLine)
    }

    @Test func stopWithoutAFrameWritesNothing() throws {
        let terminal = try PseudoTerminal()
        let spinner = Spinner("waiting…", ascii: false, console: Self.console(terminal))
        spinner.stop()
        spinner.stop()
        #expect(try terminal.screen() == "")
    }

    /// A console on `terminal`, as the run's is on its stderr.
    static func console(_ terminal: PseudoTerminal) -> Console {
        Console(sink: FileDescriptorOutput(terminal.slave), charset: .utf8, isTerminal: true)
    }

    /// A question erases the frame, and no frame is drawn while it waits for its answer.
    @Test func aQuestionErasesTheLineAndHoldsFrames() throws {
        let terminal = try PseudoTerminal()
        let console = Self.console(terminal)
        let spinner = Spinner("waiting…", ascii: true, console: console)
        spinner.redraw()
        let answer = console.ask("Allow?") {
            spinner.redraw()  // held: a question is on the line
            return "y"
        }
        #expect(answer == "y")
        spinner.stop()
        // ASCII frames draw an ASCII message: "…" is "..." (TextCharset).
        #expect(try terminal.screen() == Console.clearLine + "| waiting..." + Console.clearLine + "Allow?")
    }

    @Test func policy() {
        #expect(SpinnerPolicy.shouldShow(stderrIsTerminal: true, machineOutput: false, verbose: false, environment: [:]))
        #expect(!SpinnerPolicy.shouldShow(stderrIsTerminal: false, machineOutput: false, verbose: false, environment: [:]))
        #expect(!SpinnerPolicy.shouldShow(stderrIsTerminal: true, machineOutput: true, verbose: false, environment: [:]))
        #expect(!SpinnerPolicy.shouldShow(stderrIsTerminal: true, machineOutput: false, verbose: true, environment: [:]))
        #expect(!SpinnerPolicy.shouldShow(stderrIsTerminal: true, machineOutput: false, verbose: false, environment: ["TERM": "dumb"]))
        #expect(SpinnerPolicy.locationMessage(sources: [.ip, .gpsd]) == "waiting for a GPS fix…")
        #expect(SpinnerPolicy.locationMessage(sources: [.ip, .fixed]) == "looking up the location by IP address…")
        #expect(SpinnerPolicy.weatherMessage(.openMeteo) == "fetching weather from Open-Meteo…")
    }

    /// A run whose location step lasts a second (a replayed cold start with no fix, at the
    /// recorded pace), long enough for frames had the spinner been drawn.
    let slowRun = ["--replay", Fixtures.url("nmea/cold-start.nmea").path, "--replay-speed", "1",
                   "--accuracy", "any", "--timeout", "1"]

    @Test func noSpinnerWhenStderrIsNotATerminal() async throws {
        let result = try await InProcessCommand().run(slowRun)
        #expect(result.status == 75)
        for mark in Self.spinnerMarks { #expect(!result.stderr.contains(mark), "\(mark.debugDescription) in stderr") }
        #expect(result.stderr.hasPrefix("here-weather: No NMEA fix"))
    }

    /// Runs the command in-process with stderr a terminal (`TERM=xterm`): the spinner draws
    /// through the run's stderr sink, which captures it (issue 23 part 5; it wrote fd 2 itself).
    static func onATerminal(_ arguments: [String]) async throws -> InProcessCommand.Result {
        try await InProcessCommand().run(arguments, environment: ["TERM": "xterm"], killAfter: .seconds(120),
                                         terminal: .init(standardError: true))
    }

    /// Runs `arguments` in-process with stderr a terminal (`TERM=xterm`) on a test clock that
    /// stands still: the replay's pace and deadline are on it, so the run waits until the
    /// spinner's first frame is on stderr; then the clock passes the deadline and the run ends
    /// with its error. (On real time, a loaded machine once ended the 1 s run before the first
    /// frame, 100 ms in, was drawn.)
    static func spinnerThenDeadline(_ arguments: [String]) async throws -> InProcessCommand.Result {
        let clock = TestClock()
        let standardError = CapturedOutput()
        let runner = try InProcessCommand()
        async let result = runner.run(arguments, environment: ["TERM": "xterm"], killAfter: .seconds(120),
                                      terminal: .init(standardError: true), standardError: standardError,
                                      assembly: .test(RunSystem.test(clock: clock)))
        let end = ContinuousClock.now + TestLimits.longestRun
        while !standardError.text.contains("…"), ContinuousClock.now < end {
            try await Task.sleep(for: .milliseconds(10))
        }
        clock.advance(by: .seconds(2))
        return try await result
    }

    @Test func spinnerOnATerminalIsErasedBeforeTheMessage() async throws {
        let result = try await Self.spinnerThenDeadline(slowRun)
        #expect(result.status == 75)
        let screen = result.stderr
        #expect(screen.contains("reading the NMEA source…"), "\(screen.debugDescription)")
        let erased = try #require(screen.range(of: Console.clearLine, options: .backwards))
        let message = try #require(screen.range(of: "here-weather: No NMEA fix"))
        #expect(erased.upperBound == message.lowerBound, "the line is cleared right before the error")
    }

    @Test func noSpinnerInMachineModesEvenOnATerminal() async throws {
        for mode in [["--json"], ["--format", "%t"], ["--waybar"]] {
            let screen = try await Self.onATerminal(slowRun + mode).stderr
            #expect(!screen.contains("reading the NMEA source"), "\(mode): \(screen.debugDescription)")
            #expect(!screen.contains(Console.clearLine), "\(mode)")
        }
    }
}

/// `where` shows the report's progress line on a terminal, and nothing off one (issue 20).
@Suite struct WhereSpinnerTests {
    let slowWhere = ["where"] + SpinnerOutputTests().slowRun

    @Test func whereShowsTheSpinnerOnATerminalAndErasesIt() async throws {
        let result = try await SpinnerOutputTests.spinnerThenDeadline(slowWhere)
        #expect(result.status == 75)
        let screen = result.stderr
        #expect(screen.contains("reading the NMEA source…"), "\(screen.debugDescription)")
        let erased = try #require(screen.range(of: Console.clearLine, options: .backwards))
        let message = try #require(screen.range(of: "here-weather: No NMEA fix"))
        #expect(erased.upperBound == message.lowerBound, "the line is cleared right before the error")
    }

    @Test func whereShowsNoSpinnerOffATerminalNorForJSON() async throws {
        let result = try await InProcessCommand().run(slowWhere)
        #expect(result.status == 75)
        for mark in SpinnerOutputTests.spinnerMarks { #expect(!result.stderr.contains(mark), "\(mark.debugDescription) in stderr") }
        let screen = try await SpinnerOutputTests.onATerminal(slowWhere + ["--json"]).stderr
        #expect(!screen.contains("reading the NMEA source"), "\(screen.debugDescription)")
        #expect(!screen.contains(Console.clearLine))
    }
}
