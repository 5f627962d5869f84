#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The replay clock and the request rules applied to a log's epochs, one at a time.
///
/// A log runs on its own clock: "now" is the time of the latest epoch read, so max age and
/// the deadline (the request's timeout, measured from the first epoch) apply as they would
/// have live, and the answer carries that clock (`Location.logClock`). A live feed (a
/// device or FIFO, `live`) is a receiver like gpsd's: each fix is current when it arrives on
/// this machine's clock, and the receiver's date is kept as `receiverTime`. At a finite
/// speed the playback also keeps the recorded pace and the request's deadline. Arrival dates,
/// the deadline and the waits between epochs are on the run's clock (`RunClock`).
struct NMEAPlayback {
    /// What to do after an epoch.
    enum Step: Equatable {
        case answer(Location)
        case next
        /// The request's deadline passed (on the replay clock, or the wall clock at a finite speed).
        case deadline
    }

    private(set) var selector: FixSelector
    let speed: ReplaySpeed
    /// Whether the input is a live feed (device, FIFO, pipe) rather than a log file.
    let live: Bool
    /// A watch (`--follow`'s moving place) rather than a request: no deadline, and every fix
    /// that qualifies is an answer (`FixSelector.judgedWhileWatching`).
    var watches = false
    /// The run's clock: a live feed's arrival dates, the deadline, the waits between epochs.
    let clock: any RunClock
    private(set) var firstTime: Date?
    private(set) var previousTime: Date?
    /// The replay clock: the time of the latest epoch read.
    private(set) var now: Date?
    private(set) var epochs = 0
    private(set) var satellitesInView: Int?
    private(set) var satellitesUsed: Int?
    /// Waits between epochs at a finite speed, returning early on a cancellation; replaced in tests.
    var sleep: (Duration) -> Void

    init(request: LocationRequest, speed: ReplaySpeed, live: Bool = false, cancellation: NMEACancellation? = nil,
         clock: any RunClock) {
        selector = FixSelector(request: request)
        self.speed = speed
        self.live = live
        self.clock = clock
        sleep = { duration in Self.sleep(for: duration, on: clock, unless: cancellation) }
    }

    /// Sleeps until `duration` has passed on `clock`, in slices of real time, so that a
    /// cancellation (or a test clock's advance) is seen within one.
    static func sleep(for duration: Duration, on clock: any RunClock, unless cancellation: NMEACancellation?) {
        let end = clock.now + duration
        while cancellation?.isCancelled != true {
            let left = min(clock.now.duration(to: end), NMEAReadLimit.waitSlice)
            guard left > .zero else { return }
            let nanoseconds = left.components.seconds * 1_000_000_000 + left.components.attoseconds / 1_000_000_000
            var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
            var remaining = timespec()
            while nanosleep(&request, &remaining) != 0 { request = remaining }
        }
    }

    /// Takes the next epoch of the log.
    mutating func take(_ fix: NMEAFix) -> Step {
        epochs += 1
        now = fix.time
        if let inView = fix.satellitesInView { satellitesInView = inView }
        if let used = fix.satellitesUsed { satellitesUsed = used }
        let start = firstTime ?? fix.time
        firstTime = start
        if !watches, fix.time.timeIntervalSince(start) > selector.request.timeoutSeconds { return .deadline }
        if case .factor(let factor) = speed {
            if let previous = previousTime {
                // Keep the recorded pace; a jump in the log's clock waits at most 5 recorded seconds.
                let gap = Duration.milliseconds(Int64(min(max(0, fix.time.timeIntervalSince(previous)), 5) / factor * 1000))
                if watches {
                    sleep(gap)
                } else {
                    let remaining = clock.now.duration(to: selector.request.deadline)
                    if remaining <= .zero { return .deadline }
                    sleep(min(gap, remaining))
                }
            }
            if !watches, clock.now >= selector.request.deadline { return .deadline }
        }
        previousTime = fix.time
        guard var location = Self.location(from: fix) else { return .next }
        if live {
            // Current on arrival; the receiver's date (when it sent one, not assumed) is information.
            let arrival = clock.date
            location.timestamp = arrival
            return judge(location, now: arrival).map(Step.answer) ?? .next
        }
        return judge(location, now: fix.time).map { Step.answer(onLogClock($0)) } ?? .next
    }

    /// A request's answer (`FixSelector.consider`), or a watch's (`judgedWhileWatching`).
    private mutating func judge(_ location: Location, now: Date) -> Location? {
        watches ? FixSelector.judgedWhileWatching(location, for: selector.request, now: now)
            : selector.consider(location, now: now)
    }

    /// The answer when the log ends or the deadline passes: the best fix seen, if any.
    func answerAtEnd() -> Location? {
        if live { return selector.answerAtDeadline(now: clock.date) }
        return now.flatMap { selector.answerAtDeadline(now: $0) }.map(onLogClock)
    }

    /// `answer` with the log's clock at this point of the replay.
    func onLogClock(_ answer: Location) -> Location {
        guard let start = firstTime, let latest = now else { return answer }
        var answer = answer
        answer.logClock = LogClock(start: start, latest: latest)
        return answer
    }

    /// "9 satellites seen, 0 used" for a failure message.
    var satellitesSeen: String {
        "\(satellitesInView ?? 0) satellites seen, \(satellitesUsed ?? 0) used"
    }

    /// The location of a real 2D/3D fix, or `nil` for a void epoch (even with stale coordinates).
    static func location(from fix: NMEAFix) -> Location? {
        guard fix.isValid, fix.mode >= 2, let coordinate = fix.coordinate, coordinate.isValid else { return nil }
        var location = Location(coordinate: coordinate, horizontalAccuracy: fix.horizontalAccuracy, timestamp: fix.time,
                                source: .nmea, altitude: fix.mode >= 3 ? fix.altitude : nil,
                                accuracyIsEstimate: fix.accuracyIsEstimate, mode: fix.mode, simulated: fix.simulated)
        // A date the replay assumed (no RMC or ZDA yet) is no receiver's date.
        if fix.dateFromLog { location.receiverTime = fix.time }
        return location
    }
}
