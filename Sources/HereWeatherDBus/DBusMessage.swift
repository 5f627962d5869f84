import CDBus

/// Writes `DBusValue`s into an sd-bus message and reads them back out.
enum DBusMessage {
    /// One D-Bus type code as sd-bus takes it.
    static func code(_ letter: Unicode.Scalar) -> CChar { CChar(UInt8(ascii: letter)) }

    // MARK: Writing

    static func append(_ values: [DBusValue], to message: OpaquePointer) throws(DBusError) {
        for value in values { try append(value, to: message) }
    }

    static func append(_ value: DBusValue, to message: OpaquePointer) throws(DBusError) {
        let result: Int32
        switch value {
        case .byte(var number): result = hw_sd_bus_message_append_basic(message, code("y"), &number)
        case .bool(let flag):
            var number: Int32 = flag ? 1 : 0
            result = hw_sd_bus_message_append_basic(message, code("b"), &number)
        case .int16(var number): result = hw_sd_bus_message_append_basic(message, code("n"), &number)
        case .uint16(var number): result = hw_sd_bus_message_append_basic(message, code("q"), &number)
        case .int32(var number): result = hw_sd_bus_message_append_basic(message, code("i"), &number)
        case .uint32(var number): result = hw_sd_bus_message_append_basic(message, code("u"), &number)
        case .int64(var number): result = hw_sd_bus_message_append_basic(message, code("x"), &number)
        case .uint64(var number): result = hw_sd_bus_message_append_basic(message, code("t"), &number)
        case .double(var number): result = hw_sd_bus_message_append_basic(message, code("d"), &number)
        case .string(let text): result = text.withCString { hw_sd_bus_message_append_basic(message, code("s"), $0) }
        case .objectPath(let path): result = path.withCString { hw_sd_bus_message_append_basic(message, code("o"), $0) }
        case .variant(let inner):
            try open(message, "v", try inner.signature)
            try append(inner, to: message)
            result = hw_sd_bus_message_close_container(message)
        case .array(let items):
            try open(message, "a", String(try value.signature.dropFirst()))
            try append(items, to: message)
            result = hw_sd_bus_message_close_container(message)
        case .structure(let items):
            try open(message, "r", String(try value.signature.dropFirst().dropLast()))
            try append(items, to: message)
            result = hw_sd_bus_message_close_container(message)
        case .dictionary(let entries):
            let entry = String(try value.signature.dropFirst().dropFirst().dropLast())   // "sv" of "a{sv}"
            try open(message, "a", "{" + entry + "}")
            for (key, item) in entries.sorted(by: { $0.key < $1.key }) {
                try open(message, "e", entry)
                try append(.string(key), to: message)
                try append(item, to: message)
                try check(hw_sd_bus_message_close_container(message), writing: value)
            }
            result = hw_sd_bus_message_close_container(message)
        }
        try check(result, writing: value)
    }

    private static func open(_ message: OpaquePointer, _ type: Unicode.Scalar, _ contents: String) throws(DBusError) {
        let result = contents.withCString { hw_sd_bus_message_open_container(message, code(type), $0) }
        try check(result, writing: nil)
    }

    private static func check(_ result: Int32, writing value: DBusValue?) throws(DBusError) {
        guard result < 0 else { return }
        throw DBusError.remote(name: "org.freedesktop.DBus.Error.InvalidArgs",
                               message: "cannot write \(value.map { "\($0)" } ?? "a container") into a message: \(SystemError.text(-result))")
    }

    // MARK: Reading

    /// Every value from the read position to the end of the message (or of the container entered).
    static func readAll(_ message: OpaquePointer) throws(DBusError) -> [DBusValue] {
        var values: [DBusValue] = []
        while let value = try readNext(message) { values.append(value) }
        return values
    }

    /// The next value, or nil at the end of the message or container.
    static func readNext(_ message: OpaquePointer) throws(DBusError) -> DBusValue? {
        var type: CChar = 0
        var contentsPointer: UnsafePointer<CChar>?
        let peeked = hw_sd_bus_message_peek_type(message, &type, &contentsPointer)
        try checkRead(peeked)
        guard peeked > 0 else { return nil }
        let contents = contentsPointer.map { String(cString: $0) }
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "y"): return .byte(try basic(message, type, UInt8(0)))
        case UInt8(ascii: "b"): return .bool(try basic(message, type, Int32(0)) != 0)
        case UInt8(ascii: "n"): return .int16(try basic(message, type, Int16(0)))
        case UInt8(ascii: "q"): return .uint16(try basic(message, type, UInt16(0)))
        case UInt8(ascii: "i"), UInt8(ascii: "h"): return .int32(try basic(message, type, Int32(0)))
        case UInt8(ascii: "u"): return .uint32(try basic(message, type, UInt32(0)))
        case UInt8(ascii: "x"): return .int64(try basic(message, type, Int64(0)))
        case UInt8(ascii: "t"): return .uint64(try basic(message, type, UInt64(0)))
        case UInt8(ascii: "d"): return .double(try basic(message, type, Double(0)))
        case UInt8(ascii: "s"): return .string(try text(message, type))
        case UInt8(ascii: "o"): return .objectPath(try text(message, type))
        case UInt8(ascii: "g"): return .string(try text(message, type))
        case UInt8(ascii: "v"):
            let inner = try inside(message, type, contents) { () throws(DBusError) in try readNext(message) }
            guard let inner else { throw DBusError.typeMismatch("an empty variant") }
            return .variant(inner)
        case UInt8(ascii: "r"):
            return .structure(try inside(message, type, contents) { () throws(DBusError) in try readAll(message) })
        case UInt8(ascii: "a") where contents?.hasPrefix("{") == true:
            return .dictionary(try inside(message, type, contents) { () throws(DBusError) in try readEntries(message) })
        case UInt8(ascii: "a"):
            return .array(try inside(message, type, contents) { () throws(DBusError) in try readAll(message) })
        default:
            throw DBusError.typeMismatch("a value of D-Bus type '\(Character(Unicode.Scalar(UInt8(bitPattern: type))))', which is not supported")
        }
    }

    /// The entries of an `a{..}` array entered: keys as text.
    private static func readEntries(_ message: OpaquePointer) throws(DBusError) -> [String: DBusValue] {
        var entries: [String: DBusValue] = [:]
        while true {
            var type: CChar = 0
            var contentsPointer: UnsafePointer<CChar>?
            let peeked = hw_sd_bus_message_peek_type(message, &type, &contentsPointer)
            try checkRead(peeked)
            guard peeked > 0 else { return entries }
            let pair = try inside(message, type, contentsPointer.map { String(cString: $0) }) { () throws(DBusError) in
                try readAll(message)
            }
            guard pair.count == 2 else { throw DBusError.typeMismatch("a dictionary entry of a key and a value") }
            entries[key(pair[0])] = pair[1]
        }
    }

    private static func key(_ value: DBusValue) -> String {
        if let text = value.string ?? value.objectPath { return text }
        if let number = value.integer { return String(number) }
        if let number = value.uint64 { return String(number) }
        if let flag = value.bool { return String(flag) }
        if let number = value.double { return String(number) }
        return "\(value)"
    }

    private static func inside<T>(_ message: OpaquePointer, _ type: CChar, _ contents: String?,
                                  _ body: () throws(DBusError) -> T) throws(DBusError) -> T {
        let entered = (contents ?? "").withCString { hw_sd_bus_message_enter_container(message, type, $0) }
        try checkRead(entered)
        let value = try body()
        try checkRead(hw_sd_bus_message_exit_container(message))
        return value
    }

    private static func basic<T: BitwiseCopyable>(_ message: OpaquePointer, _ type: CChar, _ initial: T) throws(DBusError) -> T {
        var value = initial
        try checkRead(hw_sd_bus_message_read_basic(message, type, &value))
        return value
    }

    private static func text(_ message: OpaquePointer, _ type: CChar) throws(DBusError) -> String {
        var pointer: UnsafePointer<CChar>?
        try checkRead(hw_sd_bus_message_read_basic(message, type, &pointer))
        return pointer.map { String(cString: $0) } ?? ""
    }

    private static func checkRead(_ result: Int32) throws(DBusError) {
        guard result < 0 else { return }
        throw DBusError.typeMismatch("a readable message (\(SystemError.text(-result)))")
    }
}
