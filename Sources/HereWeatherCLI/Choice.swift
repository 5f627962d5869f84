import ArgumentParser
import HereWeatherCore

/// A word given for an option (or argument) whose values are `Value`'s: `--units`,
/// `--provider`, `--accuracy`, `--source`, the `permissions` sources.
///
/// `Value` alone says which words are valid (its `ExpressibleByArgument` conformance below):
/// the help, the shell completion scripts and the error all list `Value.allValueStrings`.
/// Parsing keeps any word and `checked` refuses it in `validate()`, because a value the
/// parser itself refuses gets swift-argument-parser's "The value ... is invalid" with no
/// suggestion, and the error cannot tell which option it came from.
struct Choice<Value: ExpressibleByArgument>: ExpressibleByArgument {
    /// What was typed.
    let word: String
    /// The value `word` names, if it names one.
    let value: Value?

    init(argument: String) {
        word = argument
        value = Value(argument: argument)
    }

    static var allValueStrings: [String] { Value.allValueStrings }
    static var defaultCompletionKind: CompletionKind { .list(Value.allValueStrings) }

    /// The value, else a usage error that names the choices and the nearest one:
    /// `Invalid value 'metrc' for --units: use metric, imperial or standard. Did you mean 'metric'?`
    /// `name` is the option, or what an argument is (`source`: `Invalid source 'gpds': ...`).
    func checked(_ name: String) throws -> Value {
        if let value { return value }
        let what = name.hasPrefix("-") ? "value '\(ServiceText.printable(word))' for \(name)" : "\(name) '\(ServiceText.printable(word))'"
        var message = "Invalid \(what): use \(Self.choices)."
        if let suggestion = Suggestion.sentence(for: word, among: Value.allValueStrings) {
            message += " " + suggestion
        }
        throw ValidationError(message)
    }

    /// "metric, imperial or standard".
    static var choices: String { Value.allValueStrings.alternatives }
}

extension [String] {
    /// The words as alternatives: "metric, imperial or standard".
    var alternatives: String {
        guard count > 1, let last else { return first ?? "" }
        return dropLast().joined(separator: ", ") + " or " + last
    }
}

extension CaseIterable where Self: RawRepresentable, RawValue == String {
    /// The case named `word` in any letter case (`--units Imperial`).
    init?(anyCase word: String) {
        let lower = word.lowercased()
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == lower }) else { return nil }
        self = match
    }
}

// The Core types hold the valid words; these conformances only let the command line read them.

extension Units: ExpressibleByArgument {
    public init?(argument: String) { self.init(anyCase: argument) }
}

extension WeatherProviderKind: ExpressibleByArgument {
    public init?(argument: String) { self.init(anyCase: argument) }
}

extension LocationSource: ExpressibleByArgument {
    public init?(argument: String) { self.init(anyCase: argument) }
}

/// `--accuracy` takes the named levels only (`DesiredAccuracy.levels`, as the help lists them);
/// `1000m` is the level `1km`.
extension DesiredAccuracy: ExpressibleByArgument {
    public init?(argument: String) {
        guard let level = DesiredAccuracy(argument), DesiredAccuracy.levels.contains(level) else { return nil }
        self = level
    }

    public static var allValueStrings: [String] { levels.map(\.description) }
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}
