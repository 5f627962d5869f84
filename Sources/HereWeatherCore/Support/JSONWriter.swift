/// JSON for output: objects keep the order their keys were written in.
///
/// The output schema is docs/here-weather.schema.json; writing it by hand keeps key order stable
/// and `null` explicit, which `JSONEncoder` does not.
public indirect enum JSONOutput: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONOutput])
    case object([(String, JSONOutput)])

    public static func == (lhs: JSONOutput, rhs: JSONOutput) -> Bool {
        lhs.serialized() == rhs.serialized()
    }

    /// A number, or `null` when absent or not finite.
    public static func number(_ value: Double?) -> JSONOutput {
        guard let value, value.isFinite else { return .null }
        return .number(value)
    }

    /// A string, or `null` when absent.
    public static func string(_ value: String?) -> JSONOutput {
        value.map { .string($0) } ?? .null
    }

    /// A boolean, or `null` when absent.
    public static func bool(_ value: Bool?) -> JSONOutput {
        value.map { .bool($0) } ?? .null
    }

    /// The compact JSON text of this value, on one line.
    public func serialized() -> String {
        var text = ""
        write(to: &text)
        return text
    }

    private func write(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let value): text += JSONOutput.format(value)
        case .string(let value): JSONOutput.writeString(value, to: &text)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                element.write(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { text += "," }
                JSONOutput.writeString(key, to: &text)
                text += ":"
                value.write(to: &text)
            }
            text += "}"
        }
    }

    /// Integers without a fraction, others with at most 6 decimals and no trailing zeros.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let scaled = abs(value) < 1e9 ? (value * 1_000_000).rounded() / 1_000_000 : value
        if scaled.rounded() == scaled, abs(scaled) < 1e15 {
            return String(Int64(scaled))
        }
        return "\(scaled)"
    }

    private static func writeString(_ value: String, to text: inout String) {
        text += "\""
        // Most strings (every key, most values) need no escape: appended whole, not scalar by
        // scalar (a --json report writes ~300 strings; that loop was ~8% of a cache hit).
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) {
            text += value
            text += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case let control where control.value < 0x20 || control.value == 0x7F:
                let hex = String(control.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
