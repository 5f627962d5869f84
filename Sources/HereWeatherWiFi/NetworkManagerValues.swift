import HereWeatherCore
import HereWeatherDBus

/// What NetworkManager's D-Bus answers mean, as values: the object paths of a list, an
/// access point from its properties, and the outcome of reading many access points.
///
/// No D-Bus traffic here (`NetworkManagerScanner` owns that), so the rules can be fuzzed
/// (`Fuzz/Sources/FuzzNetworkManager`) and tested without a bus.
public enum NetworkManagerValues {
    /// The object paths `method` answered (`ao`). Another type is what it is: NetworkManager
    /// answered a value of the wrong type, said with the type it sent.
    public static func objectPaths(_ reply: [DBusValue], of method: String) throws -> [String] {
        guard reply.count == 1, let paths = reply[0].objectPaths else {
            let sent = reply.map { (try? $0.signature) ?? "?" }.joined()
            throw WiFiError.scanFailed(
                reason: "NetworkManager answered \(method) with a value of type `\(sent.isEmpty ? "nothing" : sent)`, not a list of object paths (`ao`). Check that the service owning org.freedesktop.NetworkManager is NetworkManager.")
        }
        return paths
    }

    /// An access point from its properties (`Properties.GetAll`); `nil` without a MAC address.
    /// `bootSeconds` is CLOCK_BOOTTIME now, the clock of `LastSeen`.
    public static func accessPoint(_ properties: [String: DBusValue], bootSeconds: Double) -> AccessPoint? {
        guard let mac = properties["HwAddress"]?.string else { return nil }
        let lastSeen = properties["LastSeen"]?.integer ?? -1
        let age: Int? = lastSeen < 0 || !bootSeconds.isFinite
            ? nil : Int(exactly: (max(0, min(bootSeconds - Double(lastSeen), 1e9)) * 1000).rounded())
        let strength = properties["Strength"]?.integer.map { Int(min(max($0, 0), 100)) } ?? 0
        let frequency = properties["Frequency"]?.integer.map { Int(min(max($0, 0), 1_000_000)) } ?? 0
        return AccessPoint(macAddress: mac, ssid: properties["Ssid"]?.bytes ?? [],
                           strength: strength, frequency: frequency, age: age)
    }

    /// The access points read from `replies` (each a `GetAll` answer, or why it failed).
    ///
    /// An object that is gone between the list and the read (`UnknownObject`,
    /// `UnknownMethod`, `UnknownInterface`) is skipped, as NetworkManager drops access points
    /// it no longer sees. When nothing could be read and some reads failed otherwise (a
    /// limit, a refusal, no answer in time), that is the error, with the first reason.
    public static func accessPoints(from replies: [Result<[DBusValue], DBusError>], bootSeconds: Double) throws -> [AccessPoint] {
        var found: [AccessPoint] = []
        var failures = 0
        var firstFailure: DBusError?
        for reply in replies {
            switch reply {
            case .success(let values):
                guard let properties = values.first?.dictionary else {
                    failures += 1
                    firstFailure = firstFailure ?? .typeMismatch("Properties.GetAll to answer a{sv}")
                    continue
                }
                if let accessPoint = accessPoint(properties.mapValues(\.unwrapped), bootSeconds: bootSeconds) {
                    found.append(accessPoint)
                }
            case .failure(let error) where isGone(error):
                continue
            case .failure(let error):
                failures += 1
                firstFailure = firstFailure ?? error
            }
        }
        if found.isEmpty, failures > 0, let firstFailure {
            let why = firstFailure == .timedOut ? "NetworkManager did not answer in time." : firstFailure.message
            throw WiFiError.scanFailed(reason: "NetworkManager listed \(replies.count) access points, and \(failures) of them could not be read. \(why)")
        }
        return found
    }

    /// Whether a failed read means the object is gone.
    static func isGone(_ error: DBusError) -> Bool {
        guard case .remote(let name, _) = error else { return false }
        return ["org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod",
                "org.freedesktop.DBus.Error.UnknownInterface"].contains(name)
    }
}
