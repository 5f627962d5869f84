#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// That GeoClue gave no answer here for want of an agent, remembered between runs in
/// `$XDG_STATE_HOME/here-weather/geoclue-no-agent.json` (mode 0600, written atomically, read
/// only when it is a regular file under 64 KiB), so that the zero-config chain skips GeoClue
/// until the situation may have changed (`GeoClueAgentSituation.verdict`).
///
/// CoreLocation learns the same way: a source that cannot answer on this machine does not cost
/// the deadline on every request. A missing, corrupt or future-dated file is no memory, never
/// an error: the next run simply asks GeoClue again.
public struct GeoClueAgentMemory: Sendable {
    public let path: String
    /// The largest file read (they are a few hundred bytes, plus the bus's names).
    static let limit = 64 << 10
    /// The most bus names kept: beyond them the check for a new agent is skipped (see `Remembered`).
    static let maximumNames = 512

    public init(path: String) {
        self.path = path
    }

    /// Why GeoClue gave no answer.
    public enum Reason: String, Sendable, Equatable {
        /// `GetClient` got no answer by the deadline (GeoClue 2.6 waits for an agent in silence).
        case getClientUnanswered = "getclient-unanswered"
        /// GeoClue refused the client because no agent runs for the user (2.8: `Start` fails
        /// with AccessDenied "no agent for UID").
        case refusedNoAgent = "refused-no-agent"

        /// The words for messages.
        public var words: String {
            switch self {
            case .getClientUnanswered: return "GeoClue did not answer GetClient (no GeoClue agent runs for your user)"
            case .refusedNoAgent: return "GeoClue refused the client: no GeoClue agent runs for your user"
            }
        }
    }

    /// What the file holds: when and why, and the situation then.
    public struct Remembered: Sendable, Equatable {
        public var reason: Reason
        /// When it was learned (the run clock's date).
        public var since: Date
        /// `/proc/sys/kernel/random/boot_id` then, if it could be read.
        public var bootID: String?
        /// The login session then (`XDG_SESSION_ID`, else the kernel's audit session), if any.
        public var session: String?
        /// The unique names on the system bus then (this run's own excluded), or nil when
        /// unknown: a new connection of the user's since then may be an agent.
        public var busNames: Set<String>?

        public init(reason: Reason, since: Date, bootID: String?, session: String?, busNames: Set<String>?) {
            self.reason = reason
            self.since = since
            self.bootID = bootID
            self.session = session
            self.busNames = busNames
        }
    }

    /// The remembered answer, or nil: no file, one this program would not have written
    /// (garbage, another version, a name that is not a bus unique name), or one dated after
    /// `now` (the clock was set back: the memory cannot be aged).
    public func load(now: Date) -> Remembered? {
        guard let bytes = (try? TextFile.bytes(path, limit: Self.limit)) ?? nil else { return nil }
        return Self.decode(bytes, now: now)
    }

    /// The memory in `bytes` (see `load`).
    public static func decode(_ bytes: [UInt8], now: Date) -> Remembered? {
        guard let json = try? JSONValue.parse(Data(bytes)), json["version"]?.int == 1,
              let reason = json["reason"]?.string.flatMap(Reason.init(rawValue:)),
              let seconds = json["since"]?.double, let since = LocalTime.date(secondsSince1970: seconds),
              since <= now else { return nil }
        let bootID = json["boot_id"]?.string
        let session = json["session"]?.string
        var names: Set<String>?
        if let list = json["bus_names"], list != .null {
            guard let array = list.array, array.count <= maximumNames else { return nil }
            let strings = array.compactMap(\.string)
            guard strings.count == array.count, strings.allSatisfy(isUniqueName) else { return nil }
            names = Set(strings)
        }
        return Remembered(reason: reason, since: since, bootID: bootID, session: session, busNames: names)
    }

    /// A D-Bus unique name (":1.42"), at most 255 bytes.
    static func isUniqueName(_ name: String) -> Bool {
        name.hasPrefix(":") && name.utf8.count <= 255
            && name.utf8.dropFirst().allSatisfy { $0 == UInt8(ascii: ".") || (0x30...0x39).contains($0)
                || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    /// Remembers `remembered`; a failure (a read-only disk) is ignored: memory is an optimisation.
    public func save(_ remembered: Remembered) {
        let names = remembered.busNames.flatMap { $0.count <= Self.maximumNames ? $0 : nil }
        let json = JSONOutput.object([
            ("version", .number(1)),
            ("reason", .string(remembered.reason.rawValue)),
            ("since", .number(remembered.since.timeIntervalSince1970)),
            ("boot_id", .string(remembered.bootID)),
            ("session", .string(remembered.session)),
            ("bus_names", names.map { .array($0.sorted().map { .string($0) }) } ?? .null),
        ])
        try? AtomicFile.write(json.serialized() + "\n", to: path, overwrite: true, mode: 0o600)
    }

    /// What `doctor` says of `remembered`: the state, what ends it, and the fix.
    public func note(_ remembered: Remembered) -> String {
        let until = remembered.since.addingTimeInterval(GeoClueAgentSituation.lifetime)
        return "Remembered in \(path) since \(GeoClueAgentGate.words(remembered.since)): \(remembered.reason.words), "
            + "so runs without [location] sources skip GeoClue until a new login, a new connection of your user on the "
            + "system bus, or \(GeoClueAgentGate.words(until)). Fix: start a GeoClue agent for your user (a desktop "
            + "session that starts one, or /usr/libexec/geoclue-2.0/demos/agent; GeoClue accepts only the agents in "
            + "[agent] whitelist in /etc/geoclue/geoclue.conf), and if GeoClue then refuses here-weather, allow it there "
            + "with the lines \(GeoClueError.allowingLines) (one per line)."
    }

    /// Forgets (GeoClue answered): nothing to skip any more.
    public func forget() {
        SystemPath.withCString(path) { _ = unlink($0) }
    }
}
