#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The rules of `--follow`, apart from its I/O: a value fed events (an answer, a wake, a
/// signal) that answers what to do next (print a line, read the cache, fetch, wait until an
/// instant, end), as `NMEAEpochAssembler` keeps the NMEA rules in values.
///
/// 1. It starts from the cache: a fresh report, or a stale one (marked), is printed at once;
///    a report that is not fresh is then fetched.
/// 2. A fresh report is fetched again when its lifetime ends (`FollowAnswer.Kind.fresh`).
/// 3. A failed fetch (a stale report shown in its place, or only the failure) is retried on
///    `Backoff` (30 s, 1, 2, 5, 10 min), each wait capped by the report's lifetime.
/// 4. The shown line is drawn again when it changes on its own ("in 25 min", "offline 2 h"):
///    the loop wakes at the next instant the picture's line differs (`LineTimeline`), never
///    more often, and not at all for a line that stays the same until the next fetch.
/// 5. A line identical to the one shown prints nothing.
/// 6. A refresh request (SIGUSR1) fetches at once, asking the service past the cache.
/// 7. Sleep, resume and the network (`FollowLoop+Network.swift`): nothing is fetched while
///    asleep or while NetworkManager says there is no connectivity; a fetch that comes due
///    then is held until the machine is awake and online. A resume, the network coming up and
///    a new primary connection find the place again where it came from the network (`.relocate`)
///    and fetch; their first failures are retried sooner (`quickRetries`), as the network is
///    often a few seconds behind.
/// 8. A moving place (`FollowLoop+Move.swift`): a watched source's fix out of the shown place's
///    cell (`.moved`) makes the newest fix the place and fetches, at most once a minute.
public struct FollowLoop: Sendable {
    /// A point in time, as the run's clock gives it: its instant (for waits) and date (for texts).
    public struct Moment: Sendable {
        public var instant: ContinuousClock.Instant
        public var date: Date

        public init(instant: ContinuousClock.Instant, date: Date) {
            self.instant = instant
            self.date = date
        }

        /// The instant at which the clock shows `later`, from this moment.
        func instant(at later: Date) -> ContinuousClock.Instant {
            instant.advanced(by: .milliseconds(Int64(((later.timeIntervalSince(date)) * 1000).rounded(.up))))
        }
    }

    /// What happened.
    public enum Event: Sendable {
        /// The loop begins.
        case started
        /// The answer to `.readCache`: the stored report as the cache would show it, or none;
        /// `.failed` when there was no place to read it for.
        case cacheRead(FollowAnswer?)
        /// The answer to `.fetch`.
        case fetched(FollowAnswer)
        /// A wait ended (its instant came, or the wait was cut short: the loop checks).
        case woke
        /// Refresh now (SIGUSR1).
        case refreshRequested
        /// End (a stop asked of the loop; the process's SIGTERM and SIGINT end it at once).
        case stopRequested
        /// The machine is about to sleep (logind's `PrepareForSleep(true)`).
        case sleeping
        /// The machine has woken (logind's `PrepareForSleep(false)`).
        case resumed
        /// NetworkManager's word on the network: `online` when its State is 70 (connected
        /// globally) or its Connectivity is 4 (full); sent when following starts and at each
        /// change. Without NetworkManager, none comes, and the network is taken as up.
        case network(online: Bool)
        /// NetworkManager's primary connection changed (a new network).
        case connectionChanged
        /// The watched source's newest fix is out of the cell of the shown report's place (the
        /// coordinates rounded as services get them, `[privacy] coordinate_decimals`).
        case moved
        /// The watched source's newest fix is back in the shown place's cell: a move that
        /// waits for its minute is dropped.
        case returned
    }

    /// What to do next. A list of actions ends with `.readCache`, `.fetch`, `.wait` or `.exit`,
    /// whose answer (or wake) is the next event.
    public enum Action: Sendable, Equatable {
        /// Write this line on stdout, flushed.
        case print(String)
        /// Read the stored report for the place, without the network; answer `.cacheRead`.
        case readCache
        /// Fetch the report; `asksService`: past a fresh cache entry. Answer `.fetched`.
        case fetch(asksService: Bool)
        /// Wait until this instant (none: until an event); then `.woke`.
        case wait(until: ContinuousClock.Instant?)
        /// Forget the place if it came from the network (Wi-Fi, IP: asked again, past the
        /// remembered fix), so that the next fetch finds it anew. Followed by `.fetch`.
        case relocate
        /// Take the watched source's newest fix as the place. Followed by `.fetch`.
        case move
        /// End the process, exit 0.
        case exit
    }

    /// The waits after failed fetches in a row: 30 s, 1, 2, 5, then every 10 min.
    public static let backoff: [Duration] = [.seconds(30), .seconds(60), .seconds(120), .seconds(300), .seconds(600)]

    /// A fresh report is fetched again this long after its lifetime ends, so that the cache
    /// entry, measured on the wall clock, has surely expired (several followers then share
    /// one fetch: the first takes the lock, the others find its entry).
    public static let expiryMargin = Duration.seconds(1)

    /// The seconds a report stays fresh when no answer said otherwise (`[cache] ttl`).
    public var defaultLifetime: Duration

    /// What is shown, able to draw itself at any time.
    public private(set) var picture: (any FollowPicture)?
    /// The last line printed.
    public private(set) var shown: String?
    /// When to fetch next.
    public internal(set) var refreshAt: ContinuousClock.Instant?
    /// When the shown line next changes on its own.
    public private(set) var redrawAt: ContinuousClock.Instant?
    /// Failed fetches in a row.
    public private(set) var failures = 0
    /// The last report's lifetime: the cap of the backoff.
    public private(set) var lifetime: Duration
    /// Between `.sleeping` and `.resumed`.
    public internal(set) var asleep = false
    /// NetworkManager's last word (`nil`: none, taken as up).
    public internal(set) var online: Bool?
    /// A fetch that came due while asleep or offline (`asksService`: a refresh request's).
    public internal(set) var held: (asksService: Bool, relocates: Bool)?
    /// Whether failures are retried on `quickRetries` first (after a resume or the network
    /// coming up), until an answer is fresh.
    public internal(set) var retriesQuickly = false
    /// When the last fetch that took a new place went out (the move limit counts from it).
    public internal(set) var lastMoveFetch: ContinuousClock.Instant?
    /// A move not yet made: it waits for its minute (`moveAt`), or for the machine to be awake
    /// and online.
    public internal(set) var movePending = false

    public init(defaultLifetime: Duration) {
        self.defaultLifetime = defaultLifetime
        lifetime = defaultLifetime
    }

    /// The actions for `event`, at `now`.
    public mutating func handle(_ event: Event, at now: Moment) -> [Action] {
        switch event {
        case .started:
            return [.readCache]
        case .cacheRead(nil):
            return fetch(asksService: false, at: now)
        case .cacheRead(let answer?):
            // No place to read the cache for (the location failed): retried as a failed fetch is.
            if case .failed = answer.kind { return handle(.fetched(answer), at: now) }
            var actions = show(answer, at: now)
            if case .fresh(let until, _) = answer.kind {
                schedule(refresh: until)
                actions.append(wait(now))
            } else {
                actions += fetch(asksService: false, at: now)
            }
            return actions
        case .fetched(let answer):
            var actions = show(answer, at: now)
            switch answer.kind {
            case .fresh(let until, _):
                failures = 0
                retriesQuickly = false
                schedule(refresh: max(until, now.instant))
            case .stale, .failed:
                failures += 1
                let steps = retriesQuickly ? Self.quickRetries + Self.backoff : Self.backoff
                let step = steps[min(failures, steps.count) - 1]
                refreshAt = now.instant.advanced(by: min(step, lifetime))
            }
            actions.append(wait(now))
            return actions
        case .woke:
            if let refreshAt, refreshAt <= now.instant { return fetch(asksService: false, at: now) }
            if moveIsDue(at: now) { return fetch(asksService: false, at: now) }
            var actions: [Action] = []
            if let redrawAt, redrawAt <= now.instant, let picture {
                actions += draw(picture.line(at: now.date))
            }
            actions.append(wait(now))
            return actions
        case .refreshRequested:
            return fetch(asksService: true, at: now)
        case .stopRequested:
            return [.exit]
        case .sleeping, .resumed, .network, .connectionChanged:
            return handleSystem(event, at: now)
        case .moved, .returned:
            return handleMove(event, at: now)
        }
    }

    /// Takes `answer`'s picture and lifetime, and prints its line unless it is the one shown.
    private mutating func show(_ answer: FollowAnswer, at now: Moment) -> [Action] {
        picture = answer.picture
        if case .fresh(_, let lifetime) = answer.kind { self.lifetime = max(lifetime, .seconds(1)) }
        return draw(answer.picture.line(at: now.date))
    }

    mutating func draw(_ line: String) -> [Action] {
        guard line != shown else { return [] }
        shown = line
        return [.print(line)]
    }

    private mutating func schedule(refresh until: ContinuousClock.Instant) {
        refreshAt = until.advanced(by: Self.expiryMargin)
    }

    /// Waits until the next fetch or the next change of the line, whichever comes first.
    mutating func wait(_ now: Moment) -> Action {
        redrawAt = nil
        if let picture, let shown {
            let horizon = refreshAt.map { now.date.addingTimeInterval((now.instant.duration(to: $0)).seconds) }
            if let change = LineTimeline.nextChange(of: picture, from: shown, after: now.date,
                                                    before: horizon ?? now.date.addingTimeInterval(LineTimeline.farthest)) {
                redrawAt = now.instant(at: change)
            }
        }
        let move = movePending && mayFetch ? moveAt : nil
        let next = [refreshAt, redrawAt, move].compactMap { $0 }.min()
        return .wait(until: next)
    }
}

/// What `--follow` shows, able to draw its line at any time: relative texts ("in 25 min",
/// "offline 2 h") are read at the time given.
public protocol FollowPicture: Sendable {
    func line(at date: Date) -> String
}

/// An answer to a cache read or a fetch.
public struct FollowAnswer: Sendable {
    public enum Kind: Sendable {
        /// A fresh report: fresh until that instant; `lifetime` is how long its kind stays fresh.
        case fresh(until: ContinuousClock.Instant, lifetime: Duration)
        /// An old report shown because the service could not answer (or not yet asked).
        case stale
        /// Nothing to show but the failure.
        case failed
    }

    public var kind: Kind
    public var picture: any FollowPicture

    public init(_ kind: Kind, picture: any FollowPicture) {
        self.kind = kind
        self.picture = picture
    }
}
