/// The privacy rule for Wi-Fi positioning, in one place: which access points may be sent.
///
/// - Never an SSID: only the MAC address, signal, frequency and age are sent.
/// - Not an access point whose SSID ends in `_nomap` (the owner's opt-out), nor one with a
///   hidden (empty) SSID: Ichnaea's rule for clients.
/// - Not a locally administered MAC address (bit 0x02 of the first octet): randomised
///   addresses, such as phone hotspots, which move with their owner. Nor a multicast or
///   malformed one.
/// - Not one never seen (NetworkManager's `LastSeen` of -1).
/// - At most the 20 strongest; with fewer than 2 left nothing is sent at all: one access
///   point identifies a home, and the services refuse it anyway.
public struct WiFiSelection: Sendable, Equatable {
    /// At most this many access points are sent, the strongest first.
    public static let maximumSent = 20
    /// With fewer usable access points than this, nothing is sent.
    public static let minimumNeeded = 2

    /// What may be sent, strongest first, with normalised MAC addresses.
    public private(set) var used: [AccessPoint] = []
    /// How many access points the scan listed.
    public private(set) var seen = 0
    public private(set) var hidden = 0
    public private(set) var optedOut = 0
    public private(set) var randomised = 0
    /// Malformed or multicast MAC addresses, and access points never seen.
    public private(set) var unusable = 0
    /// Usable, but beyond the strongest `maximumSent`.
    public private(set) var beyondLimit = 0

    public init(_ accessPoints: [AccessPoint]) {
        seen = accessPoints.count
        var byMAC: [String: AccessPoint] = [:]
        for accessPoint in accessPoints {
            guard let mac = accessPoint.normalisedMAC, let first = accessPoint.firstOctet, first & 0x01 == 0,
                  accessPoint.age != nil else {
                unusable += 1
                continue
            }
            if accessPoint.ssid.allSatisfy({ $0 == 0 }) {
                hidden += 1
            } else if Self.isOptedOut(accessPoint.ssid) {
                optedOut += 1
            } else if first & 0x02 != 0 {
                randomised += 1
            } else {
                var usable = accessPoint
                usable.macAddress = mac
                usable.ssid = []   // not needed past this point: never kept, never sent
                // The same access point listed twice (two Wi-Fi devices): keep the stronger.
                if let other = byMAC[mac], other.strength >= usable.strength { continue }
                byMAC[mac] = usable
            }
        }
        let strongestFirst = byMAC.values.sorted {
            $0.strength != $1.strength ? $0.strength > $1.strength : $0.macAddress < $1.macAddress
        }
        used = Array(strongestFirst.prefix(Self.maximumSent))
        beyondLimit = strongestFirst.count - used.count
    }

    /// Whether the owner opted the network out of mapping: an SSID ending in `_nomap` in any
    /// letter case, once trailing NULs and other controls, whitespace and format characters
    /// (a zero-width space) are taken off: "Home_nomap\0", "Home_NOMAP " and
    /// "Café_nomap\u{200B}" are all opted out.
    static func isOptedOut(_ ssid: [UInt8]) -> Bool {
        var scalars = Array(String(decoding: ssid, as: UTF8.self).unicodeScalars)
        while let last = scalars.last, isPadding(last) { scalars.removeLast() }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        return String(text).lowercased().hasSuffix("_nomap")
    }

    /// What may trail a name unseen: controls (NUL), whitespace, format characters.
    private static func isPadding(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.isWhitespace || properties.generalCategory == .control || properties.generalCategory == .format
    }

    /// Whether enough access points are left to ask a service.
    public var isEnough: Bool { used.count >= Self.minimumNeeded }

    /// "1 usable of 4 seen (1 hidden, 1 opted out with _nomap, 1 randomised)".
    public var summary: String {
        var dropped: [String] = []
        if hidden > 0 { dropped.append("\(hidden) hidden") }
        if optedOut > 0 { dropped.append("\(optedOut) opted out with _nomap") }
        if randomised > 0 { dropped.append("\(randomised) with a randomised address") }
        if unusable > 0 { dropped.append("\(unusable) unusable") }
        var text = "\(used.count) usable of \(seen) seen"
        if !dropped.isEmpty { text += " (" + dropped.joined(separator: ", ") + ")" }
        return text
    }
}
