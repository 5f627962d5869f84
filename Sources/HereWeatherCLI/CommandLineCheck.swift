import ArgumentParser
import HereWeatherCore

/// What the command words on a command line say, for the errors swift-argument-parser cannot
/// word well: a mistyped command, a command put after options, and which command's help a
/// usage error should point to.
///
/// `report` is the default command, so a word that is not a command reaches it as an
/// unexpected argument ("Unexpected argument 'wehre'" and the report's usage); `help WORD`
/// prints the top-level help for any word. Both are caught here, before parsing.
enum CommandLineCheck {
    /// The command words at the start of `arguments` (after `help`), the command they lead to,
    /// and the argument index where they end (the first option, or a command's own arguments).
    struct Walk {
        var command: any ParsableCommand.Type = HereWeather.self
        var names: [String] = []
        var end = 0
        /// A word where a command name belongs that names none.
        var unknown: String?
    }

    static func walk(_ arguments: [String]) -> Walk {
        var walk = Walk()
        while walk.end < arguments.count {
            let word = arguments[walk.end]
            // `help COMMAND...` names commands as the line would; `help help` is help's own help.
            if word == "help" && walk.names.isEmpty {
                guard walk.end == 0 else { break }
                walk.end = 1
                continue
            }
            let subcommands = walk.command.configuration.subcommands
            guard !word.hasPrefix("-"), !subcommands.isEmpty else { break }
            guard let next = subcommands.first(where: { name(of: $0) == word }) else {
                walk.unknown = word
                break
            }
            walk.command = next
            walk.names.append(word)
            walk.end += 1
        }
        return walk
    }

    /// The usage error for a word that stands where a command belongs and names none:
    /// `Unknown command 'config int'. Did you mean 'config init'?`.
    static func unknownCommand(in arguments: [String]) -> UsageError? {
        let walk = walk(arguments)
        guard let word = walk.unknown else { return nil }
        var commands = walk.command.configuration.subcommands.map(name(of:))
        if walk.names.isEmpty && arguments.first != "help" { commands.append("help") }
        let prefix = walk.names.map { $0 + " " }.joined()
        let shown = ServiceText.printable(prefix + word)
        if let nearest = Suggestion.nearest(to: word, among: commands) {
            return UsageError("Unknown command '\(shown)'. Did you mean '\(prefix)\(nearest)'?")
        }
        return UsageError("Unknown command '\(shown)'. Use \(commands.map { "'\(prefix)\($0)'" }.alternatives).")
    }

    /// After a failed parse: when a command name stands after options (`--config x.toml where`)
    /// and the line parses with it moved to the front, says so with the corrected line.
    static func misplacedCommand(in arguments: [String]) -> String? {
        let walk = walk(arguments)
        let names = Set(walk.command.configuration.subcommands.map(name(of:)))
        let rest = Array(arguments[walk.end...])
        for (index, word) in rest.enumerated() where names.contains(word) {
            var moved = rest
            moved.remove(at: index)
            let line = Array(arguments[..<walk.end]) + [word] + moved
            if (try? HereWeather.parseAsRoot(line)) != nil {
                return "The command comes before its options: here-weather " + line.map(quoted).joined(separator: " ")
            }
        }
        return nil
    }

    /// The command a usage error on this line belongs to, default commands included:
    /// `here-weather report`, `here-weather permissions allow`.
    static func commandLine(of arguments: [String]) -> String {
        let walk = walk(arguments)
        var names = ["here-weather"] + walk.names
        var command = walk.command
        while let next = command.configuration.defaultSubcommand {
            names.append(name(of: next))
            command = next
        }
        return names.joined(separator: " ")
    }

    static func name(of command: any ParsableCommand.Type) -> String {
        command.configuration.commandName ?? ""
    }

    /// `word` as a shell reads it back: as is when plain, else in single quotes.
    static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)) || "-_./:=@%+,".unicodeScalars.contains($0)
        }
        return plain ? word : "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
