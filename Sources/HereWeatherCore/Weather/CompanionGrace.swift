/// The short wait a report's companions get once the weather itself has answered.
///
/// A companion adds to a report and never fails one: the NWS's official alerts (for any
/// provider at a US point, and with `provider = "nws"`), MET Norway's radar nowcast and the
/// air quality (`AirQualityWeatherProvider`). Each
/// is asked at the same time as the weather. Once the weather has answered, a companion that
/// has not gets `length` more (never past the weather's deadline); then the report goes out
/// without it, exactly as after a failed companion fetch: its request is cancelled (no work
/// outlives the report), and `--verbose` says which companion was dropped and why. A status
/// bar that refreshes every few minutes is then held up by 1.5 s at most, not by the
/// weather's whole timeout.
public struct CompanionGrace: Sendable {
    /// How long a companion may still take once the weather has answered.
    public static let length: Duration = .milliseconds(1500)

    /// The companions a report may have, as `--verbose` names them.
    public enum Companion: String, Sendable {
        case alerts
        case nowcast
        case airQuality = "air quality"

        /// "them" or "it", for the `--verbose` note.
        var pronoun: String { self == .alerts ? "them" : "it" }
    }

    /// The run's clock: the grace is measured on it.
    public let clock: any RunClock
    /// The run's `--verbose` notes.
    public let log: @Sendable (String) -> Void

    public init(clock: any RunClock, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.clock = clock
        self.log = log
    }

    /// Runs `weather` and `companion` at once, and returns the weather's answer with the
    /// companion's, or with `nil` when the companion failed or had not answered within the
    /// grace after the weather (then it is cancelled first, and `log` says so). A failed
    /// weather fetch cancels the companion and throws; so does a cancelled run.
    public func run<Weather: Sendable, Extra: Sendable>(
        _ name: Companion, deadline: ContinuousClock.Instant,
        weather: @escaping @Sendable () async throws -> Weather,
        companion: @escaping @Sendable () async throws -> Extra?
    ) async throws -> (weather: Weather, companion: Extra?) {
        let clock = clock
        return try await withThrowingTaskGroup(of: CompanionPart<Weather, Extra>.self) { group in
            group.addTask { .companion(try? await companion()) }
            group.addTask { .weather(try await weather()) }
            var answer: Weather?
            var extra: Extra??
            while let part = try await group.next() {
                switch part {
                case .weather(let value):
                    if let extra {
                        return (value, extra)
                    }
                    answer = value
                    let end = min(clock.now.advanced(by: Self.length), deadline)
                    let cutByDeadline = end == deadline
                    group.addTask {
                        try? await clock.sleep(until: end, tolerance: nil)
                        return .graceOver(cutByDeadline: cutByDeadline)
                    }
                case .companion(let value):
                    guard let answer else {
                        extra = .some(value)
                        continue
                    }
                    group.cancelAll()
                    return (answer, value)
                case .graceOver(let cutByDeadline):
                    group.cancelAll()
                    try Task.checkCancellation()
                    guard let answer else { continue }
                    log(Self.note(name, cutByDeadline: cutByDeadline))
                    return (answer, nil)
                }
            }
            throw CancellationError()
        }
    }

    /// What `--verbose` says about a companion dropped for want of time.
    static func note(_ name: Companion, cutByDeadline: Bool) -> String {
        let within = cutByDeadline
            ? "before the weather's deadline"
            : "within \(JSONOutput.format(length.seconds)) s of the weather"
        return "\(name.rawValue): no answer \(within); shown without \(name.pronoun)"
    }
}

/// One finished part of `CompanionGrace.run`.
private enum CompanionPart<Weather: Sendable, Extra: Sendable>: Sendable {
    case weather(Weather)
    case companion(Extra?)
    case graceOver(cutByDeadline: Bool)
}
