#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A time zone read from the system's tz database (`/usr/share/zoneinfo`, TZif files,
/// RFC 8536), for services that name a place's zone but not its offset (One Call bodies
/// before `timezone_offset`).
///
/// The binary is static and Foundation's time zones need ICU, so the file is read here: a
/// name is accepted only as tz names are written (`America/Argentina/Buenos_Aires`: letters,
/// digits, `_+-`, no `..`), the file only when it is a regular file of at most 256 KB. The
/// transitions give the offset; after the last one, the file's POSIX rule (`CST6CDT,M3.2.0,
/// M11.1.0`) does. Anything unreadable gives `nil`, and the caller falls back.
public struct TimeZoneFile: Sendable {
    struct LocalTimeType: Sendable { var offset: Int }
    var transitions: [(time: Int64, type: Int)]
    var types: [LocalTimeType]
    var rule: PosixTimeZoneRule?

    /// Where Debian and most distributions keep the tz database.
    public static let directory = "/usr/share/zoneinfo"
    static let maximumSize = 256 * 1024

    /// The zone named `name` (`Europe/Oslo`), or `nil` when it is not a tz name or its file
    /// cannot be read.
    public init?(named name: String, directory: String = TimeZoneFile.directory) {
        guard Self.isZoneName(name), let bytes = Self.read(directory + "/" + name) else { return nil }
        self.init(bytes: bytes)
    }

    /// The offset from UTC at `date`, in seconds east.
    public func utcOffset(at date: Date) -> Int? {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, LocalTime.range.contains(seconds) else { return nil }
        let time = Int64(seconds.rounded(.down))
        if let last = transitions.last, time >= last.time, let rule {
            return rule.utcOffset(at: time)
        }
        guard let index = transitions.lastIndex(where: { $0.time <= time }) else {
            return types.first?.offset
        }
        return types[transitions[index].type].offset
    }

    /// A tz database name: parts of letters, digits and `_+-`, joined by `/`, none starting with `.`.
    static func isZoneName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 64 else { return false }
        return name.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { part in
            !part.isEmpty && part.first != "." && part.first != "-"
                && part.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_+-".unicodeScalars.contains($0)) }
        }
    }

    /// The bytes of a regular file of at most `maximumSize`, opened without blocking.
    static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= maximumSize else { return nil }
        var bytes = [UInt8](repeating: 0, count: maximumSize + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { Glibc.read(descriptor, $0 + count, buffer.count - count) } ?? 0
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        return count <= maximumSize ? Array(bytes[0..<count]) : nil
    }

    /// Parses TZif version 1 (32-bit times) or, when present, the version 2+ block (64-bit)
    /// and its footer rule.
    init?(bytes: [UInt8]) {
        var reader = TZifReader(bytes: bytes)
        guard let first = reader.header() else { return nil }
        var header = first
        var timeSize = 4
        if first.version >= 2 {
            guard reader.skip(first.dataSize(timeSize: 4)), let second = reader.header() else { return nil }
            header = second
            timeSize = 8
        }
        var transitions: [(time: Int64, type: Int)] = []
        var times: [Int64] = []
        for _ in 0..<header.timeCount {
            guard let time = reader.signed(timeSize) else { return nil }
            times.append(time)
        }
        for time in times {
            guard let type = reader.byte(), Int(type) < header.typeCount else { return nil }
            transitions.append((time, Int(type)))
        }
        var types: [LocalTimeType] = []
        for _ in 0..<header.typeCount {
            guard let offset = reader.signed(4), reader.skip(2), LocalTime.offsets.contains(Int(offset)) else { return nil }
            types.append(LocalTimeType(offset: Int(offset)))
        }
        guard !types.isEmpty else { return nil }
        self.transitions = transitions
        self.types = types
        rule = nil
        if timeSize == 8, reader.skip(header.dataSize(timeSize: 8) - header.transitionAndTypeSize(timeSize: 8)) {
            rule = reader.footer().flatMap(PosixTimeZoneRule.init)
        }
    }
}

/// Reads big-endian TZif fields, refusing to run past the end.
struct TZifReader {
    struct Header {
        var version: Int
        var utIndicatorCount, standardIndicatorCount, leapCount, timeCount, typeCount, characterCount: Int

        func transitionAndTypeSize(timeSize: Int) -> Int { timeCount * (timeSize + 1) + typeCount * 6 }

        func dataSize(timeSize: Int) -> Int {
            transitionAndTypeSize(timeSize: timeSize) + characterCount + leapCount * (timeSize + 4)
                + standardIndicatorCount + utIndicatorCount
        }
    }

    let bytes: [UInt8]
    var position = 0

    mutating func header() -> Header? {
        guard position + 44 <= bytes.count, Array(bytes[position..<position + 4]) == Array("TZif".utf8) else { return nil }
        let versionByte = bytes[position + 4]
        let version = versionByte == 0 ? 1 : Int(versionByte) - 0x30
        position += 20
        var counts: [Int] = []
        for _ in 0..<6 {
            guard let count = signed(4).map(Int.init), (0...100_000).contains(count) else { return nil }
            counts.append(count)
        }
        return Header(version: version, utIndicatorCount: counts[0], standardIndicatorCount: counts[1],
                      leapCount: counts[2], timeCount: counts[3], typeCount: counts[4], characterCount: counts[5])
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, position + count <= bytes.count else { return false }
        position += count
        return true
    }

    mutating func byte() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    /// A big-endian two's-complement integer of 4 or 8 bytes.
    mutating func signed(_ size: Int) -> Int64? {
        guard position + size <= bytes.count else { return nil }
        var value: UInt64 = 0
        for byte in bytes[position..<position + size] { value = value << 8 | UInt64(byte) }
        position += size
        let shift = UInt64(64 - size * 8)
        return Int64(bitPattern: value << shift) >> Int64(shift)
    }

    /// The text between the newlines after the version 2+ data.
    mutating func footer() -> String? {
        guard byte() == 10, let end = bytes[position...].firstIndex(of: 10) else { return nil }
        return String(decoding: bytes[position..<end], as: UTF8.self)
    }
}
