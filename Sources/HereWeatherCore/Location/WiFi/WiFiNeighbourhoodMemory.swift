#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The last Wi-Fi positioning answer, remembered against the access points it was asked
/// for, in `$XDG_STATE_HOME/here-weather/wifi-neighbourhood.json` (mode 0600, written
/// atomically, read only when it is a regular file under 64 KiB).
///
/// An unchanged neighbourhood then costs no request while the answer is within max age:
/// the services are run by volunteers and ask not to be hammered. The rule for "unchanged":
/// the same service, and at least half of the access points in the two sets together are
/// in both (a Jaccard index of 0.5 or more), and at least 2 of them. A laptop at home sees
/// most of the same networks from run to run; a few hundred metres away, most are new.
public struct WiFiNeighbourhoodMemory: Sendable {
    public let path: String
    /// The largest state file read.
    static let limit = 64 << 10

    public init(path: String) {
        self.path = path
    }

    /// The memory under the XDG state directory.
    public init(paths: ConfigurationPaths) {
        self.init(path: paths.xdgDirectory("XDG_STATE_HOME", fallback: ".local/state") + "/here-weather/wifi-neighbourhood.json")
    }

    /// A remembered answer.
    public struct Answer: Sendable, Equatable {
        public var coordinate: Coordinate
        public var accuracy: Double
        public var timestamp: Date
        /// The access points asked about (normalised MAC addresses).
        public var macAddresses: Set<String>
        /// The endpoint asked (without any key).
        public var service: String
    }

    /// Whether `current` is the same neighbourhood as `remembered` (see the type's rule).
    public static func isSameNeighbourhood(_ current: Set<String>, _ remembered: Set<String>) -> Bool {
        let shared = current.intersection(remembered).count
        let all = current.union(remembered).count
        return shared >= WiFiSelection.minimumNeeded && shared * 2 >= all
    }

    /// The remembered answer for these access points at `service`, if it is the same
    /// neighbourhood (the caller judges its age against the request's max age).
    public func answer(for macAddresses: Set<String>, service: String, now: Date) -> Answer? {
        guard let answer = load(), answer.service == service,
              Self.isSameNeighbourhood(macAddresses, answer.macAddresses),
              answer.timestamp <= now else { return nil }   // from the future: the clock was changed
        return answer
    }

    func load() -> Answer? {
        guard let bytes = (try? TextFile.bytes(path, limit: Self.limit)) ?? nil, let json = try? JSONValue.parse(Data(bytes)),
              json["version"]?.int == 1,
              let latitude = json["latitude"]?.double, let longitude = json["longitude"]?.double,
              let accuracy = json["accuracy_m"]?.double, accuracy.isFinite, accuracy > 0,
              let seconds = json["timestamp"]?.double, seconds.isFinite,
              let service = json["service"]?.string,
              let macs = json["access_points"]?.array?.compactMap(\.string) else { return nil }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else { return nil }
        return Answer(coordinate: coordinate, accuracy: accuracy, timestamp: Date(timeIntervalSince1970: seconds),
                      macAddresses: Set(macs), service: service)
    }

    /// Remembers `answer`; failures (a read-only disk) are ignored: memory is an optimisation.
    public func save(_ answer: Answer) {
        let json = JSONOutput.object([
            ("version", .number(1)),
            ("service", .string(answer.service)),
            ("access_points", .array(answer.macAddresses.sorted().map { .string($0) })),
            ("latitude", .number(answer.coordinate.latitude)),
            ("longitude", .number(answer.coordinate.longitude)),
            ("accuracy_m", .number(answer.accuracy)),
            ("timestamp", .number(answer.timestamp.timeIntervalSince1970)),
        ])
        try? AtomicFile.write(json.serialized() + "\n", to: path, overwrite: true, mode: 0o600)
    }
}
