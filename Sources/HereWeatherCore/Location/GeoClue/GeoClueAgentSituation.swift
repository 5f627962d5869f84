#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a remembered "GeoClue has no agent here" (`GeoClueAgentMemory`) is judged against:
/// the date, the boot and the login session. The rule (`verdict`) is the memory's whole
/// policy, with no I/O: it holds while the boot and the session are the ones it was learned
/// in and for a day at most. A new login is when a desktop starts an agent; a day bounds
/// what no check sees (an agent started by hand is seen on the bus: `GeoClueAgentWatch`).
public struct GeoClueAgentSituation: Sendable, Equatable {
    public var date: Date
    public var bootID: String?
    public var session: String?

    public init(date: Date, bootID: String?, session: String?) {
        self.date = date
        self.bootID = bootID
        self.session = session
    }

    /// How long a memory holds at most: a day.
    public static let lifetime: Double = 86_400

    /// This machine's now: the boot from `bootIDPath`, the session from `XDG_SESSION_ID`, else
    /// the kernel's audit session (`/proc/self/sessionid`, unless unset: 4294967295).
    public static func current(date: Date, environment: [String: String],
                               bootIDPath: String = "/proc/sys/kernel/random/boot_id",
                               sessionPath: String = "/proc/self/sessionid") -> GeoClueAgentSituation {
        var session = environment["XDG_SESSION_ID"].flatMap { $0.isEmpty ? nil : $0 }
        if session == nil, let audit = firstLine(sessionPath), audit != "4294967295" {
            session = "audit:" + audit
        }
        return GeoClueAgentSituation(date: date, bootID: firstLine(bootIDPath), session: session)
    }

    /// A small file's first line, trimmed, or nil (missing, unreadable, empty, or longer than a line of /proc).
    static func firstLine(_ path: String) -> String? {
        guard let bytes = (try? TextFile.bytes(path, limit: 4096)) ?? nil else { return nil }
        let line = bytes.prefix { $0 != 0x0A }.filter { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }
        return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
    }

    /// Whether GeoClue is skipped, and until when, or why it is tried again.
    public enum Verdict: Sendable, Equatable {
        case skip(until: Date)
        case tryAgain(String)
    }

    /// The rule for `remembered` now, without the bus (the caller asks the bus only on `.skip`).
    public func verdict(_ remembered: GeoClueAgentMemory.Remembered) -> Verdict {
        let until = remembered.since.addingTimeInterval(Self.lifetime)
        if remembered.bootID != bootID { return .tryAgain("the machine has booted since") }
        if remembered.session != session { return .tryAgain("this is another login session") }
        if date >= until { return .tryAgain("a day has passed") }
        if date < remembered.since { return .tryAgain("the clock was set back") }
        return .skip(until: until)
    }
}

/// The system bus, as far as it can tell whether a GeoClue agent may have started: agents
/// own no name of their own, so a new connection of this user's is the sign.
public protocol GeoClueAgentWatch: Sendable {
    /// The unique names on the system bus now (this run's own among them); nil when the bus
    /// does not answer. Local and bounded (a fraction of a second).
    func busNames() async -> Set<String>?
    /// Of `names`, those whose connection belongs to this user and is neither this process nor
    /// another here-weather run; nil when the bus does not say.
    func userConnections(among names: Set<String>) async -> Set<String>?
}
