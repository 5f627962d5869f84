/// "Did you mean …?": the nearest of a set of valid words to one the user typed, for value
/// errors, subcommand typos, config keys and place names. One rule for all of them.
public enum Suggestion {
    /// The candidate nearest to `typed` (case-insensitive optimal string alignment distance:
    /// edits plus swaps of neighbours), if it is near enough to be what was meant: at most one
    /// edit for words up to 4 letters, two up to 8, three beyond. A candidate that starts with
    /// what was typed (`--units met`) also counts. Ties go to the earlier candidate.
    public static func nearest<S: Sequence>(to typed: String, among candidates: S) -> String?
        where S.Element == String {
        let word = Array(typed.lowercased())
        guard !word.isEmpty else { return nil }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let other = Array(candidate.lowercased())
            if other == word { return candidate }
            var distance = Self.distance(word, other)
            if other.count > word.count, word.count >= 3, other.starts(with: word) {
                distance = min(distance, 1)
            }
            guard distance <= allowance(for: max(word.count, 1)) else { continue }
            if best == nil || distance < best!.distance {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// "Did you mean 'metric'?" or nil: a sentence of its own, after a full stop.
    public static func sentence<S: Sequence>(for typed: String, among candidates: S) -> String?
        where S.Element == String {
        nearest(to: typed, among: candidates).map { "Did you mean '\($0)'?" }
    }

    /// "did you mean 'metric'?" or nil.
    public static func phrase<S: Sequence>(for typed: String, among candidates: S) -> String?
        where S.Element == String {
        nearest(to: typed, among: candidates).map { "did you mean '\($0)'?" }
    }

    static func allowance(for length: Int) -> Int {
        length <= 4 ? 1 : (length <= 8 ? 2 : 3)
    }

    /// Optimal string alignment distance (Levenshtein plus adjacent transpositions).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
