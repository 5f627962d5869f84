#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension FixSelector {
    /// A fix a live source reports while `--follow` watches it (`LocationWatch`), judged alone:
    /// there is no deadline to wait for a better one. It is sent when `requestLocation` would
    /// take it at once (real, no older than max age, within the desired accuracy; `any`: every
    /// real fix); with `best`, every fresh fix of known accuracy, each being the best the
    /// source has now. nil: the fix is not sent (a fix worse than the desired accuracy would
    /// move the weather to a place the request does not trust).
    public static func judgedWhileWatching(_ fix: Location, for request: LocationRequest, now: Date) -> Location? {
        var selector = FixSelector(request: request)
        if let answer = selector.consider(fix, now: now) { return answer }
        guard request.desiredAccuracy == .best, fix.horizontalAccuracy != nil else { return nil }
        return selector.answerAtDeadline(now: now)
    }
}
