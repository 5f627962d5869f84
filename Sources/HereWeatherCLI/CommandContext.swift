import HereWeatherCore
#if canImport(Glibc)
import Glibc
#endif

/// What one run of the command gets from its process: the arguments, the environment, where
/// stdout and stderr go, which of stdin, stdout and stderr are terminals, the terminal's width,
/// whether the process runs as root, where the permission question is answered, and how the
/// run's system is assembled (`SystemAssembly`).
///
/// The executable passes the real process's (`process()`); tests pass captured sinks and
/// facts of their choosing, and run the command in-process. The context is handed down, never
/// looked up: the commands get it as an argument (`ContextCommand`), and a command's `Run`
/// holds it. Its `console` is the one writer of stderr.
public struct CommandContext: Sendable {
    /// The command line after the program's name, byte for byte as `SystemPath` decodes it.
    public let arguments: [String]
    /// The environment, names and values byte for byte.
    public let environment: [String: String]
    /// Where the report, help, JSON and completion scripts go.
    public let standardOutput: any OutputSink
    /// Standard error: every error, warning and `--verbose` line, the progress line and the
    /// permission question go through it.
    public let console: Console
    /// Which streams are terminals, and the terminal's width.
    public let terminals: Terminals
    /// Whether the process runs as root (`SystemPolicy.runsAsRoot`), who alone may name
    /// another system policy.
    public let runsAsRoot: Bool
    /// Where a permission question is asked (interactive only on a terminal).
    public let prompt: any PermissionPrompt
    /// How the run's system (HTTP, gpsd, GeoClue, NetworkManager, the clock) is assembled.
    public let assembly: SystemAssembly

    /// Which of stdin, stdout and stderr are terminals, and the terminal's width.
    public struct Terminals: Sendable {
        public var standardInput: Bool
        public var standardOutput: Bool
        public var standardError: Bool
        /// The terminal's width in columns when stdout is a terminal that knows it.
        public var columns: Int?

        /// None by default, as with stdin from /dev/null and pipes.
        public init(standardInput: Bool = false, standardOutput: Bool = false, standardError: Bool = false,
                    columns: Int? = nil) {
            self.standardInput = standardInput
            self.standardOutput = standardOutput
            self.standardError = standardError
            self.columns = columns
        }
    }

    /// Where the permission question is answered.
    public enum PromptSource: Sendable {
        /// By a person: answers read from `input` (stdin), the question written through the
        /// context's console.
        case terminal(input: Int32)
        /// By a test's script.
        case scripted(any PermissionPrompt)
    }

    public init(arguments: [String], environment: [String: String],
                standardOutput: any OutputSink, standardError: any OutputSink, terminals: Terminals,
                runsAsRoot: Bool, prompt: PromptSource, assembly: SystemAssembly) {
        self.arguments = arguments
        self.environment = environment
        self.standardOutput = standardOutput
        console = Console(sink: standardError, charset: TextCharset.locale(environment), isTerminal: terminals.standardError)
        self.terminals = terminals
        self.runsAsRoot = runsAsRoot
        self.assembly = assembly
        switch prompt {
        case .terminal(let input): self.prompt = TerminalPrompt(console: console, input: input)
        case .scripted(let scripted): self.prompt = scripted
        }
    }

    /// The running process's context. First puts /dev/null on any of stdin, stdout and stderr
    /// that the program was started with closed (`Terminal.reserveStandardStreams`), before
    /// anything opens a file: reading the arguments opens /proc/self/cmdline. A closed stdout
    /// stays one (`ClosedOutput`): writing the report to it fails as it should.
    /// `--version` alone (scripts and packaging ask it) is answered from the arguments only
    /// (`HereWeather.run`), so its context reads neither the environment nor the terminal:
    /// decoding the environment would add half again to that run's instructions.
    public static func process() -> CommandContext {
        let closed = Terminal.reserveStandardStreams()
        let arguments = Array(SystemPath.arguments.dropFirst())
        let standardOutput: any OutputSink = closed.contains(STDOUT_FILENO) ? ClosedOutput() : FileDescriptorOutput(STDOUT_FILENO)
        if arguments == ["--version"] {
            return CommandContext(arguments: arguments, environment: [:], standardOutput: standardOutput,
                                  standardError: FileDescriptorOutput(STDERR_FILENO), terminals: Terminals(),
                                  runsAsRoot: false, prompt: .terminal(input: STDIN_FILENO), assembly: .live)
        }
        return CommandContext(
            arguments: arguments,
            environment: SystemPath.environment,
            standardOutput: standardOutput,
            standardError: FileDescriptorOutput(STDERR_FILENO),
            terminals: Terminals(standardInput: isatty(STDIN_FILENO) == 1, standardOutput: isatty(STDOUT_FILENO) == 1,
                                 standardError: isatty(STDERR_FILENO) == 1,
                                 columns: TerminalWidth.terminalColumns(STDOUT_FILENO)),
            runsAsRoot: SystemPolicy.runsAsRoot, prompt: .terminal(input: STDIN_FILENO), assembly: .live)
    }

    /// The width the text report may use: `COLUMNS`, else the terminal's, else 80 (`TerminalWidth`).
    var reportWidth: Int {
        TerminalWidth.resolve(columnsVariable: environment["COLUMNS"], terminalColumns: terminals.columns)
    }
}
