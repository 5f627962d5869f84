/// One key of a TOML table: its value and where the key is first written (for a table, its
/// header or the first dotted key that names it).
struct ConfigMember: Sendable {
    let key: String
    let value: ConfigNode
    let position: TOMLPosition
}

/// A TOML value, as `TOMLParser` reads it.
indirect enum ConfigNode: Sendable {
    case table([ConfigMember])
    case array([ConfigNode])
    case string(String)
    case integer(Int)
    case float(Double)
    case bool(Bool)
    /// Dates and times, by kind ("date", "time", "date-time", "local date-time"): valid TOML,
    /// but no key here takes one.
    case other(String)

    /// Parses a TOML document; throws `TOMLSyntaxError` with a line and column.
    static func parse(_ text: String) throws(TOMLSyntaxError) -> [ConfigMember] {
        try TOMLParser.parse(text)
    }

    /// The kind of value, for messages that must not show it.
    var typeName: String {
        switch self {
        case .table: return "a table"
        case .array: return "an array"
        case .string: return "a string"
        case .integer: return "an integer"
        case .float: return "a number"
        case .bool: return "a boolean"
        case .other(let type): return "a \(type)"
        }
    }

    /// How the value reads in an error message: `"kelvinish"`, `91`, `a table`.
    var quoted: String {
        switch self {
        case .table: return "a table"
        case .array(let elements): return "an array of \(elements.count)"
        // With its escapes (`\n`, `\u0007`), which TOML basic strings share with JSON: a message
        // that quotes a value stays on one line and shows what the file holds.
        case .string(let text): return JSONOutput.string(text).serialized()
        case .integer(let value): return String(value)
        case .float(let value): return String(value)
        case .bool(let value): return String(value)
        case .other(let type): return "a \(type)"
        }
    }
}

/// Reads one TOML table of the config file, key by key, remembering which keys were asked
/// for: the keys a table may hold are exactly those its reader asks for (the schema lives in
/// the reader, in one place), so the rest are reported as unknown, with the nearest valid key.
final class ConfigTable {
    let path: String
    let prefix: String
    private let members: [ConfigMember]
    /// The keys asked for, in the order asked (ties in a suggestion go to the earlier one).
    private var asked: [String] = []
    private var children: [ConfigTable] = []

    init(path: String, prefix: String, members: [ConfigMember]) {
        self.path = path
        self.prefix = prefix
        self.members = members
    }

    /// The keys nobody asked for, in this table and the tables opened from it, in the order
    /// they are written in the file, each with the valid key of its table nearest to it.
    var unknownKeys: [UnknownConfigKey] {
        let here = members.filter { !asked.contains($0.key) }.map { member in
            UnknownConfigKey(key: qualified(member.key), position: member.position,
                             suggestion: Suggestion.nearest(to: member.key, among: asked).map(qualified))
        }
        return (here + children.flatMap(\.unknownKeys)).sorted {
            ($0.position.line, $0.position.column) < ($1.position.line, $1.position.column)
        }
    }

    func qualified(_ key: String) -> String { prefix.isEmpty ? key : prefix + "." + key }

    private func value(_ key: String) -> ConfigNode? {
        if !asked.contains(key) { asked.append(key) }
        return members.first { $0.key == key }?.value
    }

    /// The line `key` is written on, if it is.
    func line(_ key: String) -> Int? {
        members.first { $0.key == key }?.position.line
    }

    private func invalid(_ key: String, _ expected: String, _ found: ConfigNode, suggestion: String? = nil) -> ConfigError {
        .invalidValue(path: path, key: qualified(key), expected: expected, found: found.quoted, line: line(key),
                      suggestion: suggestion)
    }

    /// The choice named `text` in any letter case, as the command line's values are read.
    private static func match<T: RawRepresentable>(_ text: String, _ choices: [T]) -> T? where T.RawValue == String {
        choices.first { $0.rawValue.lowercased() == text.lowercased() }
    }

    /// The choice nearest to a string `node` that names none.
    private static func nearest<T: RawRepresentable>(_ node: ConfigNode, _ choices: [T]) -> String? where T.RawValue == String {
        guard case .string(let text) = node else { return nil }
        return Suggestion.nearest(to: text, among: choices.map(\.rawValue))
    }

    /// The sub-table `key`, or `nil` when absent.
    func table(_ key: String) throws -> ConfigTable? {
        guard let node = value(key) else { return nil }
        guard case .table(let members) = node else { throw invalid(key, "a table", node) }
        let child = ConfigTable(path: path, prefix: qualified(key), members: members)
        children.append(child)
        return child
    }

    func string(_ key: String) throws -> String? {
        guard let node = value(key) else { return nil }
        guard case .string(let text) = node else { throw invalid(key, "a string", node) }
        return text
    }

    /// A string sent inside an HTTP header (a contact in the User-Agent): printable ASCII only.
    /// A line break would end the header and start another; other bytes may be refused or
    /// mangled by the service.
    func headerText(_ key: String) throws -> String? {
        guard let text = try string(key) else { return nil }
        guard text.utf8.contains(where: { $0 != 0x20 }), text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            throw invalid(key, "an e-mail address or web site in plain ASCII characters (it is sent in the User-Agent header)",
                          .string(text))
        }
        return text
    }

    /// Whether `key` is present and holds a string (without marking it read).
    func isTable(_ key: String) -> Bool {
        if case .table = members.first(where: { $0.key == key })?.value { return true }
        return false
    }

    func isString(_ key: String) -> Bool {
        if case .string = members.first(where: { $0.key == key })?.value { return true }
        return false
    }

    /// A string that must never be echoed (an API key): errors name only its type.
    func secret(_ key: String) throws -> String? {
        guard let node = value(key) else { return nil }
        guard case .string(let text) = node else {
            throw ConfigError.invalidValue(path: path, key: qualified(key), expected: "a string", found: node.typeName, line: line(key))
        }
        return text
    }

    /// An integer or float within `range`.
    func number(_ key: String, in range: ClosedRange<Double>, unit: String = "") throws -> Double? {
        guard let node = value(key) else { return nil }
        let number: Double
        switch node {
        case .integer(let value): number = Double(value)
        case .float(let value): number = value
        default: throw invalid(key, "a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))\(unit)", node)
        }
        guard number.isFinite, range.contains(number) else {
            throw invalid(key, "a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))\(unit)", node)
        }
        return number
    }

    func bool(_ key: String) throws -> Bool? {
        guard let node = value(key) else { return nil }
        guard case .bool(let flag) = node else { throw invalid(key, "true or false", node) }
        return flag
    }

    func integer(_ key: String) throws -> Int? {
        guard let node = value(key) else { return nil }
        guard case .integer(let value) = node else { throw invalid(key, "an integer", node) }
        return value
    }

    /// One of `choices`, as the enum it names.
    func choice<T: RawRepresentable>(_ key: String, _ choices: [T]) throws -> T? where T.RawValue == String {
        guard let node = value(key) else { return nil }
        guard case .string(let text) = node, let match = Self.match(text, choices) else {
            throw invalid(key, Self.oneOf(choices.map(\.rawValue)), node, suggestion: Self.nearest(node, choices))
        }
        return match
    }

    /// An array whose every element is one of `choices`.
    func choices<T: RawRepresentable>(_ key: String, _ choices: [T]) throws -> [T]? where T.RawValue == String {
        guard let node = value(key) else { return nil }
        let expected = "an array of " + Self.oneOf(choices.map(\.rawValue))
        guard case .array(let elements) = node else { throw invalid(key, expected, node) }
        return try elements.map { element in
            guard case .string(let text) = element, let match = Self.match(text, choices) else {
                throw invalid(key, expected, element, suggestion: Self.nearest(element, choices))
            }
            return match
        }
    }

    /// An http:// or https:// URL.
    func url(_ key: String) throws -> String? {
        guard let text = try string(key) else { return nil }
        let lower = text.lowercased()
        guard (lower.hasPrefix("https://") || lower.hasPrefix("http://")), text.count > 8, !text.contains(where: { $0 == " " }) else {
            throw invalid(key, "an http:// or https:// URL", .string(text))
        }
        return text
    }

    /// A status-bar failure line (`[output] format_error`): text with `FailureLine`'s %-codes.
    func failureLine(_ key: String) throws -> FailureLine? {
        guard let text = try string(key) else { return nil }
        do {
            return try FailureLine(text)
        } catch {
            throw invalid(key, "text with the codes " + FailureLine.codeHelp, .string(text))
        }
    }

    static func oneOf(_ names: [String]) -> String {
        let quoted = names.map { "\"\($0)\"" }
        return quoted.count == 1 ? quoted[0] : "one of " + quoted.joined(separator: ", ")
    }

    static func format(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }
}

/// A key that no reader asked for: ignored, and reported with where it is written and the
/// valid key it most likely meant.
struct UnknownConfigKey: Equatable {
    /// The dotted name: `location.soruces`.
    let key: String
    let position: TOMLPosition
    /// The nearest valid key of the same table, dotted: `location.sources`.
    let suggestion: String?

    /// The warning (without the program's prefix, which `WarningStyle` adds):
    /// `unknown key location.soruces at /path/config.toml:3 (ignored); did you mean 'location.sources'?`.
    /// `file` says where, before the line number: "at /path/config.toml", "in the system policy /etc/...".
    func warning(_ file: String) -> String {
        "unknown key \(key) \(file):\(position.line) (ignored)" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    }

    /// Past this many unknown keys, one warning line gives their count instead of a line each.
    static let listedAtMost = 5

    /// The warnings for `keys`: a line each, or, for more than `listedAtMost`, one line with
    /// their count and the first and last ("30000 unknown keys at /path/config.toml (ignored),
    /// from x0 on line 2 to x29999 on line 30001"), so that a stray block cannot flood stderr.
    static func warnings(_ keys: [UnknownConfigKey], file: String) -> [String] {
        guard keys.count > listedAtMost, let first = keys.first, let last = keys.last else { return keys.map { $0.warning(file) } }
        return ["\(keys.count) unknown keys \(file) (ignored), from \(first.key) on line \(first.position.line) to \(last.key) on line \(last.position.line)"]
    }
}
