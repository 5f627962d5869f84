import ArgumentParser
import HereWeatherCore
#if canImport(Glibc)
import Glibc
#endif

/// The command line's entry, for the executable and for tests that run the command in-process.
public enum HereWeatherCommand {
    /// Runs the command line of `context` with its streams and facts, and returns the exit
    /// status; the caller exits with it.
    public static func run(_ context: CommandContext) async -> Int32 {
        await HereWeather.run(context)
    }
}

/// A command that runs with the run's context handed to it: the commands never look their
/// context up. Those that read the config make their `Run` from it.
protocol ContextCommand: ParsableCommand {
    func run(in context: CommandContext) async throws
}

/// The `here-weather` command: finds where this machine is and reports the weather there.
struct HereWeather: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "here-weather",
        abstract: "Report the weather where this machine is.",
        discussion: """
        The location comes from the sources in [location] sources, from --lat/--lon or from \
        --city. With no sources configured, the chain is gpsd, GeoClue, Wi-Fi positioning, IP \
        lookup, then the fixed location if [location.fixed] has one: sources not present on \
        this machine are skipped, the first run on a terminal asks once which may be used \
        (without a terminal: exit 77 with the command that allows them), and the first fix \
        that meets the desired accuracy wins. A fixed location without a stated accuracy, or \
        within the desired one, is the answer at once: nothing is asked, no other source \
        started. A coarser one is the fallback after the live sources (without a terminal, \
        sources not yet allowed are skipped with a warning). The weather comes from the \
        service in [weather] provider or --provider: Open-Meteo (the default, no key needed), \
        OpenWeatherMap, MET Norway, Pirate Weather, or for US points the National Weather \
        Service (MET Norway and NWS need a contact address). At US points the NWS's official \
        alerts are added ([alerts] nws); in Europe MET Norway's, DWD's or MeteoAlarm's warnings \
        ([alerts] metno, dwd, meteoalarm).

        Examples:
          here-weather --lat 27.95 --lon -82.46
          here-weather --city "Melbourne, AU"
          here-weather --daily --units imperial
          here-weather --json | jq .weather.current.temperature
          here-weather --format '%c %t %w'  # one line for status bars and prompts
          here-weather --waybar           # JSON for a waybar custom module
          here-weather config init        # write a commented config file to edit

        The options below are the report's; `here-weather report --help` adds the %-codes \
        of --format and what --waybar prints.

        Config file: $HERE_WEATHER_CONFIG, else $XDG_CONFIG_HOME/here-weather/config.toml \
        (~/.config/here-weather/config.toml).

        Certificate authorities: https requests trust the system's, or those that \
        $CURL_CA_BUNDLE (a PEM file), else $SSL_CERT_DIR (a hashed directory) and $SSL_CERT_FILE \
        (a PEM file) name, as curl reads them (e.g. behind a TLS-intercepting proxy); one that \
        cannot be read is a configuration error (exit 78).

        \(ExitStatus.helpList)
        """,
        version: HereWeatherVersion.current,
        subcommands: [ReportCommand.self, WhereCommand.self, DoctorCommand.self, ConfigCommand.self, PermissionsCommand.self],
        defaultSubcommand: ReportCommand.self
    )

    /// Runs the command as swift-argument-parser would, except that what it prints goes through
    /// the context too (`output`, `console`):
    /// help, version and completion scripts are checked writes, and its error lines (which
    /// echo what was typed) are made safe like every other line on stderr. A command line
    /// that does not parse, with `--json` on it, gets the JSON error on stdout like every
    /// other failure: the commands never ran to print it.
    static func run(_ context: CommandContext) async -> Int32 {
        let arguments = context.arguments
        // `--version` alone (scripts and packaging ask it) is answered before swift-argument-
        // parser's set-up, which is ~75% of that run's instructions (its reflection over every
        // command's options): the text, checked write and exit status it gives.
        if arguments == ["--version"] { return context.finish(output: HereWeatherVersion.current) }
        var command: any ParsableCommand
        do {
            if let unknown = CommandLineCheck.unknownCommand(in: arguments) { throw unknown }
            command = try await asyncParseAsRoot(arguments)
        } catch {
            if asksForJSON(arguments) {
                if let usage = error as? UsageError {
                    context.json(error: usage)
                } else if ExitStatus(rawValue: exitCode(for: error).rawValue) == .usage {
                    context.json(error: UsageError(UsageWording.reworded(firstLine(message(for: error)), arguments: arguments)))
                }
            }
            return finish(error, context: context)
        }
        do {
            if let command = command as? any ContextCommand {
                try await command.run(in: context)
            } else {
                try command.run()
            }
        } catch {
            return finish(error, context: context)
        }
        return ExitStatus.ok.rawValue
    }

    /// Reports what ended the run and returns its exit status. Help, the version and completion
    /// scripts go to stdout (exit 0). Every error line on stderr starts "here-weather: ". A
    /// command-line error (64) is its message (or the line with the command moved first),
    /// then which help shows the usage: no usage block, no "Error:".
    static func finish(_ error: any Error, context: CommandContext) -> Int32 {
        if let error = error as? any UserFacingError {
            return context.fail(error).rawValue
        }
        let status = exitCode(for: error)
        if status == .success {
            return context.finish(output: UsageWording.wrappingUsage(CompletionScript.adjusted(withReportOptions(fullMessage(for: error)))))
        }
        let message = message(for: error)
        guard !message.isEmpty else { return status.rawValue }  // an exit the command reported itself
        let arguments = context.arguments
        if status.rawValue == ExitStatus.usage.rawValue {
            if let corrected = CommandLineCheck.misplacedCommand(in: arguments) {
                context.console.line("here-weather: " + corrected)
            } else {
                context.console.line("here-weather: " + UsageWording.reworded(message, arguments: arguments))
                context.console.line("here-weather: See '\(CommandLineCheck.commandLine(of: arguments)) --help'.")
            }
        } else {
            context.console.line("here-weather: " + message)
        }
        return status.rawValue
    }

    /// The top-level help with the options of the default command in it: a plain
    /// `here-weather` runs the report, so `here-weather --help` lists what it takes (`--lat`,
    /// `--json`, `--format`, ...), not only `--version` and `--help`. Other help is unchanged.
    static func withReportOptions(_ help: String) -> String {
        guard help.hasPrefix("OVERVIEW: \(configuration.abstract)"), let rootOptions = section("OPTIONS:", in: help) else {
            return help
        }
        let reportHelp = ReportCommand.helpMessage()
        guard let reportOptions = section("OPTIONS:", in: reportHelp) else { return help }
        let version = help[rootOptions].split(separator: "\n").filter { $0.hasPrefix("  --version") }
        let options = "OPTIONS (of report, the default command):\n"
            + (reportHelp[reportOptions].split(separator: "\n").dropFirst() + version).joined(separator: "\n") + "\n"
        var combined = help
        combined.replaceSubrange(rootOptions, with: options)
        return combined.replacing("\nUSAGE: here-weather <subcommand>\n",
                                  with: "\nUSAGE: here-weather [<options>]\n       here-weather <subcommand>\n", maxReplacements: 1)
    }

    /// The range of the section that starts with the line `title` and ends before the next
    /// blank line (or the end).
    static func section(_ title: String, in help: String) -> Range<String.Index>? {
        guard let start = help.firstRange(of: "\n" + title + "\n")?.lowerBound else { return nil }
        let body = help.index(after: start)
        let end = help[body...].firstRange(of: "\n\n")?.lowerBound ?? help.endIndex
        return body..<help.index(end, offsetBy: end == help.endIndex ? 0 : 1)
    }

    /// Whether `--json` is among the options (before a `--` that ends them).
    static func asksForJSON(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains("--json")
    }

    /// The message's first line: the error without the help lines the parser adds to some.
    static func firstLine(_ message: String) -> String {
        String(message.split(separator: "\n", omittingEmptySubsequences: true).first ?? Substring(message))
    }
}
