#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A nowcast read at one moment: the steps from now to the horizon, and when precipitation
/// starts or stops in them, for how long and how hard.
///
/// The rules:
/// - Steps are sorted by start; of steps with the same start the first given counts.
/// - Steps that ended by `now` are dropped; the first step left must cover `now` or start
///   within one step of it, or there is no outlook (the data is old or far ahead).
/// - The horizon ends at the first gap (a missing step, or one without an intensity, or with
///   one that is negative, not finite or over `Nowcast.maximumIntensity`) and at most two
///   hours after `now`: nothing is said about what the data does not cover. A horizon under
///   `Nowcast.minimumHorizonSeconds` (15 minutes) is no outlook.
/// - A step is wet at `Nowcast.threshold` (0.1 mm/h) or more. Only the first wet spell is
///   described: `startsAt` (nil when it is already wet now), `endsAt` (nil when it lasts
///   past the horizon), its peak intensity and kind.
public struct NowcastOutlook: Sendable, Equatable {
    public var source: Nowcast.Source
    public var stepSeconds: Int
    public var now: Date
    /// The steps from `now` to `horizonEnd`, sorted, contiguous.
    public var steps: [Nowcast.Step]
    /// Where the data stops saying anything: at most two hours after `now`.
    public var horizonEnd: Date
    /// Whether it is wet now (the step covering now).
    public var wetNow: Bool
    /// When the first wet spell starts, if it starts after now within the horizon.
    public var startsAt: Date?
    /// When the first wet spell ends, if it ends within the horizon.
    public var endsAt: Date?
    /// The spell's highest intensity, mm/h.
    public var peak: Double?
    /// What falls in the spell: one kind, `mixed`, or nil when the service does not say.
    public var kind: Nowcast.Kind?

    /// `nil` when no step covers `now` (see the rules above).
    public init?(_ nowcast: Nowcast, at now: Date) {
        let step = Double(nowcast.stepSeconds)
        let limit = now.addingTimeInterval(Double(Nowcast.horizonSeconds))
        var seen = Set<Double>()
        let sorted = nowcast.steps.enumerated()
            .filter { $0.element.start.timeIntervalSince1970.isFinite }
            .sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
            .map(\.element)
            .filter { seen.insert($0.start.timeIntervalSince1970).inserted }
        var kept: [Nowcast.Step] = []
        for candidate in sorted where candidate.start.addingTimeInterval(step) > now && candidate.start < limit {
            if let last = kept.last {
                guard candidate.start.timeIntervalSince(last.start) <= step * 1.5 else { break }
            } else {
                guard candidate.start.timeIntervalSince(now) < step else { return nil }
            }
            guard let intensity = candidate.intensity, intensity.isFinite, intensity >= 0,
                  intensity <= Nowcast.maximumIntensity else { break }
            kept.append(candidate)
        }
        guard let first = kept.first, let last = kept.last else { return nil }
        let end = min(limit, last.start.addingTimeInterval(step))
        guard end.timeIntervalSince(now) >= Nowcast.minimumHorizonSeconds else { return nil }
        source = nowcast.source
        stepSeconds = nowcast.stepSeconds
        self.now = now
        steps = kept
        horizonEnd = end
        let wet = kept.map { Nowcast.isWet($0.intensity ?? 0) }
        wetNow = wet[0] && first.start <= now
        guard let spellStart = wet.firstIndex(of: true) else { return }
        let spellEnd = wet[spellStart...].firstIndex(of: false)
        if !wetNow { startsAt = max(kept[spellStart].start, now) }
        endsAt = spellEnd.map { kept[$0].start }
        let spell = kept[spellStart..<(spellEnd ?? kept.count)]
        peak = spell.compactMap(\.intensity).max()
        let kinds = Set(spell.compactMap(\.kind))
        kind = kinds.count > 1 ? .mixed : kinds.first
    }

    /// Seconds the data covers from now.
    public var horizonSeconds: Double { horizonEnd.timeIntervalSince(now) }

    /// Nothing wet from now to the horizon.
    public var isDry: Bool { !wetNow && startsAt == nil }

    /// Whether precipitation starts or stops within the horizon (what `%R` shows).
    public var changes: Bool { startsAt != nil || (wetNow && endsAt != nil) }

    /// Seconds the first spell lasts, when both its ends are within the horizon.
    public var duration: Double? {
        guard let endsAt else { return nil }
        return endsAt.timeIntervalSince(startsAt ?? now)
    }
}
