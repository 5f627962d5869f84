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
        let spinner = Spinner("fetching weather from Open-Meteo…", descriptor: terminal.slave)
        spinner.redraw()
        spinner.update("next step…")
        spinner.redraw()
        spinner.stop()
        spinner.redraw()  // after stop: nothing
        let screen = try terminal.screen()
        #expect(screen == Spinner.clearLine + "⠋ fetching weather from Open-Meteo…"
                + Spinner.clearLine + "⠙ next step…" + Spinner.clearLine)
    }

    @Test func stopWithoutAFrameWritesNothing() throws {
        let terminal = try PseudoTerminal()
        let spinner = Spinner("waiting…", descriptor: terminal.slave)
        spinner.stop()
        spinner.stop()
        #expect(try terminal.screen() == "")
    }

    @Test func pausedErasesTheLineAndHoldsFrames() throws {
        let terminal = try PseudoTerminal()
        let spinner = Spinner("waiting…", descriptor: terminal.slave, ascii: true)
        spinner.redraw()
        spinner.whilePaused {
            spinner.redraw()  // held: a question is on the line
            _ = "Allow?".withCString { write(terminal.slave, $0, 6) }
        }
        spinner.stop()
        // ASCII frames draw an ASCII message: "…" is "..." (TextCharset).
        #expect(try terminal.screen() == Spinner.clearLine + "| waiting..." + Spinner.clearLine + "Allow?")
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

    /// `onATerminal` on a test clock: the replay and its deadline wait on that clock, which moves
    /// past the deadline only once the spinner's line is on the terminal. On the real clock a
    /// loaded machine ended the 1 s deadline before the spinner's first frame (its task had no
    /// thread yet), and the test failed for want of a spinner.
    static func spinnerThenDeadline(_ arguments: [String]) async throws -> InProcessCommand.Result {
        let clock = TestClock(), screen = CapturedOutput()
        async let run = InProcessCommand().run(arguments, environment: ["TERM": "xterm"], killAfter: TestLimits.longestRun,
                                               terminal: .init(standardError: true), standardError: screen,
                                               assembly: .test(.test(clock: clock)))
        let shown = ContinuousClock.now + TestLimits.longestRun
        while !screen.text.contains("reading the NMEA source…"), ContinuousClock.now < shown {
            try await Task.sleep(for: .milliseconds(10))
        }
        clock.advance(by: .seconds(2))
        return try await run
    }

    @Test func spinnerOnATerminalIsErasedBeforeTheMessage() async throws {
        let result = try await Self.spinnerThenDeadline(slowRun)
        #expect(result.status == 75)
        let screen = result.stderr
        #expect(screen.contains("reading the NMEA source…"), "\(screen.debugDescription)")
        let erased = try #require(screen.range(of: Spinner.clearLine, options: .backwards))
        let message = try #require(screen.range(of: "here-weather: No NMEA fix"))
        #expect(erased.upperBound == message.lowerBound, "the line is cleared right before the error")
    }

    @Test func noSpinnerInMachineModesEvenOnATerminal() async throws {
        for mode in [["--json"], ["--format", "%t"], ["--waybar"]] {
            let screen = try await Self.onATerminal(slowRun + mode).stderr
            #expect(!screen.contains("reading the NMEA source"), "\(mode): \(screen.debugDescription)")
            #expect(!screen.contains(Spinner.clearLine), "\(mode)")
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
        let erased = try #require(screen.range(of: Spinner.clearLine, options: .backwards))
        let message = try #require(screen.range(of: "here-weather: No NMEA fix"))
        #expect(erased.upperBound == message.lowerBound, "the line is cleared right before the error")
    }

    @Test func whereShowsNoSpinnerOffATerminalNorForJSON() async throws {
        let result = try await InProcessCommand().run(slowWhere)
        #expect(result.status == 75)
        for mark in SpinnerOutputTests.spinnerMarks { #expect(!result.stderr.contains(mark), "\(mark.debugDescription) in stderr") }
        let screen = try await SpinnerOutputTests.onATerminal(slowWhere + ["--json"]).stderr
        #expect(!screen.contains("reading the NMEA source"), "\(screen.debugDescription)")
        #expect(!screen.contains(Spinner.clearLine))
    }
}
