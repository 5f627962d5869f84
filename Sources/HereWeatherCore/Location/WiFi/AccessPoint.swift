/// One Wi-Fi access point as a scan saw it (NetworkManager's `AccessPoint` object).
public struct AccessPoint: Sendable, Equatable {
    /// The BSSID as the scan reported it ("F4:94:5F:76:4B:73"); see `normalisedMAC`.
    public var macAddress: String
    /// The network name's bytes; empty for a hidden network. Never sent anywhere.
    public var ssid: [UInt8]
    /// Signal strength in percent (NetworkManager's `Strength`).
    public var strength: Int
    /// The channel's centre frequency in MHz.
    public var frequency: Int
    /// Milliseconds since the access point was last seen; `nil` when never.
    public var age: Int?

    public init(macAddress: String, ssid: [UInt8], strength: Int, frequency: Int, age: Int?) {
        self.macAddress = macAddress
        self.ssid = ssid
        self.strength = strength
        self.frequency = frequency
        self.age = age
    }

    /// The signal in dBm, from the percentage: the inverse of NetworkManager's
    /// `nm_wifi_utils_level_to_quality`, which maps −100…−40 dBm linearly onto 0…100 %.
    public var signalStrength: Int {
        Int((Double(min(max(strength, 0), 100)) * 0.6 - 100).rounded())
    }

    /// The MAC address in lower case with colons ("f4:94:5f:76:4b:73"), or `nil` when it
    /// is not exactly six octets of two hexadecimal digits each (`UInt8(_:radix:)` alone
    /// would let "+4" and "-0" through, and they would be sent as written).
    public var normalisedMAC: String? {
        let octets = macAddress.split(separator: ":", omittingEmptySubsequences: false)
        guard octets.count == 6, octets.allSatisfy({ $0.utf8.count == 2 && $0.utf8.allSatisfy(Self.isHexDigit) }) else { return nil }
        return octets.joined(separator: ":").lowercased()
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// The first octet of the MAC address, when it has one.
    var firstOctet: UInt8? { normalisedMAC.flatMap { UInt8($0.prefix(2), radix: 16) } }
}

/// Where the access points come from: NetworkManager over the system D-Bus (outside the
/// core, beside sd-bus).
public protocol AccessPointScanner: Sendable {
    /// Whether there is something to scan with on this machine (NetworkManager running with
    /// a Wi-Fi device): a local check, cheap, that never prompts.
    func isPresent() async -> Bool
    /// The access points around, fresh: when the newest was seen more than five minutes
    /// ago, asks for a scan and waits for it (within `deadline`). Throws `WiFiError`.
    func accessPoints(deadline: ContinuousClock.Instant) async throws -> [AccessPoint]
}
