/// One D-Bus value, as read from a message or to be written into one.
///
/// Dictionaries (`a{..}`) are keyed by text: string and object-path keys as they are, other
/// basic keys in their decimal form. Written, a dictionary is `a{sX}` where `X` is its values'
/// common signature (`v` when empty), and an empty array is `av`: wrap values in `.variant`
/// where a method wants variants.
public indirect enum DBusValue: Sendable, Equatable {
    case byte(UInt8), bool(Bool), int16(Int16), uint16(UInt16), int32(Int32), uint32(UInt32),
         int64(Int64), uint64(UInt64), double(Double), string(String), objectPath(String),
         array([DBusValue]), dictionary([String: DBusValue]), variant(DBusValue), structure([DBusValue])

    /// The value inside any number of variants.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    // Accessors: the value as that type (looking through variants), or nil.

    public var string: String? { if case .string(let value) = unwrapped { return value }; return nil }
    public var objectPath: String? { if case .objectPath(let value) = unwrapped { return value }; return nil }
    public var bool: Bool? { if case .bool(let value) = unwrapped { return value }; return nil }
    public var byte: UInt8? { if case .byte(let value) = unwrapped { return value }; return nil }
    public var int16: Int16? { if case .int16(let value) = unwrapped { return value }; return nil }
    public var uint16: UInt16? { if case .uint16(let value) = unwrapped { return value }; return nil }
    public var int32: Int32? { if case .int32(let value) = unwrapped { return value }; return nil }
    public var uint32: UInt32? { if case .uint32(let value) = unwrapped { return value }; return nil }
    public var int64: Int64? { if case .int64(let value) = unwrapped { return value }; return nil }
    public var uint64: UInt64? { if case .uint64(let value) = unwrapped { return value }; return nil }
    public var double: Double? { if case .double(let value) = unwrapped { return value }; return nil }
    public var array: [DBusValue]? { if case .array(let value) = unwrapped { return value }; return nil }
    public var dictionary: [String: DBusValue]? { if case .dictionary(let value) = unwrapped { return value }; return nil }
    public var structure: [DBusValue]? { if case .structure(let value) = unwrapped { return value }; return nil }

    /// The bytes of an `ay` array (an SSID, say).
    public var bytes: [UInt8]? {
        guard let items = array else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(items.count)
        for item in items {
            guard case .byte(let value) = item else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    /// The paths of an `ao` array.
    public var objectPaths: [String]? {
        guard let items = array else { return nil }
        var paths: [String] = []
        for item in items {
            guard let path = item.objectPath else { return nil }
            paths.append(path)
        }
        return paths
    }

    /// The strings of an `as` array.
    public var strings: [String]? {
        guard let items = array else { return nil }
        var strings: [String] = []
        for item in items {
            guard let text = item.string else { return nil }
            strings.append(text)
        }
        return strings
    }

    /// Any integer type as an `Int64` (`uint64` only when it fits).
    public var integer: Int64? {
        switch unwrapped {
        case .byte(let value): return Int64(value)
        case .int16(let value): return Int64(value)
        case .uint16(let value): return Int64(value)
        case .int32(let value): return Int64(value)
        case .uint32(let value): return Int64(value)
        case .int64(let value): return value
        case .uint64(let value): return Int64(exactly: value)
        default: return nil
        }
    }

    /// The D-Bus type signature this value is written with ("s", "a{sv}", "(iu)").
    public var signature: String {
        get throws(DBusError) {
            switch self {
            case .byte: return "y"
            case .bool: return "b"
            case .int16: return "n"
            case .uint16: return "q"
            case .int32: return "i"
            case .uint32: return "u"
            case .int64: return "x"
            case .uint64: return "t"
            case .double: return "d"
            case .string: return "s"
            case .objectPath: return "o"
            case .variant: return "v"
            case .array(let items): return "a" + (try Self.commonSignature(items) ?? "v")
            case .dictionary(let entries): return "a{s" + (try Self.commonSignature(Array(entries.values)) ?? "v") + "}"
            case .structure(let items):
                var inner = ""
                for item in items { inner += try item.signature }
                return "(" + inner + ")"
            }
        }
    }

    /// The one signature all `values` share; nil when there are none.
    static func commonSignature(_ values: [DBusValue]) throws(DBusError) -> String? {
        guard let first = values.first else { return nil }
        let signature = try first.signature
        for value in values.dropFirst() where try value.signature != signature {
            throw DBusError.typeMismatch("the items of an array or dictionary to send must share one type (wrap them in .variant)")
        }
        return signature
    }
}
