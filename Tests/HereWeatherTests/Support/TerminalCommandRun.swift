import Foundation
import Glibc
import HereWeatherCore

/// The built binary run by a person at a terminal: stdin and stderr on a pseudo-terminal
/// (so the permission prompt shows), stdout captured, HOME as the runner's.
final class TerminalCommandRun: @unchecked Sendable {
    let terminal: PseudoTerminal
    let process: ChildProcess
    private let out: ChildPipe
    private let output: CollectedOutput
    /// Everything read from the terminal so far.
    private var shown: [UInt8] = []

    init(_ runner: CommandRunner, _ arguments: [String], environment extra: [String: String] = [:]) throws {
        terminal = try PseudoTerminal()
        var environment = ["HOME": runner.home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        for (key, value) in extra { environment[key] = value }
        out = try ChildPipe()
        process = try ChildProcess([CommandRunner.executable.path] + arguments, environment: environment,
                                   stdin: .use(terminal.slave), stdout: .use(out.childEnd), stderr: .use(terminal.slave))
        out.closeChildEnd()
        output = CollectedOutput(out)
    }

    /// Reads the terminal until `text` shows (bounded, so a broken test cannot hang) and
    /// returns everything shown so far; waits on a thread of its own, as `finish` does.
    func waitFor(_ text: String) async throws -> String {
        try await BlockingCall.run { Result { try self.readUntilShown(text) } }
    }

    private func readUntilShown(_ text: String) throws -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: shown, as: UTF8.self).contains(text) {
            var descriptor = pollfd(fd: terminal.master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 30_000) == 1 else { throw PseudoTerminal.Failure(description: "no \(text) on the terminal") }
            let count = read(terminal.master, &buffer, buffer.count)
            guard count > 0 else { throw PseudoTerminal.Failure(description: "terminal closed") }
            shown += buffer[0..<count]
        }
        return String(decoding: shown, as: UTF8.self)
    }

    /// Everything the terminal has shown, reading what is waiting without blocking: after
    /// `finish`, the whole of it.
    func shownWithoutWaiting() -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var descriptor = pollfd(fd: terminal.master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) == 1 else { break }
            let count = read(terminal.master, &buffer, buffer.count)
            guard count > 0 else { break }
            shown += buffer[0..<count]
        }
        return String(decoding: shown, as: UTF8.self)
    }

    /// Types `text` at the keyboard.
    func type(_ text: String) { terminal.type(text) }

    /// Waits (on a thread of its own) for the exit: the status and stdout.
    func finish() async throws -> (status: Int32, stdout: String) {
        let ended = await process.exited()
        let text = try await BlockingCall.run { [output] in .success(output.text()) }
        return (ended.code, text)
    }
}
