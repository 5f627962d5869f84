#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The last Wi-Fi positioning answer, remembered against the access points it was asked
/// for, in `$XDG_STATE_HOME/here-weather/wifi-neighbourhood.json` (mode 0600, written
/// atomically, read only when it is a regular file under 64 KiB).
///
/// An unchanged neighbourhood then costs no request for `remember_days` (a week by default):
/// access points do not move, and the services are run by volunteers who ask not to be hammered. The rule for "unchanged":
/// the same service, and at least half of the access points in the two sets together are
/// in both (a Jaccard index of 0.5 or more), and at least 2 of them. A laptop at home sees
/// most of the same networks from run to run; a few hundred metres away, most are new.
///
/// No MAC address is stored: each access point is kept as HMAC-SHA-256 of its address under
/// a random 32-byte key in `wifi-neighbourhood.key` beside it (mode 0600, made on the first
/// save). The memory matches by comparing keyed hashes; reading the state files gives no
/// address back, and a hash cannot be looked up in a table of known MACs without the key.
/// A file of version 1 (addresses in clear) is read once and rewritten in this form.
public struct WiFiNeighbourhoodMemory: Sendable {
    public let path: String
    /// The key's file, beside `path`.
    public let keyPath: String
    /// The largest state file read.
    static let limit = 64 << 10
    /// Bytes of key.
    static let keyLength = 32

    public init(path: String) {
        self.path = path
        keyPath = (path.hasSuffix(".json") ? String(path.dropLast(5)) : path) + ".key"
    }

    /// A remembered answer.
    public struct Answer: Sendable, Equatable {
        public var coordinate: Coordinate
        public var accuracy: Double
        public var timestamp: Date
        /// The access points asked about (normalised MAC addresses). In an answer from memory:
        /// those of the access points now in range that it was asked about too.
        public var macAddresses: Set<String>
        /// The endpoint asked (without any key).
        /// The geolocate service's URL that gave it (`[location.wifi] base_url`).
        public var serviceURL: String
    }

    /// What the file holds: the answer, with its access points as keyed hashes.
    struct Remembered: Equatable {
        var coordinate: Coordinate
        var accuracy: Double
        var timestamp: Date
        var hashes: Set<String>
        var serviceURL: String
    }

    /// Whether `current` is the same neighbourhood as `remembered` (see the type's rule).
    public static func isSameNeighbourhood(_ current: Set<String>, _ remembered: Set<String>) -> Bool {
        let shared = current.intersection(remembered).count
        let all = current.union(remembered).count
        return shared >= WiFiSelection.minimumNeeded && shared * 2 >= all
    }

    /// The remembered answer for these access points at `serviceURL`, if it is the same
    /// neighbourhood (the caller judges its age against `remember_days`).
    public func answer(for macAddresses: Set<String>, serviceURL: String, now: Date) -> Answer? {
        guard let remembered = load(), remembered.serviceURL == serviceURL, let key = readKey() else { return nil }
        let byHash = Dictionary(macAddresses.map { (Self.hash($0, key: key), $0) }, uniquingKeysWith: { first, _ in first })
        guard Self.isSameNeighbourhood(Set(byHash.keys), remembered.hashes),
              remembered.timestamp <= now else { return nil }   // from the future: the clock was changed
        let shared = Set(remembered.hashes.compactMap { byHash[$0] })
        return Answer(coordinate: remembered.coordinate, accuracy: remembered.accuracy, timestamp: remembered.timestamp,
                      macAddresses: shared, serviceURL: remembered.serviceURL)
    }

    /// The file's answer; a version 1 file (addresses in clear) is rewritten with keyed hashes.
    func load() -> Remembered? {
        guard let bytes = (try? TextFile.bytes(path, limit: Self.limit)) ?? nil, let json = try? JSONValue.parse(Data(bytes)),
              let version = json["version"]?.int, version == 1 || version == 2,
              let latitude = json["latitude"]?.double, let longitude = json["longitude"]?.double,
              let accuracy = json["accuracy_m"]?.double, accuracy.isFinite, accuracy > 0,
              let seconds = json["timestamp"]?.double, seconds.isFinite,
              let service = json["service"]?.string,
              let points = json["access_points"]?.array?.compactMap(\.string) else { return nil }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else { return nil }
        let timestamp = Date(timeIntervalSince1970: seconds)
        if version == 1 {
            let answer = Answer(coordinate: coordinate, accuracy: accuracy, timestamp: timestamp,
                                macAddresses: Set(points), serviceURL: service)
            guard let hashes = save(answer) else {
                try? FileManager.default.removeItem(atPath: path)   // cannot be rewritten: dropped
                return nil
            }
            return Remembered(coordinate: coordinate, accuracy: accuracy, timestamp: timestamp, hashes: hashes, serviceURL: service)
        }
        return Remembered(coordinate: coordinate, accuracy: accuracy, timestamp: timestamp, hashes: Set(points), serviceURL: service)
    }

    /// Remembers `answer` with its access points as keyed hashes, which it returns; failures (a
    /// read-only disk) are ignored: memory is an optimisation.
    @discardableResult
    public func save(_ answer: Answer) -> Set<String>? {
        guard let key = readKey() ?? makeKey() else { return nil }
        let hashes = Set(answer.macAddresses.map { Self.hash($0, key: key) })
        let json = JSONOutput.object([
            ("version", .number(2)),
            ("service", .string(answer.serviceURL)),
            ("access_points", .array(hashes.sorted().map { .string($0) })),
            ("latitude", .number(answer.coordinate.latitude)),
            ("longitude", .number(answer.coordinate.longitude)),
            ("accuracy_m", .number(answer.accuracy)),
            ("timestamp", .number(answer.timestamp.timeIntervalSince1970)),
        ])
        do {
            try AtomicFile.write(json.serialized() + "\n", to: path, overwrite: true, mode: 0o600)
        } catch {
            return nil
        }
        return hashes
    }

    /// An access point as stored: HMAC-SHA-256 of its lower-cased MAC address, in hex.
    static func hash(_ macAddress: String, key: [UInt8]) -> String {
        SHA256.hex(SHA256.hmac(key: key, message: Array(macAddress.lowercased().utf8)))
    }

    /// The key in `keyPath` (hex), if there is a well-formed one.
    func readKey() -> [UInt8]? {
        guard let text = (try? TextFile.read(keyPath, limit: 1024)) ?? nil else { return nil }
        let digits = text.utf8.filter { $0 != 0x0A && $0 != 0x0D && $0 != 0x20 }
        guard digits.count == Self.keyLength * 2 else { return nil }
        var key = [UInt8]()
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
            key.append(byte)
        }
        return key
    }

    /// A new random key, written to `keyPath` (replacing a malformed one); the key another
    /// process wrote first when it won the race.
    private func makeKey() -> [UInt8]? {
        var generator = SystemRandomNumberGenerator()
        let key = (0..<Self.keyLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let replace = FileManager.default.fileExists(atPath: keyPath)
        do {
            try AtomicFile.write(SHA256.hex(key) + "\n", to: keyPath, overwrite: replace, mode: 0o600)
            return key
        } catch {
            return readKey()
        }
    }
}
