#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Applies a `LocationRequest`'s rules to the fixes a source sees, one at a time.
///
/// A fix qualifies when it is a real position (finite, in range: callers pass only fixes
/// the receiver calls 2D or 3D), no older than the request's max age, and within its desired
/// accuracy. Age counts from the fix's `timestamp`: a live fix's arrival on this machine's
/// clock (so it is current, whatever date its receiver puts on it), a replayed fix's time on
/// the log's clock. With max age off no date rule applies at all. `any` takes the first real
/// fix; `best` keeps the most accurate until the deadline; a fix of unknown accuracy meets
/// only `any`. At the deadline the best fix seen is the answer, marked as not meeting the
/// desired accuracy.
public struct FixSelector: Sendable {
    public let request: LocationRequest
    /// The most accurate acceptable fix so far.
    public private(set) var best: Location?
    /// Real fixes seen, and those ignored for being older than max age.
    public private(set) var fixesSeen = 0
    public private(set) var staleFixesSeen = 0

    public init(request: LocationRequest) {
        self.request = request
    }

    /// Considers a real fix observed at `now` (the source's clock: this machine's for a live
    /// source, the log's for a replay); returns the answer when it completes the request.
    public mutating func consider(_ fix: Location, now: Date) -> Location? {
        guard fix.coordinate.isValid else { return nil }
        fixesSeen += 1
        guard isFresh(fix, at: now) else {
            staleFixesSeen += 1
            return nil
        }
        if request.desiredAccuracy.isMet(by: fix.horizontalAccuracy) {
            var answer = fix
            answer.meetsDesiredAccuracy = true
            return answer
        }
        if best.map({ Self.isBetter(fix, than: $0) }) ?? true { best = fix }
        return nil
    }

    /// The answer when the deadline passes or the input ends at `now`: the best fix seen, if
    /// it has not grown older than max age meanwhile.
    public func answerAtDeadline(now: Date) -> Location? {
        guard var answer = best, isFresh(answer, at: now) else { return nil }
        answer.meetsDesiredAccuracy = request.desiredAccuracy == .best && answer.horizontalAccuracy != nil
        return answer
    }

    /// What was ignored, for a failure message: "2 fixes older than the max age ignored".
    public var ignored: [String] {
        staleFixesSeen > 0 ? ["\(staleFixesSeen) fixes older than the max age ignored"] : []
    }

    /// A source's single answer judged at once (an IP lookup, a Wi-Fi fix): asking again would
    /// not improve it, so a fix that misses the desired accuracy comes back now, marked as
    /// not meeting it, rather than at the deadline.
    public static func judgedAtOnce(_ location: Location, for request: LocationRequest, now: Date) -> Location {
        var selector = FixSelector(request: request)
        if let qualifying = selector.consider(location, now: now) { return qualifying }
        if let best = selector.answerAtDeadline(now: now) { return best }
        var missed = location
        missed.meetsDesiredAccuracy = false
        return missed
    }

    /// Whether `fix` is no older than max age at `now`; always, with max age off.
    public func isFresh(_ fix: Location, at now: Date) -> Bool {
        guard let maxAge = request.maxAge else { return true }
        return now.timeIntervalSince(fix.timestamp) <= maxAge.seconds
    }

    /// Smaller known accuracy wins; unknown loses to known; ties keep `current`.
    public static func isMoreAccurate(_ candidate: Location, than current: Location) -> Bool {
        switch (candidate.horizontalAccuracy, current.horizontalAccuracy) {
        case let (new?, old?): return new < old
        case (_?, nil): return true
        default: return false
        }
    }

    /// Smaller known accuracy wins; unknown loses to known; ties go to the newer fix.
    static func isBetter(_ candidate: Location, than current: Location) -> Bool {
        switch (candidate.horizontalAccuracy, current.horizontalAccuracy) {
        case let (new?, old?) where new != old: return new < old
        case (_?, nil): return true
        case (nil, _?): return false
        default: return candidate.timestamp >= current.timestamp
        }
    }
}
