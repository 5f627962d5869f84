/// Whose land a point near the United States is on, from Natural Earth's 1:10m countries
/// (public domain), compiled in by `scripts/generate-us-boundary.py`.
///
/// Two kinds of land are kept, only inside the boxes `USRegion` tests first: the land of every
/// country but the US (Canada, Mexico, the Bahamas, the British Virgin Islands, Russia's far
/// east), and the land of the US and its territories within about 30 km of it. Anywhere else
/// (water, coasts and land far from a border, simplified-away islands) the answer is `nil` and
/// the caller asks the nearest place. The rings are decoded on first use (16,000 vertices,
/// held once per process); a point is in a kind's land when an odd number of its rings hold it.
public enum USBoundary {
    /// The land a point is on.
    public enum Land: Sendable, Equatable {
        /// The United States or one of its territories, near another country.
        case unitedStates
        /// Another country's land.
        case anotherCountry
    }

    /// The land at the position, or `nil` when neither kind holds it (see the type's comment).
    public static func land(latitude: Double, longitude: Double) -> Land? {
        guard latitude.isFinite, longitude.isFinite else { return nil }
        let x = (longitude * scale).rounded(), y = (latitude * scale).rounded()
        var inUS = false, inOther = false
        for ring in decoded where ring.holds(x, y) {
            if ring.isUS { inUS.toggle() } else { inOther.toggle() }
        }
        if inUS { return .unitedStates }
        return inOther ? .anotherCountry : nil
    }

    static let scale = 10_000.0

    /// One ring: its kind, its vertices in 1e-4 degrees and its bounding box.
    struct Ring: Sendable {
        var isUS: Bool
        var xs: [Double]
        var ys: [Double]
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity

        /// Whether the ring holds the point (even-odd rule; a point on an edge may go either way).
        func holds(_ x: Double, _ y: Double) -> Bool {
            guard x >= minX, x <= maxX, y >= minY, y <= maxY else { return false }
            var inside = false
            var j = xs.count - 1
            for i in xs.indices {
                if (ys[i] > y) != (ys[j] > y) {
                    let crossing = xs[i] + (y - ys[i]) * (xs[j] - xs[i]) / (ys[j] - ys[i])
                    if x < crossing { inside.toggle() }
                }
                j = i
            }
            return inside
        }
    }

    static let decoded: [Ring] = rings.withUTF8Buffer { decode($0) }

    /// The rings of `USBoundaryData`'s text: a kind letter, then zigzag base-32 varint deltas.
    static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [Ring] {
        var rings: [Ring] = []
        var ring: Ring?
        var values: [Int] = []
        var value = 0, shift = 0
        var x = 0, y = 0
        func finish() {
            guard var done = ring else { return }
            done.minX = done.xs.min() ?? 0; done.maxX = done.xs.max() ?? 0
            done.minY = done.ys.min() ?? 0; done.maxY = done.ys.max() ?? 0
            if done.xs.count >= 3 { rings.append(done) }
            ring = nil
        }
        for byte in text {
            switch byte {
            case UInt8(ascii: "\n"):
                finish()
            case UInt8(ascii: "U") where ring == nil, UInt8(ascii: "O") where ring == nil:
                ring = Ring(isUS: byte == UInt8(ascii: "U"), xs: [], ys: [])
                x = 0; y = 0; values.removeAll(keepingCapacity: true); value = 0; shift = 0
            default:
                guard let digit = digitValue(byte), ring != nil else { continue }
                value |= (digit & 31) << shift
                if digit >= 32 { shift += 5; continue }
                values.append(value & 1 == 0 ? value >> 1 : -(value >> 1) - 1)
                value = 0; shift = 0
                if values.count == 2 {
                    x += values[0]; y += values[1]
                    ring?.xs.append(Double(x)); ring?.ys.append(Double(y))
                    values.removeAll(keepingCapacity: true)
                }
            }
        }
        finish()
        return rings
    }

    /// A digit of the alphabet A-Z a-z 0-9 + / as 0...63.
    static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
