/// Decodes single NMEA 0183 lines into `NMEASentence`s, as gpsd's NMEA driver would accept them.
///
/// Works on bytes without allocating per field. A line is skipped (`nil`) when it is over
/// `maximumLineLength` bytes, has no `$`, carries a `*HH` checksum that does not match (hex
/// in either case; a line without one is accepted, as gpsd does), is proprietary (`$P...`)
/// or of a kind not decoded here, has the wrong number of fields for its kind, or has a
/// malformed number, time, date or position (minutes >= 60, latitude beyond 90, ...).
/// Junk before the last `$` is ignored, as gpsd's packet lexer resynchronises on it.
public enum NMEAParser {
    /// Lines longer than this are not NMEA (the standard allows 82 bytes).
    public static let maximumLineLength = 1024

    /// What became of one line.
    public enum Outcome: Sendable, Equatable {
        case sentence(NMEASentence)
        /// A `*HH` checksum that does not match the sentence.
        case badChecksum
        /// Not a sentence decoded here: blank, no `$`, proprietary, AIS (`!`), or another kind.
        case ignored
        /// A decoded kind with the wrong field count or a malformed field.
        case malformed
        /// A DBT (depth below transducer): nothing here uses its data, but gpsd lets it extend
        /// the reporting cycle, which changes when gpsd reports an epoch (`NMEACycleDetector`).
        case cycleContinuer
    }

    /// The sentence on `line` (without its line ending), or `nil` when it is skipped.
    public static func parse(_ line: UnsafeBufferPointer<UInt8>) -> NMEASentence? {
        if case .sentence(let sentence) = decode(line) { return sentence }
        return nil
    }

    public static func parse(_ line: [UInt8]) -> NMEASentence? {
        line.withUnsafeBufferPointer { parse($0) }
    }

    public static func parse(_ line: String) -> NMEASentence? {
        var line = line
        return line.withUTF8 { parse($0) }
    }

    public static func decode(_ line: [UInt8]) -> Outcome {
        line.withUnsafeBufferPointer { decode($0) }
    }

    /// Decodes `line`, saying why it was skipped when it was.
    public static func decode(_ line: UnsafeBufferPointer<UInt8>) -> Outcome {
        guard let base = line.baseAddress, line.count <= maximumLineLength else { return .ignored }
        var end = line.count
        while end > 0, base[end - 1] == 0x20 || base[end - 1] == 0x09 || base[end - 1] == 0x0D || base[end - 1] == 0x0A {
            end -= 1
        }
        // The sentence starts at the last `$` (or `!`, which starts AIS and is not decoded).
        var start = end - 1
        while start >= 0, base[start] != Byte.dollar, base[start] != Byte.bang { start -= 1 }
        guard start >= 0, base[start] == Byte.dollar else { return .ignored }
        start += 1

        // Checksum: the last `*` must be followed by exactly two hex digits.
        var bodyEnd = end
        var star = end - 1
        while star >= start, base[star] != Byte.star { star -= 1 }
        if star >= start {
            guard end - star == 3, let high = hexValue(base[star + 1]), let low = hexValue(base[star + 2]) else {
                return .badChecksum
            }
            var sum: UInt8 = 0
            for index in start..<star { sum ^= base[index] }
            guard sum == high << 4 | low else { return .badChecksum }
            bodyEnd = star
        }

        // Address: two-letter talker, three-letter kind, then a comma.
        guard bodyEnd - start >= 6, base[start + 5] == Byte.comma else { return .ignored }
        let t0 = base[start], t1 = base[start + 1]
        guard t0 != UInt8(ascii: "P"), isUpper(t0), isUpper(t1) else { return .ignored }
        let kind = UInt32(base[start + 2]) << 16 | UInt32(base[start + 3]) << 8 | UInt32(base[start + 4])
        guard let sentenceKind = Kind(rawValue: kind) else {
            return kind == Self.depthKind && isDepthSentence(base, from: start + 6, to: bodyEnd) ? .cycleContinuer : .ignored
        }

        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: Fields.capacity * 2) { bounds in
            guard let boundsBase = bounds.baseAddress else { return .malformed }
            var fields = Fields(base: base, bounds: boundsBase, count: 0)
            // Fields start after the comma that follows the address.
            var fieldStart = start + 6
            var index = fieldStart
            while index < bodyEnd {
                let byte = base[index]
                if byte == Byte.comma {
                    guard fields.append(fieldStart, index) else { return .malformed }
                    fieldStart = index + 1
                } else if byte < 0x20 || byte > 0x7E {
                    return .malformed
                }
                index += 1
            }
            guard fields.append(fieldStart, bodyEnd) else { return .malformed }
            let talker = NMEATalker(t0, t1)
            do {
                switch sentenceKind {
                case .gga: return try NMEAFieldDecoder.gga(fields, talker)
                case .rmc: return try NMEAFieldDecoder.rmc(fields, talker)
                case .gll: return try NMEAFieldDecoder.gll(fields, talker)
                case .gns: return try NMEAFieldDecoder.gns(fields, talker)
                case .gsa: return try NMEAFieldDecoder.gsa(fields, talker)
                case .gst: return try NMEAFieldDecoder.gst(fields, talker)
                case .gsv: return try NMEAFieldDecoder.gsv(fields, talker)
                case .zda: return try NMEAFieldDecoder.zda(fields, talker)
                }
            } catch {
                return .malformed
            }
        }
    }

    /// DBT, in the same ASCII key as `Kind`.
    static let depthKind: UInt32 = 0x444254

    /// Whether a DBT's fields are as many as gpsd asks before it decodes one (six), of
    /// printable ASCII.
    static func isDepthSentence(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Bool {
        var commas = 0
        for index in start..<max(start, end) {
            let byte = base[index]
            if byte < 0x20 || byte > 0x7E { return false }
            if byte == Byte.comma { commas += 1 }
        }
        return commas >= 5
    }

    /// The sentence kinds decoded, keyed by their three ASCII letters.
    enum Kind: UInt32 {
        case gga = 0x474741, rmc = 0x524D43, gll = 0x474C4C, gns = 0x474E53
        case gsa = 0x475341, gst = 0x475354, gsv = 0x475356, zda = 0x5A4441
    }

    enum Byte {
        static let dollar = UInt8(ascii: "$"), bang = UInt8(ascii: "!"), star = UInt8(ascii: "*")
        static let comma = UInt8(ascii: ","), dot = UInt8(ascii: "."), zero = UInt8(ascii: "0")
    }

    @inline(__always) static func isUpper(_ byte: UInt8) -> Bool { byte &- 0x41 < 26 }

    @inline(__always) static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x37
        case 0x61...0x66: byte - 0x57
        default: nil
        }
    }
}

/// The comma-separated fields of one sentence (after the address), as byte ranges.
struct Fields {
    static let capacity = 32
    let base: UnsafePointer<UInt8>
    let bounds: UnsafeMutablePointer<Int32>
    var count: Int

    /// Records a field; `false` when there are more fields than any decoded kind has.
    @inline(__always) mutating func append(_ start: Int, _ end: Int) -> Bool {
        guard count < Fields.capacity else { return false }
        bounds[count * 2] = Int32(truncatingIfNeeded: start)
        bounds[count * 2 + 1] = Int32(truncatingIfNeeded: end)
        count += 1
        return true
    }

    @inline(__always) func start(_ index: Int) -> Int { Int(bounds[index * 2]) }
    @inline(__always) func end(_ index: Int) -> Int { Int(bounds[index * 2 + 1]) }
    @inline(__always) func length(_ index: Int) -> Int { end(index) - start(index) }
    @inline(__always) func isEmpty(_ index: Int) -> Bool { length(index) == 0 }

    /// The single byte of a one-letter field; `nil` when empty; malformed when longer.
    func letter(_ index: Int) throws(NMEAFieldError) -> UInt8? {
        switch length(index) {
        case 0: return nil
        case 1: return base[start(index)]
        default: throw NMEAFieldError()
        }
    }
}

/// A field that is not what its kind of sentence says it holds.
struct NMEAFieldError: Error {}
