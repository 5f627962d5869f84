#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How accurate a fix must be, like `CLLocationManager.desiredAccuracy`.
public enum DesiredAccuracy: Sendable, Equatable, CustomStringConvertible {
    /// The most accurate fix seen before the deadline.
    case best
    /// A fix whose horizontal accuracy is this many metres or better.
    case within(metres: Double)
    /// The first real fix, whatever its accuracy.
    case any

    /// The default: weather needs no more than 3 km.
    public static let threeKilometres = DesiredAccuracy.within(metres: 3000)

    /// The names users write: `best`, `10m`, `100m`, `1km`, `3km`, `any` (and any `<n>m`/`<n>km`).
    public init?(_ text: String) {
        let lower = text.lowercased()
        switch lower {
        case "best": self = .best
        case "any": self = .any
        default:
            let (digits, scale): (Substring, Double) = lower.hasSuffix("km")
                ? (lower.dropLast(2), 1000) : lower.hasSuffix("m") ? (lower.dropLast(1), 1) : ("", 0)
            guard let value = Double(digits), value.isFinite, value > 0 else { return nil }
            self = .within(metres: value * scale)
        }
    }

    /// The named levels, as `--accuracy` takes them: best, 10m, 100m, 1km, 3km, any.
    public static let levels: [DesiredAccuracy] = [
        .best, .within(metres: 10), .within(metres: 100), .within(metres: 1000), .threeKilometres, .any,
    ]

    /// The named levels, for help and error messages: "best, 10m, 100m, 1km, 3km or any".
    public static var choices: String {
        let names = levels.map(\.description)
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }

    public var description: String {
        switch self {
        case .best: return "best"
        case .any: return "any"
        case .within(let metres):
            return metres >= 1000 && (metres / 1000).rounded() == metres / 1000
                ? "\(Int(metres / 1000))km" : "\(JSONOutput.format(metres))m"
        }
    }

    /// Whether a fix with `accuracy` metres (`nil`: unknown) satisfies this level at once.
    /// `best` is never satisfied early: it waits for the deadline.
    public func isMet(by accuracy: Double?) -> Bool {
        switch self {
        case .any: return true
        case .best: return false
        case .within(let metres):
            guard let accuracy else { return false }
            return accuracy <= metres
        }
    }
}

/// One single-shot location request, like `CLLocationManager.requestLocation()`.
///
/// The deadline belongs to the request so that every source honours the same one. Sources
/// that keep their own clock (an NMEA replay) measure `timeout` on that clock instead.
public struct LocationRequest: Sendable {
    public var desiredAccuracy: DesiredAccuracy
    /// How long the request may take.
    public var timeout: Duration
    /// When the request gives up and returns the best fix seen, or fails (`start + timeout`,
    /// on the run's clock).
    public var deadline: ContinuousClock.Instant
    /// Older fixes are ignored; `nil` accepts any age.
    public var maxAge: Duration?
    /// Ask the sources even when a remembered fix is recent enough (`--follow` after a new
    /// network or a resume: the Wi-Fi and IP answers may have changed). The remembered fix
    /// still stands in when every source fails.
    public var asksSourcesAgain = false

    /// A request whose deadline is `timeout` after `start` (the run's clock's now).
    public init(desiredAccuracy: DesiredAccuracy = .threeKilometres, timeout: Duration = .seconds(10),
                maxAge: Duration? = .seconds(300), start: ContinuousClock.Instant) {
        self.desiredAccuracy = desiredAccuracy
        self.timeout = timeout
        self.deadline = start + timeout
        self.maxAge = maxAge
    }

    /// The same request with its deadline starting at `start` (the run's clock's now): the
    /// sources start when the permission prompt (if any) has been answered, and the prompt's
    /// time is not theirs.
    public func starting(at start: ContinuousClock.Instant) -> LocationRequest {
        var request = self
        request.deadline = start + timeout
        return request
    }

    /// `timeout` in seconds, for messages.
    public var timeoutSeconds: Double { timeout.seconds }

    /// How long a source that starts at `start` can wait, for its "nothing within N s" messages:
    /// the timeout when at least half of it was left (the rest went to start-up: connecting,
    /// loading a library, which a loaded machine can stretch), else what was left, in tenths of
    /// a second rounded down, and 0 when the deadline had already passed. A source that began
    /// late must not claim it waited the whole timeout.
    public func secondsLeft(at start: ContinuousClock.Instant) -> Double {
        let seconds = max(0, start.duration(to: deadline).seconds)
        if seconds >= timeoutSeconds / 2 { return timeoutSeconds }
        return (seconds * 10).rounded(.down) / 10
    }
}
