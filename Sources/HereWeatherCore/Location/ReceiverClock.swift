#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a receiver's own time compares with this machine's clock, for the one line that says
/// so when they differ: shown, never a reason to refuse a fix (a live fix is current when it
/// arrives, whatever date the receiver puts on it).
public enum ReceiverClock: Equatable, Sendable {
    /// The receiver is a whole number of 1024-week GPS periods (within a day) behind this
    /// machine's clock: the week-rollover bug of its firmware.
    case weekRollover(periods: Int)
    /// The receiver's time is ahead: this machine's clock is the likely wrong one (an RTC reset,
    /// a dead CMOS battery, no NTP yet: exactly when the receiver has the right time).
    case machineClockLikelyBehind(seconds: Double)
    /// The receiver's time is behind, but not by whole rollover periods: its clock is the
    /// likely wrong one (no time from the satellites yet, stored data).
    case receiverClockLikelyBehind(seconds: Double)

    /// Within this many seconds the clocks agree (a receiver's clock against one that NTP keeps).
    public static let tolerance: TimeInterval = 60
    /// One GPS week-number period: 1024 weeks, about 19.6 years.
    public static let rolloverPeriod: TimeInterval = 1024 * 7 * 86_400

    /// How `receiverTime` compares with `clock` (this machine's clock when the fix arrived);
    /// `nil` when they agree within `tolerance`.
    public static func compare(receiverTime: Date, clock: Date) -> ReceiverClock? {
        let behind = clock.timeIntervalSince(receiverTime)
        guard behind.isFinite, abs(behind) > tolerance else { return nil }
        let periods = (behind / rolloverPeriod).rounded()
        if periods >= 1, abs(behind - periods * rolloverPeriod) <= 86_400 {
            return .weekRollover(periods: Int(periods))
        }
        return behind < 0 ? .machineClockLikelyBehind(seconds: -behind) : .receiverClockLikelyBehind(seconds: behind)
    }

    /// The note for `location`, when it has a receiver time that disagrees with its arrival on
    /// this machine's clock. A replay has none: the log runs on its own clock. Nor has GeoClue:
    /// it dates a fix on this machine's clock, so an earlier date is when it measured, not a
    /// clock fault.
    public static func note(for location: Location, locale: UserLocale = .english) -> String? {
        guard location.logClock == nil, location.source != .geoclue, let receiverTime = location.receiverTime,
              let comparison = compare(receiverTime: receiverTime, clock: location.timestamp) else { return nil }
        return comparison.text(receiverTime: receiverTime, locale: locale)
    }

    /// One line: what the receiver says, how far off that is, the likely cause and what to do.
    public func text(receiverTime: Date, locale: UserLocale = .english) -> String {
        let date = Self.utc(receiverTime)
        switch self {
        case .weekRollover(let periods):
            return locale.text(.receiverRollover, date, String(periods * 1024))
        case .machineClockLikelyBehind(let seconds):
            return locale.text(.receiverMachineBehind, date, Self.span(seconds, locale))
        case .receiverClockLikelyBehind(let seconds):
            return locale.text(.receiverReceiverBehind, date, Self.span(seconds, locale))
        }
    }

    /// "2035-06-01T12:00:00Z".
    static func utc(_ date: Date) -> String {
        LocalTime.iso8601(date, utcOffset: 0).replacing("+00:00", with: "Z")
    }

    /// "90 s", "12 min", "5 h", "3 days", "8.2 years".
    static func span(_ seconds: Double, _ locale: UserLocale = .english) -> String {
        if seconds < 120 { return locale.text(.unitSeconds, count: Int(seconds.rounded())) }
        if seconds < 7200 { return locale.text(.unitMinutes, count: Int((seconds / 60).rounded())) }
        if seconds < 3 * 86_400 { return locale.text(.unitHours, count: Int((seconds / 3600).rounded())) }
        if seconds < 365.25 * 86_400 { return locale.text(.unitDaysLong, count: Int((seconds / 86_400).rounded())) }
        return locale.text(.unitYears, locale.number(seconds / (365.25 * 86_400), 1))
    }
}
