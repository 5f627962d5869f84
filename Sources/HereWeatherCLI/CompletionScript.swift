/// The shell completion scripts swift-argument-parser writes (`--generate-completion-script`),
/// adjusted where they fall short.
///
/// `report` is the default command, so `here-weather --units imperial` is a report; but the
/// generated bash script completes only the root's own options there (`--ho<Tab>` offers
/// nothing; swift-argument-parser issue #488). The bash script is given one rule at the top of
/// its root function: a line whose first word is an option is completed as `report`'s; and
/// `help <Tab>` offers the commands, in bash and zsh.
enum CompletionScript {
    /// `text` with the bash script's root function completing `report`'s options; any other
    /// text (help, another shell's script, a bash script not laid out as expected) as it is.
    static func adjusted(_ text: String) -> String {
        if text.hasPrefix("#compdef here-weather") { return adjustedZsh(text) }
        guard text.hasPrefix("#!/bin/bash") else { return text }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let root = lines.firstIndex(of: "_here-weather() {"),
              let anchor = lines[root...].firstIndex(of: rootWordsLine)
        else { return text }
        lines.insert(contentsOf: reportRule, at: anchor + 1)
        // `help <Tab>` offers the commands it can explain (the generated function offers none).
        if let help = lines.firstIndex(of: "_here-weather_help() {"),
           let offer = lines[help...].firstIndex(of: "    __here-weather_offer_flags_options -1") {
            lines.insert(helpRule, at: offer + 1)
        }
        return lines.joined(separator: "\n")
    }

    /// Completes `help`'s argument with the commands (`help` itself left out).
    static var helpRule: String {
        "    COMPREPLY+=($(compgen -W '\(commands.joined(separator: " "))' -- \"${cur}\"))"
    }

    /// The commands `help` explains.
    static var commands: [String] {
        HereWeather.configuration.subcommands.map { $0.configuration.commandName ?? "" }.filter { !$0.isEmpty }
    }

    /// The zsh script with `help <Tab>` offering the commands: its generated `help` function
    /// names the argument but offers nothing for it.
    static func adjustedZsh(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let help = lines.firstIndex(of: "_here-weather_help() {"),
              let argument = lines[help...].firstIndex(of: "        '*:subcommands:'") else { return text }
        lines[argument] = "        '*:subcommands:(\(commands.joined(separator: " ")))'"
        return lines.joined(separator: "\n")
    }

    /// The line of the root function that collects the words typed after `here-weather`.
    static let rootWordsLine = "    local -a unparsed_words=(\"${COMP_WORDS[@]:1:${COMP_CWORD}}\")"

    /// Completes the line as `report`'s when its first word is an option, with the variables
    /// `report`'s function sets kept local.
    static let reportRule = [
        "",
        "    # The default command: a line that starts with an option is a report's.",
        "    if [[ \"${unparsed_words[0]}\" = -* ]]; then",
        "        local -a repeating_flags non_repeating_flags repeating_options non_repeating_options",
        "        _here-weather_report",
        "        return",
        "    fi",
    ]
}
