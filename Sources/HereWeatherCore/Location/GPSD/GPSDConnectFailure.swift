/// Why no connection to gpsd on another host could be made, other than a refusal: told apart
/// by a connect of here-weather's own (`PortProbe.attempt`), since libgps says -6 ("no
/// connection") for every failed connect.
///
/// The words each failure says are in `words` and `advice` (one table, for translation).
public enum GPSDConnectFailure: Equatable, Sendable {
    /// No route to the host (`EHOSTUNREACH`): it is down, or not on a network this machine reaches.
    case hostUnreachable
    /// No route to the host's network from this machine (`ENETUNREACH`).
    case networkUnreachable
    /// The connection was neither accepted nor refused by the deadline: a host that is down,
    /// or a firewall that drops it. `seconds`: how long it was given (0: none was left).
    case noAnswer(seconds: Double)

    /// What happened, after "Cannot reach gpsd on ADDRESS: ".
    var words: String {
        switch self {
        case .hostUnreachable:
            return "no route to the host (it is down, or not on a network this machine reaches)"
        case .networkUnreachable:
            return "the network is unreachable from this machine (no route to it)"
        case .noAnswer(let seconds) where seconds == 0:
            return "the request's timeout had already passed when it was asked"
        case .noAnswer(let seconds):
            return "no answer within \(JSONOutput.format(seconds)) s (the host is down, or a firewall drops the connection)"
        }
    }

    /// What to do, for `host`.
    func advice(host: String) -> String {
        switch self {
        case .hostUnreachable:
            return "Check that \(host) is on and reachable from here (`ping \(host)`)"
        case .networkUnreachable:
            return "Check this machine's network connection (or the VPN that reaches \(host))"
        case .noAnswer(let seconds) where seconds == 0:
            return "Try a longer --timeout"
        case .noAnswer:
            return "Check that \(host) is on and that its firewall lets this machine reach gpsd's port"
        }
    }
}
