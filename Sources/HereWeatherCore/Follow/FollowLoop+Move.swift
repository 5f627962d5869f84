/// `FollowLoop`'s rules for a moving place (a watched source: gpsd's WATCH stream, GeoClue's
/// LocationUpdated, an NMEA device, FIFO or log). The driver sends `.moved` when the source's
/// newest fix leaves the cell of the shown report's place (`FollowMoves`: the coordinates
/// rounded as the services get them), and `.returned` when it comes back.
///
/// - A move fetches the weather for the newest fix (`.move`, then `.fetch`), reading a fresh
///   cache entry for the new place first, as any fetch that does not ask past the cache.
/// - At most one fetch for a new place a minute (`moveInterval`): a move within the minute
///   after the last one waits until the minute is up (the wait wakes at that instant); later
///   moves meanwhile change nothing here, since the driver takes the newest fix when the move
///   is made (one fetch, for where the machine is then). A return into the shown place's cell
///   drops the waiting move.
/// - Asleep or offline, a move waits as other fetches are held, and is made with the first
///   fetch once the machine is awake and online (a resume's, the network's coming up).
/// - Any fetch that goes out while a move waits (the lifetime's end, SIGUSR1, a retry, a resume)
///   takes the move along, so that no fetch is for a place already left, and counts as the
///   minute's move. A fetch without a waiting move leaves the limit as it is: a move right
///   after a refresh is made at once, if the last move was a minute ago.
extension FollowLoop {
    /// The shortest time between two fetches for a new place.
    public static let moveInterval = Duration.seconds(60)

    /// When a waiting move may be made: a minute after the last one (`nil`: at once, or no move waits).
    var moveAt: ContinuousClock.Instant? {
        guard movePending, let lastMoveFetch else { return nil }
        return lastMoveFetch.advanced(by: Self.moveInterval)
    }

    /// Whether a waiting move may be made at `now`: its minute is up, awake and online.
    func moveIsDue(at now: Moment) -> Bool {
        guard movePending, mayFetch else { return false }
        return moveAt.map { $0 <= now.instant } ?? true
    }

    mutating func handleMove(_ event: Event, at now: Moment) -> [Action] {
        switch event {
        case .moved:
            movePending = true
            if moveIsDue(at: now) { return fetch(asksService: false, at: now) }
            return [wait(now)]
        case .returned:
            movePending = false
            return [wait(now)]
        default:
            return [wait(now)]
        }
    }
}
