/// `FollowLoop`'s rules for sleep, resume and the network (logind's and NetworkManager's
/// signals, `FollowEventSource.systemBus`):
///
/// - Nothing is fetched while asleep, nor while NetworkManager says there is no connectivity:
///   a fetch that comes due then (a lifetime's end, a retry, SIGUSR1) is held, and made as soon
///   as the machine is awake and online.
/// - A resume redraws the line (its relative texts are hours behind), then finds the place
///   again where it came from the network and fetches, at once when the network is up or not
///   watched, else when NetworkManager says it is up.
/// - The network coming up (offline to online) and a new primary connection do the same.
/// - After these, the first failures are retried on `quickRetries` (5, 10, 20 s), then on the
///   usual backoff: the network is often a few seconds behind the resume, and without
///   NetworkManager nothing else says when it is up.
extension FollowLoop {
    /// The first waits after a failed fetch that a resume or the network coming up triggered.
    public static let quickRetries: [Duration] = [.seconds(5), .seconds(10), .seconds(20)]

    /// Whether a fetch may go out now.
    var mayFetch: Bool { !asleep && online != false }

    /// A fetch, or, asleep or offline, the fetch held and a wait for an event. A move that waits
    /// (`movePending`) goes with it: the fetch is for the newest place (`FollowLoop+Move.swift`).
    mutating func fetch(asksService: Bool, relocates: Bool = false, at now: Moment) -> [Action] {
        guard mayFetch else {
            held = (asksService || held?.asksService == true, relocates || held?.relocates == true)
            refreshAt = nil
            return [wait(now)]
        }
        let held = self.held
        self.held = nil
        let asks = asksService || held?.asksService == true
        var actions: [Action] = relocates || held?.relocates == true ? [.relocate] : []
        if movePending {
            movePending = false
            lastMoveFetch = now.instant
            actions.append(.move)
        }
        return actions + [.fetch(asksService: asks)]
    }

    mutating func handleSystem(_ event: Event, at now: Moment) -> [Action] {
        switch event {
        case .sleeping:
            asleep = true
            return [wait(now)]
        case .resumed:
            asleep = false
            retriesQuickly = true
            var actions: [Action] = []
            if let picture { actions += draw(picture.line(at: now.date)) }
            return actions + fetch(asksService: false, relocates: true, at: now)
        case .network(let up):
            let was = online
            online = up
            guard up else { return [wait(now)] }
            if was == false {
                retriesQuickly = true
                return fetch(asksService: false, relocates: true, at: now)
            }
            if held != nil || moveIsDue(at: now) { return fetch(asksService: false, at: now) }
            return [wait(now)]
        case .connectionChanged:
            return fetch(asksService: false, relocates: true, at: now)
        default:
            return [wait(now)]
        }
    }
}
