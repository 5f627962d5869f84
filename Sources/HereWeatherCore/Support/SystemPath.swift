#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Paths, arguments and environment values as the system has them: bytes, which need not be
/// UTF-8 (`café` written by a Latin-1 program is `caf\xE9`).
///
/// Swift's `String` repairs invalid UTF-8 to U+FFFD, so a name read that way no longer opens
/// the file it named. Here each byte that is not part of valid UTF-8 becomes one character of
/// the private-use range U+F780...U+F7FF (byte 0x80 + n is U+F780 + n), and turns back into
/// that byte when the path is opened. Valid UTF-8 that spells a character of that range is
/// treated the same way, byte by byte, so every byte string comes back exactly.
///
/// Everything that reaches a system call as a path goes through `withCString`; the text the
/// program starts with comes from `arguments` and `environment`.
public enum SystemPath {
    private static let escapes: ClosedRange<UInt32> = 0xF780...0xF7FF

    /// The text for `bytes` (no NUL among them), undoing nothing: `bytes(of:)` gives them back.
    public static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let bytes = Array(bytes)
        if let text = String(validating: bytes, as: UTF8.self),
           !text.unicodeScalars.contains(where: { escapes.contains($0.value) }) {
            return text
        }
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            // A valid sequence outside the escape range is kept; any other byte is escaped alone.
            if let length = sequenceLength(bytes, at: index),
               let scalar = String(validating: bytes[index..<index + length], as: UTF8.self)?.unicodeScalars.first,
               !escapes.contains(scalar.value) {
                scalars.append(scalar)
                index += length
            } else {
                scalars.append(Unicode.Scalar(escapes.lowerBound + UInt32(bytes[index]) - 0x80) ?? "?")
                index += 1
            }
        }
        return String(scalars)
    }

    /// The bytes `text` stands for: UTF-8, with each escape character turned back into its byte.
    public static func bytes(of text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if escapes.contains(scalar.value) {
                bytes.append(UInt8(scalar.value - escapes.lowerBound + 0x80))
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// Calls `body` with `path` as the NUL-terminated bytes it stands for.
    public static func withCString<Result>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        let terminated = bytes(of: path).map { CChar(bitPattern: $0) } + [0]
        return try terminated.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// Whether `path` names a folder (or a link to one).
    public static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return withCString(path) { stat($0, &info) } == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The text of a NUL-terminated C string.
    public static func decode(cString: UnsafePointer<CChar>) -> String {
        decode(UnsafeBufferPointer(start: cString, count: strlen(cString)).map { UInt8(bitPattern: $0) })
    }

    /// The command line as the program was started with it, program name first.
    public static var arguments: [String] {
        (0..<Int(CommandLine.argc)).map { index in
            CommandLine.unsafeArgv[index].map { decode(cString: $0) } ?? ""
        }
    }

    /// The process's environment, names and values byte for byte.
    public static var environment: [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = decode(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }

    /// The length of the valid UTF-8 sequence that starts at `index`, or nil when none does.
    private static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int? {
        let lead = bytes[index]
        if lead < 0x80 { return 1 }
        let length: Int, second: ClosedRange<UInt8>
        switch lead {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xE1...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        default: return nil
        }
        guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return nil }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) { return nil }
        return length
    }
}
