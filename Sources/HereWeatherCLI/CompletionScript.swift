import HereWeatherCore

/// The shell completion scripts swift-argument-parser writes (`--generate-completion-script`),
/// adjusted where they fall short.
///
/// `report` is the default command, so `here-weather --units imperial` is a report; but the
/// generated bash script completes only the root's own options there (`--ho<Tab>` offers
/// nothing; swift-argument-parser issue #488). The bash script is given one rule at the top of
/// its root function: a line whose first word is an option is completed as `report`'s; and
/// `help <Tab>` offers the commands (`help config <Tab>` config's). The zsh and fish scripts
/// get the same two rules (issue 35 D20: `--units <Tab>` offered the commands in fish and
/// nothing in zsh), and fish shows a short description of each value.
enum CompletionScript {
    /// `text` with the bash script's root function completing `report`'s options; any other
    /// text (help, another shell's script, a bash script not laid out as expected) as it is.
    static func adjusted(_ text: String) -> String {
        if text.hasPrefix("#compdef here-weather") { return adjustedZsh(text) }
        if text.contains("\ncomplete -c 'here-weather' ") { return adjustedFish(text) }
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

    /// Completes `help`'s arguments: the commands (`help` itself left out), and after a command
    /// that has commands of its own, those (`help config <Tab>`: path, show, init).
    static var helpRule: String {
        var cases = ["    case \"${COMP_WORDS[COMP_CWORD-1]}\" in"]
        for command in HereWeather.configuration.subcommands where !command.configuration.subcommands.isEmpty {
            let names = command.configuration.subcommands.compactMap { $0.configuration.commandName }
            cases.append("    \(command.configuration.commandName ?? "")) COMPREPLY+=($(compgen -W '\(names.joined(separator: " "))' -- \"${cur}\")) ;;")
        }
        cases.append("    help) COMPREPLY+=($(compgen -W '\(commands.joined(separator: " "))' -- \"${cur}\")) ;;")
        cases.append("    esac")
        return cases.joined(separator: "\n")
    }

    /// The commands `help` explains.
    static var commands: [String] {
        HereWeather.configuration.subcommands.map { $0.configuration.commandName ?? "" }.filter { !$0.isEmpty }
    }

    /// The zsh script's root function, and where its locals end: the report rule goes there.
    static let zshRootLocals = "    local -ir current_word_index=\"$((CURRENT - 1))\""

    /// The fish script: the root parser takes a line whose first word is an option (or a first
    /// word being typed that is one) as a report's; `help <Tab>` offers the commands; the values
    /// of `--units`, `--provider`, `--format` and `--source` come with a short description.
    static func adjustedFish(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let root = lines.firstIndex(of: "    case 'here-weather'") {
            lines.insert(contentsOf: [
                "        # The default command: a line whose first word is an option is a report's.",
                "        if string match -q -- '-*' $unparsed_tokens[2]; or begin; test (count $unparsed_tokens) -eq 1; and string match -q -- '-*' (commandline -ct); end",
                "            set unparsed_tokens $unparsed_tokens[1] report $unparsed_tokens[2..]",
                "        end",
            ], at: root + 1)
        }
        for (index, line) in lines.enumerated() {
            for (option, values) in valueDescriptions where line.contains(" -l '\(option)' ") {
                guard let range = line.ranges(of: " -rfka '").last else { continue }
                let pairs = values.map { "\\'\($0.value)\\' \\'\($0.description)\\'" }.joined(separator: " ")
                lines[index] = line[..<range.lowerBound] + " -rfka '(printf \\'%s\\\\t%s\\\\n\\' \(pairs))'"
            }
        }
        let help = HereWeather.configuration.subcommands.map { command in
            "complete -c 'here-weather' -n '__here-weather_should_offer_completions_for_positional \"here-weather help\" -eq 1' "
                + "-fa '\(command.configuration.commandName ?? "")' -d '\(command.configuration.abstract.replacing("'", with: "\\'"))'"
        }
        let end = lines.last == "" ? lines.count - 1 : lines.count
        lines.insert(contentsOf: help, at: end)
        return lines.joined(separator: "\n")
    }

    /// Short descriptions of option values, for fish.
    static let valueDescriptions: [(option: String, values: [(value: String, description: String)])] = [
        ("units", [("metric", "°C, m/s, mm"), ("imperial", "°F, mph, in"), ("standard", "K, m/s, mm")]),
        ("provider", WeatherProviderKind.allCases.map { ($0.rawValue, $0.displayName + Self.needs($0)) }),
        ("format", FormatString.presets.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            + FormatString.Code.allCases.map { ("%\($0.letter)", $0.summary) }),
        ("source", LocationSource.allCases.map { ($0.rawValue, $0.permissionName) }),
    ]

    /// What a weather service needs, in a completion's description.
    static func needs(_ kind: WeatherProviderKind) -> String {
        switch kind {
        case .openMeteo: return ", no key"
        case .openWeatherMap, .pirateWeather: return ", an API key"
        case .metNorway, .nws: return ", a contact"
        }
    }

    /// The zsh script with `help <Tab>` offering the commands: its generated `help` function
    /// names the argument but offers nothing for it.
    static func adjustedZsh(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let root = lines.firstIndex(of: "_here-weather() {"), let locals = lines[root...].firstIndex(of: zshRootLocals) {
            lines.insert(contentsOf: [
                "",
                "    # The default command: a line whose first word is an option is a report's.",
                "    if [[ \"${words[2]}\" == -* ]]; then",
                "        _here-weather_report",
                "        return",
                "    fi",
            ], at: locals + 1)
        }
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
