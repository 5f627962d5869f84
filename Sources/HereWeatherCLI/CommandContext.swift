import HereWeatherCore
#if canImport(Glibc)
import Glibc
#endif

/// What one run of the command gets from its process: the arguments, the environment, where
/// stdout and stderr go, which of stdin, stdout and stderr are terminals, the terminal's width,
/// whether the process runs as root, where the permission question is asked, and how the run's
/// system is assembled (`SystemAssembly`).
///
/// The executable passes the real process's (`process()`); tests pass captured sinks and
/// facts of their choosing, and run the command in-process. A run sees its context through
/// `CommandContext.current` (a task-local value, which the tasks a run starts inherit); code
/// that runs on a thread of its own (`BlockingCall`) is handed what it needs instead.
public struct CommandContext: Sendable {
    /// The command line after the program's name, byte for byte as `SystemPath` decodes it.
    public var arguments: [String]
    /// The environment, names and values byte for byte.
    public var environment: [String: String]
    /// Where the report, help, JSON and completion scripts go.
    public var standardOutput: any OutputSink
    /// Where error, warning and `--verbose` lines go.
    public var standardError: any OutputSink
    public var standardInputIsTerminal: Bool
    public var standardOutputIsTerminal: Bool
    public var standardErrorIsTerminal: Bool
    /// The terminal's width in columns when stdout is a terminal that knows it.
    public var terminalColumns: Int?
    /// Whether the process runs as root (`SystemPolicy.runsAsRoot`), who alone may name
    /// another system policy.
    public var runsAsRoot: Bool
    /// Where a permission question is asked (interactive only on a terminal).
    public var prompt: any PermissionPrompt
    /// How the run's system (HTTP, gpsd, GeoClue, NetworkManager, the clock) is assembled.
    public var assembly: SystemAssembly

    public init(arguments: [String], environment: [String: String],
                standardOutput: any OutputSink, standardError: any OutputSink,
                standardInputIsTerminal: Bool = false, standardOutputIsTerminal: Bool = false,
                standardErrorIsTerminal: Bool = false, terminalColumns: Int? = nil, runsAsRoot: Bool = false,
                prompt: any PermissionPrompt, assembly: SystemAssembly = .live) {
        self.arguments = arguments
        self.environment = environment
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.standardInputIsTerminal = standardInputIsTerminal
        self.standardOutputIsTerminal = standardOutputIsTerminal
        self.standardErrorIsTerminal = standardErrorIsTerminal
        self.terminalColumns = terminalColumns
        self.runsAsRoot = runsAsRoot
        self.prompt = prompt
        self.assembly = assembly
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
                                  standardError: FileDescriptorOutput(STDERR_FILENO), prompt: FileDescriptorPrompt())
        }
        return live(arguments: arguments, standardOutput: standardOutput)
    }

    /// The process's streams, environment and terminal facts, with `arguments`.
    static func live(arguments: [String], standardOutput: any OutputSink = FileDescriptorOutput(STDOUT_FILENO)) -> CommandContext {
        CommandContext(
            arguments: arguments,
            environment: SystemPath.environment,
            standardOutput: standardOutput,
            standardError: FileDescriptorOutput(STDERR_FILENO),
            standardInputIsTerminal: isatty(STDIN_FILENO) == 1,
            standardOutputIsTerminal: isatty(STDOUT_FILENO) == 1,
            standardErrorIsTerminal: isatty(STDERR_FILENO) == 1,
            terminalColumns: TerminalWidth.terminalColumns(STDOUT_FILENO),
            runsAsRoot: SystemPolicy.runsAsRoot,
            prompt: FileDescriptorPrompt())
    }

    /// The context of the run this task belongs to; outside a run, the process's own streams.
    public static var current: CommandContext { bound ?? .live(arguments: []) }

    /// The run's context, bound by `HereWeatherCommand.run` for the tasks of the run. Optional,
    /// so that binding it costs no default context (the environment read for nothing).
    @TaskLocal static var bound: CommandContext?

    /// The width the text report may use: `COLUMNS`, else the terminal's, else 80 (`TerminalWidth`).
    var reportWidth: Int {
        TerminalWidth.resolve(columnsVariable: environment["COLUMNS"], terminalColumns: terminalColumns)
    }
}
