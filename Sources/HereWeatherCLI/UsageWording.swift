import ArgumentParser
import HereWeatherCore

/// One style for every usage error (exit 64): a capitalised sentence with a full stop, a
/// suggestion as a sentence of its own (`Unknown option '--x'. Did you mean '--y'?`), a bad
/// value as `Invalid value 'abc' for --lat: use a number from -90 to 90 (degrees).`
///
/// swift-argument-parser words its own errors; the ones a user meets most are reworded here:
/// an unknown option gets the nearest option of the command it was given to (`--verison` and
/// `-V` are `--version`), and a report option given to another command (`where --hourly`)
/// says whose option it is.
enum UsageWording {
    static func reworded(_ message: String, arguments: [String]) -> String {
        let command = command(of: arguments)
        if let rest = message.wholeMatch(of: /The value '(.*)' is invalid for '([^' ]+)(?: <[^>]*>)?': (.*)/) {
            return sentence("Invalid value '\(rest.1)' for \(rest.2): \(rest.3)")
        }
        if message.hasPrefix("Missing expected argument '<source> ...'") {
            return "Name at least one source: \(Choice<LocationSource>.choices), or all."
        }
        if let unknown = message.firstMatch(of: /^Unknown option '([^']*)'/) {
            return unknownOption(String(unknown.1), command: command, commandLine: CommandLineCheck.commandLine(of: arguments))
        }
        return sentence(message)
    }

    /// `Unknown option '--verison'. Did you mean '--version'?`, or the report's option named.
    static func unknownOption(_ option: String, command: any ParsableCommand.Type, commandLine: String) -> String {
        let name = option.split(separator: "=", maxSplits: 1).first.map(String.init) ?? option
        let shown = ServiceText.printable(option)
        let isReport = command == ReportCommand.self
        let own = optionNames(of: command) + (isReport ? ["--version"] : [])
        if !isReport, optionNames(of: ReportCommand.self).contains(name) {
            return "Unknown option '\(shown)' for '\(commandLine)': \(name) is an option of the weather report (here-weather \(name))."
        }
        let nearest = name == "-V" || name == "-v" ? (isReport ? "--version" : nil)
            : Suggestion.nearest(to: name, among: own)
        return "Unknown option '\(shown)'." + (nearest.map { " Did you mean '\($0)'?" } ?? "")
    }

    /// The long options `command` takes, from its help.
    static func optionNames(of command: any ParsableCommand.Type) -> [String] {
        let help = command.helpMessage(columns: 1000)
        var names: [String] = []
        for match in help.matches(of: /(?:^|[\s,\[])(--[a-z][a-z0-9-]*)/) where !names.contains(String(match.1)) {
            names.append(String(match.1))
        }
        return names
    }

    /// The command that a line's options belong to: `report` for the root.
    static func command(of arguments: [String]) -> any ParsableCommand.Type {
        var command = CommandLineCheck.walk(arguments).command
        while let next = command.configuration.defaultSubcommand { command = next }
        return command
    }

    /// Help with its `USAGE:` line wrapped at `width` columns, between options (never inside
    /// `[--lat <degrees>]`), the later lines under the first option:
    ///
    ///     USAGE: here-weather where [--lat <degrees>] [--lon <degrees>] [--city <name>]
    ///                               [--accuracy <level>] ...
    static func wrappingUsage(_ help: String, width: Int = 80) -> String {
        var lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let index = lines.firstIndex(where: { $0.hasPrefix("USAGE: ") }), lines[index].count > width else { return help }
        var groups: [String] = []
        var depth = 0
        for word in lines[index].split(separator: " ") {
            if depth > 0, let last = groups.popLast() { groups.append(last + " " + word) } else { groups.append(String(word)) }
            depth += word.count(where: { $0 == "[" || $0 == "<" }) - word.count(where: { $0 == "]" || $0 == ">" })
        }
        // "USAGE:", the command's words, then the options: continuation lines start under the first option.
        let lead = groups.prefix { !$0.hasPrefix("[") && !$0.hasPrefix("<") && !$0.hasPrefix("-") }
        let indent = String(repeating: " ", count: min(lead.joined(separator: " ").count + 1, width / 2))
        var wrapped: [String] = []
        var current = lead.joined(separator: " ")
        for group in groups.dropFirst(lead.count) {
            if current.count + 1 + group.count > width, current.count > indent.count {
                wrapped.append(current)
                current = indent + group
            } else {
                current += (current.isEmpty ? "" : " ") + group
            }
        }
        wrapped.append(current)
        lines.replaceSubrange(index...index, with: wrapped)
        return lines.joined(separator: "\n")
    }

    /// `message` capitalised, ending in a full stop unless it ends in one already (or `?`).
    static func sentence(_ message: String) -> String {
        guard let first = message.first else { return message }
        var text = first.isLowercase ? first.uppercased() + message.dropFirst() : message
        if let last = text.last, !".?!".contains(last) { text += "." }
        return text
    }
}
