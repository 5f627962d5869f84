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
        let spinner = Spinner("fetching weather from Open-Meteo…", output: terminal.slave)
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
        let spinner = Spinner("waiting…", output: terminal.slave)
        spinner.stop()
        spinner.stop()
        #expect(try terminal.screen() == "")
    }

    @Test func pausedErasesTheLineAndHoldsFrames() throws {
        let terminal = try PseudoTerminal()
        let spinner = Spinner("waiting…", output: terminal.slave, ascii: true)
        spinner.redraw()
        spinner.whilePaused {
            spinner.redraw()  // held: a question is on the line
            _ = "Allow?".withCString { write(terminal.slave, $0, 6) }
        }
        spinner.stop()
        #expect(try terminal.screen() == Spinner.clearLine + "| waiting…" + Spinner.clearLine + "Allow?")
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

    /// Runs `process` to its end on a thread of its own: the run takes seconds, which must not
    /// hold one of the few cooperative threads every test's task shares.
    static func runToEnd(_ process: Process) async throws {
        try await BlockingCall.run { Result { try process.run(); process.waitUntilExit() } }
    }

    @Test func spinnerOnATerminalIsErasedBeforeTheMessage() async throws {
        let terminal = try PseudoTerminal()
        let runner = try CommandRunner()
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = slowRun
        process.environment = ["HOME": runner.home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(fileDescriptor: terminal.slave, closeOnDealloc: false)
        process.standardInput = FileHandle.nullDevice
        try await Self.runToEnd(process)
        #expect(process.terminationStatus == 75)
        let screen = try terminal.screen()
        #expect(screen.contains("reading the NMEA source…"))
        let erased = try #require(screen.range(of: Spinner.clearLine, options: .backwards))
        let message = try #require(screen.range(of: "here-weather: No NMEA fix"))
        #expect(erased.upperBound == message.lowerBound, "the line is cleared right before the error")
    }

    @Test func noSpinnerInMachineModesEvenOnATerminal() async throws {
        let terminal = try PseudoTerminal()
        let runner = try CommandRunner()
        for mode in [["--json"], ["--format", "%t"], ["--waybar"]] {
            let process = Process()
            process.executableURL = CommandRunner.executable
            process.arguments = slowRun + mode
            process.environment = ["HOME": runner.home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle(fileDescriptor: terminal.slave, closeOnDealloc: false)
            process.standardInput = FileHandle.nullDevice
            try await Self.runToEnd(process)
        }
        let screen = try terminal.screen()
        #expect(!screen.contains("reading the NMEA source"))
        #expect(!screen.contains(Spinner.clearLine))
    }
}
