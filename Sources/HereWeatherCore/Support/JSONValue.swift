#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A parsed JSON document, read defensively.
///
/// Web services disagree with their own documentation: a field is absent in one body and
/// `null` in the next, a number here and a string there (OpenWeatherMap's `cod`). Decoding
/// into this type never fails on shape; the accessors return `nil` for anything unexpected,
/// and each decoder decides what is required.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses `data`, or throws `JSONValue.ParseError` when it is not JSON at all.
    public static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { raw throws(ParseError) in
            try JSONValueParser.parse(raw.bindMemory(to: UInt8.self))
        }
    }

    /// The body was not JSON (HTML, truncated, empty, nested too deep), and where that showed.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        /// 1-based line of the first byte that is not JSON.
        public var line = 1
        /// 1-based column (in bytes) of that byte.
        public var column = 1
        /// What is wrong there.
        public var reason = "not valid JSON"

        public var description: String { "line \(line), column \(column): \(reason)" }
    }

    /// The member `key` of an object; `nil` for other values or a missing key.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The element at `index` of an array; `nil` when out of range or not an array.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// A finite number, or a string that spells one (`"200"`); `nil` otherwise.
    public var double: Double? {
        switch self {
        case .number(let value): return value.isFinite ? value : nil
        // A service's number in a string ("27.95"): decimal only, never hexadecimal (`DecimalText`).
        case .string(let text): return DecimalText.number(text.filter { $0 != " " })
        default: return nil
        }
    }

    /// An integral number or a string that spells one; `nil` otherwise.
    public var int: Int? {
        guard let value = double, value.rounded() == value, abs(value) < 1e15 else { return nil }
        return Int(value)
    }

    /// A string; numbers are not converted.
    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// A string for a line the user reads (a place name, a condition, an alert title), with
    /// control characters as spaces: a service can neither break the line nor drive the
    /// terminal with an escape sequence.
    public var lineText: String? {
        string.map(ServiceText.printable)
    }

    /// A boolean, or the numbers 0 and 1 as Open-Meteo's `is_day` writes it.
    public var bool: Bool? {
        switch self {
        case .bool(let value): return value
        case .number(let value) where value == 0 || value == 1: return value == 1
        default: return nil
        }
    }

    /// The elements of an array; `nil` for anything else.
    public var array: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// Whether this is an object (a dictionary).
    public var isObject: Bool {
        if case .object = self { return true }
        return false
    }
}

extension JSONValue: Decodable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}

extension JSONValue {
    /// A time given as Unix seconds, or as a local ISO 8601 string without offset at
    /// `utcOffset` seconds east of UTC (Open-Meteo's default `timeformat`); `nil` outside
    /// `LocalTime.range`.
    public func date(utcOffset: Int) -> Date? {
        if case .number = self { return unixTime }
        guard let text = string, let local = LocalTime(iso8601: text) else { return nil }
        return local.date(utcOffset: utcOffset)
    }

    /// A time given as Unix seconds; `nil` for anything else, or outside `LocalTime.range`.
    public var unixTime: Date? {
        LocalTime.date(secondsSince1970: double)
    }
}
