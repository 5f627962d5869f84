#if canImport(Glibc)
import Glibc
#endif
import HereWeatherCore

/// Whether a GeoClue agent may have started, as the bus daemon tells it: agents own no name
/// of their own (they export `/org/freedesktop/GeoClue2/Agent` on their connection and
/// register with GeoClue, which says nothing of it to others), so a new connection of this
/// user's, not a here-weather run's, is the sign. Only the bus daemon is asked, within
/// `presenceBound`: nothing reaches GeoClue.
extension GeoClueLocationProvider: GeoClueAgentWatch {
    public func busNames() async -> Set<String>? {
        guard let bus = try? connect() else { return nil }
        let reply = try? await bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                        interface: "org.freedesktop.DBus", member: "ListNames",
                                        deadline: .after(Self.presenceBound))
        return reply?.first?.strings.map { Set($0.filter { $0.hasPrefix(":") }) }
    }

    public func userConnections(among names: Set<String>) async -> Set<String>? {
        guard let bus = try? connect() else { return nil }
        let ordered = names.sorted()
        let calls = ordered.flatMap { name in
            ["GetConnectionUnixUser", "GetConnectionUnixProcessID"].map {
                DBusCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                         interface: "org.freedesktop.DBus", member: $0, arguments: [.string(name)])
            }
        }
        guard let results = try? await bus.callEach(calls, deadline: .after(Self.presenceBound)) else { return nil }
        var users = Set<String>()
        for (index, name) in ordered.enumerated() {
            // A name gone meanwhile (NameHasNoOwner) or unanswered is no sign.
            guard let uid = try? results[2 * index].get().first?.uint32, uid == getuid(),
                  let pid = try? results[2 * index + 1].get().first?.uint32,
                  pid != UInt32(getpid()), !Self.isHereWeather(pid: pid) else { continue }
            users.insert(name)
        }
        return users
    }

    /// Whether process `pid` is another here-weather run (its `comm`), whose connection says
    /// nothing about an agent.
    static func isHereWeather(pid: UInt32) -> Bool {
        let descriptor = open("/proc/\(pid)/comm", O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        return bytes[..<count].prefix { $0 != 0x0A }.elementsEqual("here-weather".utf8)
    }
}
