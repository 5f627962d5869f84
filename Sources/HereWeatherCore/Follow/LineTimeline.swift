#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// When a `FollowPicture`'s line next changes on its own, found by drawing it at later times.
///
/// Every relative text here-weather shows counts whole minutes or more ("in 25 min",
/// "5 min old", "offline 2 h"), each from a reference second of its own (the fetch, the
/// nowcast's steps, the fix). So the line is drawn a minute apart (an hour apart beyond two
/// hours, where the texts count hours), and where it first differs, the second of the
/// change is found by halving. The rule needs to know no text: a new relative text is
/// followed as soon as it is shown. A line that stays the same until `limit` has no change:
/// the loop then sleeps until its next fetch.
public enum LineTimeline {
    /// The farthest ahead a change is looked for when no fetch is due (two days).
    public static let farthest: TimeInterval = 172_800

    /// Steps of the search: a minute up to two hours ahead, then an hour.
    static func step(at offset: TimeInterval) -> TimeInterval {
        offset < 7200 ? 60 : 3600
    }

    /// The first date after `start` and before `limit` at which `picture`'s line is no longer
    /// `line`, to the second; `nil` when it stays `line` until `limit`.
    public static func nextChange(of picture: any FollowPicture, from line: String, after start: Date,
                                  before limit: Date) -> Date? {
        var earlier: TimeInterval = 0
        var offset: TimeInterval = 0
        while true {
            offset = min(offset + step(at: offset), limit.timeIntervalSince(start))
            guard offset > earlier else { return nil }
            if picture.line(at: start.addingTimeInterval(offset)) != line { break }
            earlier = offset
            if start.addingTimeInterval(offset) >= limit { return nil }
        }
        // The line is `line` at `earlier` and differs at `offset`: halve to the second.
        var later = offset
        while later - earlier > 1 {
            let middle = ((earlier + later) / 2).rounded(.down)
            if picture.line(at: start.addingTimeInterval(middle)) == line { earlier = middle } else { later = middle }
        }
        return start.addingTimeInterval(later)
    }
}
