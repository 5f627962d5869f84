#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why GeoClue gave no location.
public enum GeoClueError: UserFacingError, Equatable {
    /// GeoClue is not on the system bus and cannot be started there.
    case notRunning
    /// GeoClue refused the app (geoclue.conf, or the agent); GeoClue's own words.
    case notAllowed(reason: String)
    /// GetClient got no answer by the deadline: GeoClue 2.6 waits for an agent without a word.
    /// `seconds` is how long GeoClue was given (`LocationRequest.secondsLeft`), 0 when none.
    case noAgent(seconds: Double)
    /// Started, but no location (that qualified for the request's max age) by the deadline.
    case noFix(seconds: Double, seen: Int)
    /// GeoClue answered with another error.
    case failed(String)
    /// Not asked: it had no agent for the user in an earlier run, remembered in `path`
    /// (`GeoClueAgentMemory`) until `until` at the latest.
    case rememberedNoAgent(path: String, until: Date)

    /// The geoclue.conf lines that let here-weather use GeoClue, on one line.
    public static let allowingLines = "[here-weather] allowed=true system=false users="

    public var message: String {
        switch self {
        case .notRunning:
            return "GeoClue is not running on the system bus (org.freedesktop.GeoClue2 has no owner and cannot be started). Install it (Debian and Ubuntu: apt install geoclue-2.0), or remove \"geoclue\" from \(ConfigKey.locationSources)."
        case .notAllowed(let reason):
            return "GeoClue refused here-weather (\(ServiceText.oneLine(reason))). Allow it in /etc/geoclue/geoclue.conf with the lines \(Self.allowingLines) (one per line), then restart GeoClue (`sudo systemctl restart geoclue`)."
        case .noAgent(0), .noFix(0, _):
            return "GeoClue was asked after the request's timeout had passed, so it was given no time to answer. Try a longer --timeout, or another source."
        case .noAgent(let seconds):
            return "GeoClue did not answer within \(JSONOutput.format(seconds)) s: it answers only once a GeoClue agent runs for your user. Log in to a desktop session that starts one (GNOME, KDE, Phosh), or run /usr/libexec/geoclue-2.0/demos/agent (Debian: geoclue-2-demo; it must be in [agent] whitelist in /etc/geoclue/geoclue.conf)."
        case .noFix(let seconds, let seen):
            let what = seen == 0 ? "no location" : "no location recent enough (\(seen) too old)"
            return "GeoClue gave \(what) within \(JSONOutput.format(seconds)) s. Check its sources in /etc/geoclue/geoclue.conf (/usr/libexec/geoclue-2.0/demos/where-am-i shows what it finds), try a longer --timeout, or add another source."
        case .failed(let reason):
            return "GeoClue failed: \(ServiceText.oneLine(reason))."
        case .rememberedNoAgent(let path, let until):
            return "GeoClue was not asked: it had no agent for your user in an earlier run (remembered in \(path) until a new "
                + "login, an agent on the system bus, or \(GeoClueAgentGate.words(until))). Start a GeoClue agent (a desktop "
                + "session that starts one, or /usr/libexec/geoclue-2.0/demos/agent, listed in [agent] whitelist in "
                + "/etc/geoclue/geoclue.conf), or delete that file to ask GeoClue again."
        }
    }

    public var exitStatus: ExitStatus {
        if case .notAllowed = self { return .notPermitted }
        return .noLocation
    }
}
