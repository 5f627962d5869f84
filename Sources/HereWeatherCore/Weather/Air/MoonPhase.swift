#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The moon's age and phase at an instant, computed locally (no request): the mean synodic
/// month (29.530588853 days) counted from a known new moon (2000-01-06 18:14 UTC, Jean Meeus,
/// "Astronomical Algorithms", ch. 49).
///
/// The mean month ignores the moon's changing speed along its orbit, so a true new or full
/// moon falls up to about 0.6 days from the mean one: the age is right to within a day, as a
/// calendar's "moon day" (wttr.in's `%M`) needs.
public struct MoonPhase: Sendable, Equatable {
    /// Days since the last (mean) new moon: 0 up to 29.53.
    public var age: Double

    public static let synodicMonth = 29.530588853
    /// 2000-01-06 18:14 UTC, in seconds since 1970.
    static let referenceNewMoon = 947_182_440.0

    public init(at date: Date) {
        let days = (date.timeIntervalSince1970 - Self.referenceNewMoon) / 86_400
        let age = days.truncatingRemainder(dividingBy: Self.synodicMonth)
        self.age = age < 0 ? age + Self.synodicMonth : age
    }

    /// Which of the eight phases the age is in (each an eighth of the month, centred on its
    /// instant: new 0, first quarter a quarter, full a half, last quarter three quarters).
    public var phase: Phase {
        let eighth = Int((age / Self.synodicMonth * 8 + 0.5).rounded(.down)) % 8
        return Phase.allCases[eighth]
    }

    /// The eight phases, from new moon on.
    public enum Phase: Int, Sendable, CaseIterable {
        case new, waxingCrescent, firstQuarter, waxingGibbous, full, waningGibbous, lastQuarter, waningCrescent

        /// The emoji, as wttr.in's `%m` shows it (the northern hemisphere's view).
        public var emoji: String {
            ["🌑", "🌒", "🌓", "🌔", "🌕", "🌖", "🌗", "🌘"][rawValue]
        }

        /// A plain-text stand-in for `[output] icons = "ascii"`: the lit side as a bracket.
        public var ascii: String {
            ["@", ")", "D", "0", "O", "0", "C", "("][rawValue]
        }
    }

    /// The age as wttr.in's moon day: whole days since the new moon (0-29).
    public var day: Int { Int(age.rounded(.down)) }
}
